/** The tools of one server, compiled once: O(1) lookup and pre-serialised `tools/list` pages. */

import { DefinitionError } from "../core/definition-error.ts";
import { compileTool, type CompiledTool } from "./compile-tool.ts";
import { PagedList, type PagedListOptions } from "./paged-list.ts";
import type { Era } from "./handler-context.ts";
import type { ToolDefinition } from "./tool.ts";

export class ToolRegistry {
  readonly #tools = new Map<string, CompiledTool>();
  readonly #list: PagedList;

  constructor(definitions: readonly ToolDefinition[], options: PagedListOptions) {
    for (const definition of definitions) {
      const tool = compileTool(definition);
      if (this.#tools.has(tool.name)) throw new DefinitionError(`tool name "${tool.name}" is declared twice`);
      this.#tools.set(tool.name, tool);
    }
    const tools = [...this.#tools.values()];
    this.#list = new PagedList("tools/list", "tools", tools.map((tool) => JSON.stringify(tool.listed)), tools.map((tool) => tool.name), options);
  }

  get size(): number {
    return this.#tools.size;
  }

  get(name: string): CompiledTool | undefined {
    return this.#tools.get(name);
  }

  /** The serialised `tools/list` result for a cursor (undefined = first page). Throws -32602 for a cursor we did not mint. */
  page(cursor: unknown, era: Era): string {
    return this.#list.page(cursor, era);
  }
}
