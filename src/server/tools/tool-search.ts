/** Tool search settings, and what search reads of a listed tool. */

import { isObject } from "../../core/json.ts";
import type { handlerTools } from "./handler-tools.ts";
import type { Params } from "../../core/jsonrpc.ts";
import type { CallToolResult, JsonObject } from "../../core/types.ts";
import type { ToolLookup } from "./call-tool.ts";
import type { CompiledTool } from "./compile-tool.ts";
import type { TransportContext } from "../context/transport.ts";
import type { ToolFilter } from "./tool-filter.ts";
import type { ToolReader } from "./tool-view.ts";
import type { ToolDefinition } from "./tool.ts";

export interface SearchDocument {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  /** A host hint such as `_meta["anthropic/searchHint"]`: extra words the tool answers to. */
  hint?: string | undefined;
  /** Parameter names and descriptions, from the input schema's properties. */
  params: readonly { name: string; description?: string | undefined }[];
}

export interface SearchHit {
  /** The document's position in the indexed list. */
  doc: number;
  score: number;
}

export interface SearchOutcome {
  /** How many documents matched at all (only the best `limit` are in `hits`). */
  matched: number;
  /** Best first; equal scores in name order. */
  hits: SearchHit[];
}

/**
 * Tool search, opt-in (`toolSearch: {}` in server options or a tenant config): the tools
 * `search_tools`, `describe_tools` and `call_tool` are added to the server, so that any client can
 * find and call tools among thousands.
 */
export interface ToolSearchOptions {
  /**
   * What `tools/list` shows. `all` (default): every tool, plus the search tools. `pinned`: only
   * the pinned tools plus the search tools; every other tool is still callable by name, and found
   * with `search_tools`.
   */
  exposure?: "all" | "pinned";
  /**
   * Tools always listed, marked for hosts to keep loaded (`_meta["anthropic/alwaysLoad"]`). A
   * name that is not a tool of the server is ignored (with a log line): a service's catalogue may
   * drop a tool without breaking the tenant.
   */
  pinned?: readonly string[];
}

/** Search results of one caller: the listed form of each tool found. */
export interface ToolSearchResult {
  /** Tools the caller may see (the search tools left out). */
  total: number;
  matched: number;
  tools: JsonObject[];
}

/** What the search tools need of the server's tools (tool-catalog.ts, over its registry), as the caller of `filter` sees them. */
export interface ToolCatalog {
  /** The best `limit` tools for a query, and how many matched. */
  search(query: string, limit: number, filter?: ToolFilter): ToolSearchResult;
  /** The named tools, in the order asked; names of tools the caller cannot see go to `unknown`. */
  pick(names: readonly string[], filter?: ToolFilter): { total: number; tools: JsonObject[]; unknown: string[] };
  /** The request's view of the tools for this reader: the caller's filter narrowed by what features hide. */
  viewFor(ctx: TransportContext | undefined, reader: ToolReader): ToolFilter | undefined;
}

/** One caller's view of the tools, cached by the registry: what it may see and, once counted, which searchable tools. */
export interface CatalogView {
  readonly allows: ((name: string) => boolean) | undefined;
  /** By search document; undefined when every tool is allowed. */
  allowedDocs: Uint8Array | undefined;
  /** How many searchable tools the view shows; -1 until counted. */
  visible: number;
}

/**
 * What a catalogue (search, pick, the visible tools: tool-catalog.ts) reads of a server's tools: the
 * registry, which carries no search code itself, so that only tool search and code mode bundle it.
 */
export interface CatalogSource extends ToolLookup {
  /** The tools search finds: all but the search tools, in listing order. */
  readonly searchable: readonly CompiledTool[];
  /** The engine of tool search, when it is on. */
  readonly searchEngine: ToolSearchEngine | undefined;
  /** The cached view of a caller's filter. */
  view(filter: ToolFilter | undefined): CatalogView;
  viewFor(ctx: TransportContext | undefined, reader: ToolReader): ToolFilter | undefined;
}

/**
 * What tool search runs on: its three tools, its index, and how `call_tool` finds its target.
 * It is handed to the server by {@link ToolSearch} (made by `toolSearch()`), so a server without
 * tool search does not bundle any of it.
 */
export interface ToolSearchEngine {
  definitions(tools: CatalogSource): ToolDefinition[];
  /**
   * What `tools/list` shows and search finds of the compiled tools (the search tools first): the
   * pinned ones are marked for hosts to keep loaded, and listed with the search tools.
   */
  arrange(order: readonly CompiledTool[], options: ToolSearchOptions): ArrangedTools;
  /** What to add to the error of a tool name declared twice: whether a search tool has it. */
  declaredTwice(name: string): string;
  /** The index of the searchable tools, from their listed forms (what the engine reads of each is its own). */
  index(listed: readonly JsonObject[]): { search(query: string, limit: number, allowed?: Uint8Array): SearchOutcome };
  callTarget(
    callToolItself: CompiledTool,
    params: Params | undefined,
    ctx: TransportContext,
    registry: ToolLookup & Pick<ToolCatalog, "viewFor">,
  ): Promise<{ tool: CompiledTool; params: Params } | CallToolResult>;
  /** The `ctx.tools` of every handler of a server with tool search: its tools read the model's view there. */
  handlerTools: typeof handlerTools;
}

/** The tools as tool search lays them out (see {@link ToolSearchEngine.arrange}). */
export interface ArrangedTools {
  listed: readonly CompiledTool[];
  searchable: readonly CompiledTool[];
  /** `call_tool`: `tools/call` runs its target in its place. */
  callTool: CompiledTool | undefined;
}

/** Tool search turned on: its settings and its engine. Make it with `toolSearch(options)`. */
export interface ToolSearch extends ToolSearchOptions {
  readonly engine: ToolSearchEngine;
}

export const SEARCH_TOOLS = "search_tools";
export const DESCRIBE_TOOLS = "describe_tools";
export const CALL_TOOL = "call_tool";
export const SEARCH_TOOL_NAMES: ReadonlySet<string> = new Set([SEARCH_TOOLS, DESCRIBE_TOOLS, CALL_TOOL]);

/** The `_meta` key hosts read to keep a tool loaded when they defer the others (Claude Code). */
export const ALWAYS_LOAD = "anthropic/alwaysLoad";
/** The `_meta` key of extra words a tool answers to in a host's own tool search. */
export const SEARCH_HINT = "anthropic/searchHint";

/** Marks a listed tool for hosts to keep loaded. */
export function alwaysLoaded(listed: JsonObject): JsonObject {
  const meta = isObject(listed["_meta"]) ? listed["_meta"] : {};
  return { ...listed, _meta: { ...meta, [ALWAYS_LOAD]: true } };
}
