/** The tools of one server, compiled once: O(1) lookup and pre-serialised `tools/list` pages. */

import { DefinitionError } from "../core/definition-error.ts";
import { compileTool, type CompiledTool } from "./compile-tool.ts";
import { PagedList, type PagedListOptions } from "./paged-list.ts";
import type { Era } from "./handler-context.ts";
import type { ToolDefinition } from "./tool.ts";

/** A module whose tools cannot be listed (not bound, failing): calls to its prefix get an explanation. */
export interface UnavailableModule {
  prefix: string;
  module: string;
  reason: string;
}

/** A tool standing in for a module that cannot be reached: every call explains, naming the module. */
function unavailableTool(name: string, module: string, reason: string): ToolDefinition {
  return {
    name,
    description: `Unavailable: module ${module}`,
    inputSchema: { type: "object" },
    handler: () => {
      throw new Error(`module ${module} is unavailable: ${reason}`);
    },
  };
}

export class ToolRegistry {
  readonly #tools = new Map<string, CompiledTool>();
  readonly #list: PagedList;
  readonly #unavailable: readonly UnavailableModule[];
  /** Whether any tool may run as a task (then the server has the `tasks/*` methods). */
  readonly taskCapable: boolean;

  constructor(definitions: readonly ToolDefinition[], options: PagedListOptions, unavailable: readonly UnavailableModule[] = []) {
    this.#unavailable = unavailable;
    for (const definition of definitions) {
      const tool = compileTool(definition);
      if (this.#tools.has(tool.name)) throw new DefinitionError(`tool name "${tool.name}" is declared twice`);
      this.#tools.set(tool.name, tool);
    }
    const tools = [...this.#tools.values()];
    this.taskCapable = tools.some((tool) => tool.task !== "never");
    this.#list = new PagedList("tools/list", "tools", tools.map((tool) => JSON.stringify(tool.listed)), tools.map((tool) => tool.name), options);
  }

  get size(): number {
    return this.#tools.size;
  }

  get(name: string): CompiledTool | undefined {
    return this.#tools.get(name);
  }

  /** For a name under the prefix of an unavailable module: a tool whose calls explain why (isError). */
  unavailable(name: string): CompiledTool | undefined {
    const module = this.#unavailable.find((m) => name.startsWith(`${m.prefix}_`));
    return module ? compileTool(unavailableTool(name, module.module, module.reason)) : undefined;
  }

  /** The serialised `tools/list` result for a cursor (undefined = first page). Throws -32602 for a cursor we did not mint. */
  page(cursor: unknown, era: Era): string {
    return this.#list.page(cursor, era);
  }
}
