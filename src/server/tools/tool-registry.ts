/**
 * The tools of one server: O(1) lookup and `tools/list` pages; tool search and code mode read them
 * through tool-catalog.ts. Declarations are checked at boot; validators and pages are built on
 * first use, once per isolate.
 */

import { ToolError } from "../../core/tool-error.ts";
import { DefinitionError } from "../../core/definition-error.ts";
import { compileTool, type CompiledTool } from "./compile-tool.ts";
import type { Era } from "../context/handler-context.ts";
import { PagedList, type PagedListOptions } from "../lists/paged-list.ts";
import type { Params } from "../../core/jsonrpc.ts";
import type { CallToolResult } from "../../core/types.ts";
import type { TransportContext } from "../context/transport.ts";
import type { ToolFilter } from "./tool-filter.ts";
import { closestName } from "../../core/suggest.ts";
import { narrowedView, type FeatureToolFilter, type ToolReader } from "./tool-view.ts";
import type { CatalogSource, CatalogView, ToolSearch, ToolSearchEngine } from "./tool-search.ts";
import type { ToolDefinition } from "./tool.ts";
import type { JsonSchemaValidator } from "./schema-validator.ts";

/** A module whose tools cannot be listed (not bound, failing): calls to its prefix get an explanation. */
export interface UnavailableModule {
  prefix: string;
  module: string;
  reason: string;
}

export interface ToolRegistryOptions extends PagedListOptions {
  /** The 2026-07-28 page tail of lists that depend on the caller (`cacheScope: "private"`); default `modernTail`. */
  privateModernTail?: string;
  /** Modules that could not be loaded: calls under their prefix get an isError result naming them. */
  unavailable?: readonly UnavailableModule[];
  /** Tool search: adds `search_tools`, `describe_tools` and `call_tool` (made by `toolSearch()`). */
  search?: ToolSearch | undefined;
  /** What features hide from a request's view (`FeatureParts.toolFilter`); the server fills it as they install. */
  filters?: readonly FeatureToolFilter[];
  /** Compiles the tools' JSON Schemas (`Feature.jsonSchema`); default: the core validator. */
  validator?: JsonSchemaValidator | undefined;
}

/** What one caller sees: its list pages and which searchable tools it may find (tool-catalog.ts counts them). */
interface ToolView extends CatalogView {
  list: PagedList | undefined;
}

/** Distinct scope sets kept at once: a view holds a copy of its pages, so the cache is bounded. */
const MAX_VIEWS = 32;

/** A tool standing in for a module that cannot be reached: every call explains, naming the module. */
function unavailableTool(name: string, module: string, reason: string): ToolDefinition {
  return {
    name,
    description: `Unavailable: module ${module}`,
    inputSchema: { type: "object" },
    handler: () => {
      // The reason is written to be shown (it names the module and never what the service threw).
      throw new ToolError(`module ${module} is unavailable: ${reason}`);
    },
  };
}

/**
 * A server's tools, found by name in O(1). Lists and search are served per caller view (all
 * tools, or those a caller's scopes allow); each view's pages are built on its first list request.
 */
export class ToolRegistry implements CatalogSource {
  readonly #tools = new Map<string, CompiledTool>();
  /** Every tool, in listing order (the search tools first). */
  readonly #order: CompiledTool[] = [];
  /** What `tools/list` shows, in order (all, or the pinned and search tools). */
  readonly #listed: readonly CompiledTool[];
  /** The tools search finds: all but the search tools. */
  readonly #searchable: readonly CompiledTool[];
  readonly #json = new Map<CompiledTool, string>();
  readonly #views = new Map<string, ToolView>();
  readonly #options: ToolRegistryOptions;
  readonly #unavailable: readonly UnavailableModule[];
  /** Whether any tool may run as a task (then the server has the `tasks/*` methods). */
  readonly taskCapable: boolean;
  /** The names of the tools that may run as tasks. */
  readonly taskTools: readonly string[];
  /** The `call_tool` of tool search, when it is on: `tools/call` runs its target in its place. */
  readonly callTool: CompiledTool | undefined;

  constructor(definitions: readonly ToolDefinition[], options: ToolRegistryOptions) {
    this.#options = options;
    this.#unavailable = options.unavailable ?? [];
    const search = options.search;
    const all = search ? [...search.engine.definitions(this), ...definitions] : definitions;
    for (const definition of all) {
      const tool = compileTool(definition, options.validator);
      if (this.#tools.has(tool.name)) throw new DefinitionError(`tool name "${tool.name}" is declared twice${search?.engine.declaredTwice(tool.name) ?? ""}`);
      this.#tools.set(tool.name, tool);
      this.#order.push(tool);
    }
    // Tool search decides what is listed and searched (its own tools come first); without it, every tool is both.
    const arranged = search?.engine.arrange(this.#order, search);
    this.#listed = arranged?.listed ?? this.#order;
    this.#searchable = arranged?.searchable ?? this.#order;
    this.callTool = arranged?.callTool;
    this.taskTools = this.#order.filter((tool) => tool.task !== "never").map((tool) => tool.name);
    this.taskCapable = this.taskTools.length > 0;
  }

  get size(): number {
    return this.#tools.size;
  }

  get(name: string): CompiledTool | undefined {
    return this.#tools.get(name);
  }

  /** The tool name closest to a mistyped one among those `visible` allows (the search tools too), if one is close. */
  closest(name: string, visible: (name: string) => boolean): string | undefined {
    return closestName(name, this.#names(visible));
  }

  *#names(visible: (name: string) => boolean): Iterable<string> {
    for (const tool of this.#order) if (visible(tool.name)) yield tool.name;
  }

  /** True when a feature hides tools from some requests (apps' app-only tools): what a caller sees then depends on the request. */
  get hidesTools(): boolean {
    return (this.#options.filters?.length ?? 0) > 0;
  }

  /** For a name under the prefix of an unavailable module: a tool whose calls explain why (isError). */
  unavailable(name: string): CompiledTool | undefined {
    const module = this.#unavailable.find((m) => name.startsWith(`${m.prefix}_`));
    return module ? compileTool(unavailableTool(name, module.module, module.reason)) : undefined;
  }

  /**
   * The serialised `tools/list` result for a cursor (undefined = first page), as the caller of
   * `filter` sees it. Throws -32602 for a cursor minted for another list or view.
   */
  page(cursor: unknown, era: Era, filter?: ToolFilter): string {
    const view = this.view(filter);
    view.list ??= this.#buildList(view, filter?.key, filter?.shared === true);
    return view.list.page(cursor, era);
  }

  /** The caller's view of the tools for this reader: its own filter narrowed by what features hide (undefined: every tool). */
  viewFor(ctx: TransportContext | undefined, reader: ToolReader): ToolFilter | undefined {
    return ctx === undefined ? undefined : narrowedView(ctx, this.#options.filters ?? [], reader);
  }

  /** The tool a `call_tool` names, admitted as a direct call of it, and that call's params (tool search only). */
  callTarget(
    callToolItself: CompiledTool,
    params: Params | undefined,
    ctx: TransportContext,
  ): Promise<{ tool: CompiledTool; params: Params } | CallToolResult> {
    const engine = this.#options.search?.engine as ToolSearchEngine;
    return engine.callTarget(callToolItself, params, ctx, this);
  }

  /** The tools search finds: all but the search tools, in listing order. */
  get searchable(): readonly CompiledTool[] {
    return this.#searchable;
  }

  /** The engine of tool search, when it is on. */
  get searchEngine(): ToolSearchEngine | undefined {
    return this.#options.search?.engine;
  }

  /** The cached view of a caller's filter (the 32 most recently used are kept). */
  view(filter: ToolFilter | undefined): ToolView {
    const key = filter === undefined ? "" : `f:${filter.key}`;
    let view = this.#views.get(key);
    if (view) {
      // Most recently used last: the oldest view is the one dropped.
      this.#views.delete(key);
    } else {
      view = { allows: filter && ((name: string) => filter.allows(name)), list: undefined, allowedDocs: undefined, visible: -1 };
      if (this.#views.size >= MAX_VIEWS) this.#views.delete(this.#views.keys().next().value as string);
    }
    this.#views.set(key, view);
    if (view.visible < 0 && !view.allows) view.visible = this.#searchable.length;
    return view;
  }

  #buildList(view: ToolView, key: string | undefined, shared: boolean): PagedList {
    const tools = this.#listed.filter((tool) => !view.allows || view.allows(tool.name));
    const json = tools.map((tool) => {
      let text = this.#json.get(tool);
      if (text === undefined) {
        text = JSON.stringify(tool.listed);
        this.#json.set(tool, text);
      }
      return text;
    });
    // A list that depends on who asks must not be shared across authorization contexts (2026-07-28 caching).
    const options =
      key === undefined
        ? this.#options
        : {
            ...this.#options,
            modernTail: shared ? this.#options.modernTail : (this.#options.privateModernTail ?? this.#options.modernTail),
            scope: `${this.#options.scope}\n${key}`,
          };
    return new PagedList(
      "tools/list",
      "tools",
      json,
      tools.map((tool) => tool.name),
      options,
    );
  }
}
