/** Resources and templates compiled once: listed pages, O(1) reads of fixed URIs, template matching. */

import { toBase64 } from "../../core/bytes.ts";
import { DefinitionError } from "../../core/definition-error.ts";
import { ErrorCode, ProtocolError, invalidParams } from "../../core/errors.ts";
import { isObject } from "../../core/json.ts";
import type { JsonObject, ResourceContents } from "../../core/types.ts";
import type { Era, HandlerContext } from "../context/handler-context.ts";
import { PagedList, type PagedListOptions } from "../lists/paged-list.ts";
import type { ResourceDefinition, ResourceReadReturn, ResourceTemplateDefinition } from "./resource.ts";
import type { UriTemplate } from "./uri-template.ts";

interface CompiledTemplate {
  definition: ResourceTemplateDefinition;
  template: UriTemplate;
}

function listed(definition: ResourceDefinition | ResourceTemplateDefinition): JsonObject {
  const { read: _read, ...rest } = definition;
  const item: JsonObject = { ...rest };
  delete item["complete"];
  delete item["list"];
  return item;
}

function toContents(uri: string, mimeType: string | undefined, value: ResourceReadReturn): ResourceContents[] {
  const withType = (contents: ResourceContents): ResourceContents =>
    mimeType !== undefined && contents.mimeType === undefined ? { ...contents, mimeType } : contents;
  if (typeof value === "string") return [withType({ uri, text: value })];
  if (value instanceof Uint8Array) return [withType({ uri, blob: toBase64(value) })];
  if (Array.isArray(value)) return value.map(withType);
  if (isObject(value)) return [withType(value)];
  throw new Error(`resource ${uri}: read returned ${typeof value}, not resource contents`);
}

/** The not-found error of each era: -32002 in 2025-11-25, -32602 with `data.uri` in 2026-07-28. */
export function resourceNotFound(uri: string, era: Era): ProtocolError {
  return new ProtocolError(era === "modern" ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { data: { uri } });
}

export class ResourceRegistry {
  readonly #fixed = new Map<string, ResourceDefinition>();
  readonly #templates: CompiledTemplate[] = [];
  readonly #resourceList: PagedList;
  readonly #templateList: PagedList;
  /** Templates with `list`, whose resources are listed after the fixed ones (read on each `resources/list`). */
  readonly #listing: ResourceTemplateDefinition[];
  readonly #fixedItems: string[];
  readonly #options: PagedListOptions;

  /** `compile`: the URI template matcher, brought by `defineResource*` (templates of plain objects alone have none). */
  constructor(
    resources: readonly ResourceDefinition[],
    templates: readonly ResourceTemplateDefinition[],
    options: PagedListOptions,
    compile?: (template: string) => UriTemplate,
  ) {
    for (const resource of resources) {
      if (typeof resource.uri !== "string" || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(resource.uri))
        throw new DefinitionError(`resource ${JSON.stringify(resource.uri)}: uri must be an absolute URI`);
      if (typeof resource.name !== "string" || resource.name === "") throw new DefinitionError(`resource ${resource.uri}: name is required`);
      if (this.#fixed.has(resource.uri)) throw new DefinitionError(`resource ${resource.uri} is declared twice`);
      this.#fixed.set(resource.uri, resource);
    }
    for (const definition of templates) {
      if (typeof definition.name !== "string" || definition.name === "")
        throw new DefinitionError(`resource template ${definition.uriTemplate}: name is required`);
      if (!compile) throw new DefinitionError(`resource template ${definition.uriTemplate}: declare it with defineResourceTemplate(…)`);
      this.#templates.push({ definition, template: compile(definition.uriTemplate) });
    }
    const fixed = [...this.#fixed.values()];
    this.#fixedItems = fixed.map((r) => JSON.stringify(listed(r)));
    this.#options = options;
    this.#listing = templates.filter((t) => t.list !== undefined);
    for (const t of this.#listing) {
      if (typeof t.list !== "function") throw new DefinitionError(`resource template ${t.uriTemplate}: list must be a function (ctx) => resources`);
    }
    this.#resourceList = new PagedList("resources/list", "resources", this.#fixedItems, [...this.#fixed.keys()], options);
    this.#templateList = new PagedList(
      "resources/templates/list",
      "resourceTemplates",
      templates.map((t) => JSON.stringify(listed(t))),
      templates.map((t) => t.uriTemplate),
      options,
    );
  }

  get size(): number {
    return this.#fixed.size + this.#templates.length;
  }

  /**
   * A page of `resources/list`. With templates that list their resources, the list is the fixed
   * resources then theirs, cut into pages as any list is; its cursors hold while what they list does
   * (a cursor of a list that changed meanwhile is refused, and the client starts again).
   */
  resourcesPage(cursor: unknown, era: Era, ctx: () => HandlerContext): string | Promise<string> {
    if (this.#listing.length === 0) return this.#resourceList.page(cursor, era);
    return this.#listedPage(cursor, era, ctx());
  }

  async #listedPage(cursor: unknown, era: Era, ctx: HandlerContext): Promise<string> {
    const items = [...this.#fixedItems];
    const keys = [...this.#fixed.keys()];
    for (const template of this.#listing) {
      for (const resource of await (template.list as NonNullable<ResourceTemplateDefinition["list"]>)(ctx)) {
        if (!isObject(resource) || typeof resource.uri !== "string" || typeof resource.name !== "string") {
          throw new Error(`resource template ${template.uriTemplate}: list returned an entry without a uri and a name`);
        }
        const entry = template.mimeType !== undefined && resource.mimeType === undefined ? { ...resource, mimeType: template.mimeType } : resource;
        items.push(JSON.stringify(entry));
        keys.push(resource.uri);
      }
    }
    return new PagedList("resources/list", "resources", items, keys, this.#options).page(cursor, era);
  }

  templatesPage(cursor: unknown, era: Era): string {
    return this.#templateList.page(cursor, era);
  }

  /** The template whose `uriTemplate` is exactly this string (completion references). */
  template(uriTemplate: string): ResourceTemplateDefinition | undefined {
    return this.#templates.find((t) => t.definition.uriTemplate === uriTemplate)?.definition;
  }

  /** Reads a resource; throws the era's not-found error for a URI no resource or template serves. */
  async read(uri: unknown, ctx: HandlerContext): Promise<{ contents: ResourceContents[] }> {
    if (typeof uri !== "string" || uri === "")
      throw invalidParams(`resources/read needs params.uri, a resource URI from resources/list or a resource template`);
    const fixed = this.#fixed.get(uri);
    if (fixed) return { contents: toContents(uri, fixed.mimeType, await fixed.read({ uri }, ctx)) };
    for (const { definition, template } of this.#templates) {
      const variables = template.match(uri);
      if (!variables) continue;
      const value = await definition.read({ uri, variables }, ctx);
      if (value === undefined) break;
      const contents = toContents(uri, definition.mimeType, value);
      // 2026-07-28 resources: never answer a missing resource with empty contents.
      if (contents.length === 0) break;
      return { contents };
    }
    throw resourceNotFound(uri, ctx.era);
  }
}
