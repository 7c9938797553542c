/** `toolSearch()`: turns tool search on, bringing its tools and index into the bundle only where it is used. */

import { arrangeTools, declaredTwice } from "./arrange-tools.ts";
import { searchDocument } from "./search-document.ts";
import { SearchIndex } from "./search-index.ts";
import { callTarget, searchToolDefinitions } from "./search-tools.ts";
import { handlerTools } from "../tools/handler-tools.ts";
import type { ToolSearch, ToolSearchEngine, ToolSearchOptions } from "../tools/tool-search.ts";

const ENGINE: ToolSearchEngine = {
  definitions: searchToolDefinitions,
  arrange: arrangeTools,
  declaredTwice,
  index: (listed) => new SearchIndex(listed.map(searchDocument)),
  callTarget,
  handlerTools,
};

/**
 * Tool search for `createServer({ toolSearch: toolSearch({...}) })`: adds `search_tools`,
 * `describe_tools` and `call_tool` (see {@link ToolSearchOptions}). Tenants turn it on with
 * `toolSearch` in their config instead.
 *
 * @example
 * createServer({ info, tools, toolSearch: toolSearch({ exposure: "pinned", pinned: ["crm_contact_get"] }) });
 */
export function toolSearch(options: ToolSearchOptions = {}): ToolSearch {
  return { ...options, engine: ENGINE };
}
