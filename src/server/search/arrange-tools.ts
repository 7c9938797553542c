/** How tool search lays out a server's tools: its own three first, then what `exposure` and `pinned` list. */

import { CALL_TOOL, SEARCH_TOOL_NAMES, alwaysLoaded, type ArrangedTools, type ToolSearchOptions } from "../tools/tool-search.ts";
import type { CompiledTool } from "../tools/compile-tool.ts";

/**
 * The listed and searchable tools of a server with tool search (`order`: the search tools, then
 * the server's). A pinned name that is not a tool is logged and ignored: a service's catalogue may
 * drop a tool without breaking the tenant.
 */
export function arrangeTools(order: readonly CompiledTool[], options: ToolSearchOptions): ArrangedTools {
  const pinned = new Set(options.pinned ?? []);
  const names = new Set(order.map((tool) => tool.name));
  for (const name of pinned) {
    if (!names.has(name)) console.error(`edge-mcp: toolSearch.pinned names ${JSON.stringify(name)}, which is not a tool of this server; it is ignored`);
  }
  const listed = order.filter((tool, position) => {
    if (pinned.has(tool.name)) tool.listed = alwaysLoaded(tool.listed);
    return options.exposure !== "pinned" || position < SEARCH_TOOL_NAMES.size || pinned.has(tool.name);
  });
  return { listed, searchable: order.slice(SEARCH_TOOL_NAMES.size), callTool: order.find((tool) => tool.name === CALL_TOOL) };
}

/** Names a search tool taking a name declared twice. */
export function declaredTwice(name: string): string {
  return SEARCH_TOOL_NAMES.has(name) ? ` (${name} is a tool of tool search, which is on)` : "";
}
