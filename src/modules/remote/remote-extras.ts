/**
 * The resources, resource templates and prompts of a remote module, under its prefix: prompts as
 * `<prefix>_<name>`, resources as `mcp-remote://<prefix>/<the upstream's URI>` (the upstream's URI
 * follows the prefix verbatim, so it is read back by cutting the head off). Listed when the module's
 * server is built, each read or get forwarded like a call.
 */

import { isObject } from "../../core/json.ts";
import type { JsonObject, ResourceContents } from "../../core/types.ts";
import { definePrompt } from "../../server/prompts/define-prompt.ts";
import type { PromptArgument, PromptDefinition, PromptGetReturn } from "../../server/prompts/prompt.ts";
import { defineResource, defineResourceTemplate } from "../../server/resources/define-resource.ts";
import type { ResourceDefinition, ResourceTemplateDefinition } from "../../server/resources/resource.ts";
import { ModuleFailure } from "../service-module.ts";
import { UpstreamErrorAnswer } from "./remote-answer.ts";
import type { RemoteModule } from "./remote-module.ts";

const METHOD_NOT_FOUND = -32601;
/** Pages of a list followed at most. */
const MAX_PAGES = 20;

export interface RemoteExtras {
  resources: ResourceDefinition[];
  templates: ResourceTemplateDefinition[];
  prompts: PromptDefinition[];
  /** What the upstream listed, for the digest that tells a changed catalogue. */
  catalog: unknown;
}

/** Our URI of an upstream resource: `mcp-remote://<prefix>/<uri>`. */
export function remoteUri(prefix: string, uri: string): string {
  return `mcp-remote://${prefix}/${uri}`;
}

/** The upstream's URI inside one of ours, or undefined when it is not under this prefix. */
export function upstreamUri(prefix: string, uri: string): string | undefined {
  const head = `mcp-remote://${prefix}/`;
  return uri.startsWith(head) && uri.length > head.length ? uri.slice(head.length) : undefined;
}

/** Every page of a list (`resources/list`, `prompts/list`, …): the items of `key` that are objects. */
async function listed(module: RemoteModule, method: string, key: string): Promise<JsonObject[]> {
  const items: JsonObject[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await module.send(method, cursor === undefined ? {} : { cursor }, method);
    const list = result[key];
    if (!Array.isArray(list)) throw new ModuleFailure(`module ${module.settings.name}: its ${method} result has no ${key} array`);
    for (const item of list as unknown[]) if (isObject(item)) items.push(item);
    cursor = typeof result["nextCursor"] === "string" ? result["nextCursor"] : undefined;
    if (cursor === undefined) break;
  }
  return items;
}

/** The listed fields a resource, template or prompt keeps. */
function described(item: JsonObject): { title?: string; description?: string; mimeType?: string } {
  const out: { title?: string; description?: string; mimeType?: string } = {};
  if (typeof item["title"] === "string") out.title = item["title"];
  if (typeof item["description"] === "string") out.description = item["description"];
  if (typeof item["mimeType"] === "string") out.mimeType = item["mimeType"];
  return out;
}

/** The contents of a read with each URI made ours again. */
function contentsOf(module: RemoteModule, result: JsonObject): ResourceContents[] {
  const contents = result["contents"];
  if (!Array.isArray(contents)) throw new ModuleFailure(`module ${module.settings.name}: its resources/read result has no contents array`);
  return (contents as unknown[]).filter(isObject).map((item) => {
    const uri = typeof item["uri"] === "string" ? remoteUri(module.settings.prefix, item["uri"]) : "";
    return { ...item, uri } as unknown as ResourceContents;
  });
}

async function read(module: RemoteModule, uri: string, ctx: Parameters<ResourceDefinition["read"]>[1]): Promise<ResourceContents[]> {
  const upstream = upstreamUri(module.settings.prefix, uri);
  if (upstream === undefined) throw new ModuleFailure(`module ${module.settings.name}: ${uri} is not one of its resources`);
  return contentsOf(module, await module.send("resources/read", { uri: upstream }, `resource ${upstream}`, ctx));
}

/**
 * Lists what the upstream has besides tools, where its capabilities say it has them (or, when they
 * are not known, where it answers the lists). A list that fails is left out and logged; the tools stay.
 */
export async function collectRemoteExtras(module: RemoteModule, log: (line: string) => void): Promise<RemoteExtras> {
  const { prefix } = module.settings;
  const capabilities = module.serverCapabilities;
  const has = (name: string) => capabilities === undefined || isObject(capabilities[name]);
  const attempt = async (method: string, key: string): Promise<JsonObject[]> => {
    if (!has(method.split("/")[0] as string)) return [];
    try {
      return await listed(module, method, key);
    } catch (error) {
      if (!(error instanceof ModuleFailure)) throw error;
      // An upstream that did not say its capabilities (a module fixed to 2026-07-28) and has no such list.
      if (error instanceof UpstreamErrorAnswer && error.rpcCode === METHOD_NOT_FOUND) return [];
      log(`its ${key} are left out: ${error.message.replace(`module ${module.settings.name}: `, "")}`);
      return [];
    }
  };
  const resourceItems = (await attempt("resources/list", "resources")).filter((item) => typeof item["uri"] === "string" && typeof item["name"] === "string");
  const templateItems = (await attempt("resources/templates/list", "resourceTemplates")).filter(
    (item) => typeof item["uriTemplate"] === "string" && typeof item["name"] === "string",
  );
  const promptItems = (await attempt("prompts/list", "prompts")).filter((item) => typeof item["name"] === "string");
  const resources: ResourceDefinition[] = resourceItems.map((item) =>
    defineResource({
      uri: remoteUri(prefix, item["uri"] as string),
      name: item["name"] as string,
      ...described(item),
      ...(typeof item["size"] === "number" ? { size: item["size"] } : {}),
      read: ({ uri }, ctx) => read(module, uri, ctx),
    }),
  );
  const templates: ResourceTemplateDefinition[] = templateItems.map((item) =>
    defineResourceTemplate({
      uriTemplate: remoteUri(prefix, item["uriTemplate"] as string),
      name: item["name"] as string,
      ...described(item),
      read: ({ uri }, ctx) => read(module, uri, ctx),
    }),
  );
  const prompts: PromptDefinition[] = promptItems.map((item) => {
    const name = item["name"] as string;
    const args = Array.isArray(item["arguments"]) ? (item["arguments"] as unknown[]).filter(isObject).filter((a) => typeof a["name"] === "string") : [];
    return definePrompt({
      name: `${prefix}_${name}`,
      ...described(item),
      ...(args.length > 0 ? { arguments: args as unknown as PromptArgument[] } : {}),
      get: async (values, ctx): Promise<PromptGetReturn> => {
        const result = await module.send("prompts/get", { name, arguments: values }, `prompt ${name}`, ctx);
        if (!Array.isArray(result["messages"])) throw new ModuleFailure(`module ${module.settings.name}: its prompts/get result has no messages array`);
        return {
          ...(typeof result["description"] === "string" ? { description: result["description"] } : {}),
          messages: result["messages"] as PromptGetReturn extends { messages: infer M } ? M : never,
        };
      },
    });
  });
  return {
    resources,
    templates,
    prompts,
    catalog: resourceItems.length + templateItems.length + promptItems.length === 0 ? null : [resourceItems, templateItems, promptItems],
  };
}
