/** The tools of one server, compiled once: O(1) lookup and pre-serialised `tools/list` pages. */

import { DefinitionError } from "../core/definition-error.ts";
import { invalidParams } from "../core/errors.ts";
import type { Era } from "./tool-context.ts";
import { compileTool, type CompiledTool } from "./compile-tool.ts";
import type { ToolDefinition } from "./tool.ts";

export interface ToolRegistryOptions {
  /** Tools per `tools/list` page. */
  pageSize: number;
  /** JSON appended to every 2026-07-28 list result (resultType, ttlMs, cacheScope, _meta), starting with a comma. */
  modernListTail: string;
  /** Binds cursors to this registry (and later to a tenant): a cursor from elsewhere is refused. */
  scope: string;
}

/** 32-bit FNV-1a, as 8 hex digits: a cheap fingerprint that makes cursors registry-specific. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

function toBase64Url(text: string): string {
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

export class ToolRegistry {
  readonly #tools = new Map<string, CompiledTool>();
  readonly #legacyPages: string[] = [];
  readonly #modernPages: string[] = [];
  readonly #cursors = new Map<string, number>();

  constructor(definitions: readonly ToolDefinition[], options: ToolRegistryOptions) {
    for (const definition of definitions) {
      const tool = compileTool(definition);
      if (this.#tools.has(tool.name)) throw new DefinitionError(`tool name "${tool.name}" is declared twice`);
      this.#tools.set(tool.name, tool);
    }
    if (!Number.isSafeInteger(options.pageSize) || options.pageSize < 1) throw new DefinitionError(`pageSize must be a positive integer`);
    const listed = [...this.#tools.values()].map((tool) => JSON.stringify(tool.listed));
    const print = fingerprint(`${options.scope}\n${options.pageSize}\n${[...this.#tools.keys()].join("\n")}`);
    const pageCount = Math.max(1, Math.ceil(listed.length / options.pageSize));
    for (let page = 0; page < pageCount; page++) {
      const tools = `"tools":[${listed.slice(page * options.pageSize, (page + 1) * options.pageSize).join(",")}]`;
      let next = "";
      if (page + 1 < pageCount) {
        const cursor = toBase64Url(`${print}:${page + 1}`);
        this.#cursors.set(cursor, page + 1);
        next = `,"nextCursor":${JSON.stringify(cursor)}`;
      }
      this.#legacyPages.push(`{${tools}${next}}`);
      this.#modernPages.push(`{${tools}${next}${options.modernListTail}}`);
    }
  }

  get size(): number {
    return this.#tools.size;
  }

  get(name: string): CompiledTool | undefined {
    return this.#tools.get(name);
  }

  /** The serialised `tools/list` result for a cursor (undefined = first page). Throws -32602 for a cursor we did not mint. */
  page(cursor: unknown, era: Era): string {
    let index = 0;
    if (cursor !== undefined) {
      const found = typeof cursor === "string" ? this.#cursors.get(cursor) : undefined;
      if (found === undefined) throw invalidParams(`Invalid cursor: use a nextCursor value from a previous tools/list result, or omit the cursor for the first page`);
      index = found;
    }
    return (era === "modern" ? this.#modernPages : this.#legacyPages)[index] as string;
  }
}
