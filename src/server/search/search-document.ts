/** What the search index reads of a tool (its listed form): name, title, description, host hint and parameters. */

import { isObject } from "../../core/json.ts";
import type { JsonObject } from "../../core/types.ts";
import { SEARCH_HINT, type SearchDocument } from "../tools/tool-search.ts";

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** Parameter names and descriptions, two levels deep (an `options` object's own fields count too). */
function params(schema: unknown, depth: number, out: SearchDocument["params"][number][]): void {
  if (!isObject(schema) || !isObject(schema["properties"])) return;
  for (const [name, property] of Object.entries(schema["properties"])) {
    out.push({ name, description: isObject(property) ? text(property["description"]) : undefined });
    if (depth > 1) params(isObject(property) && property["type"] === "array" ? property["items"] : property, depth - 1, out);
  }
}

/** What the search index reads of a tool: its listed form. */
export function searchDocument(listed: JsonObject): SearchDocument {
  const found: SearchDocument["params"][number][] = [];
  params(listed["inputSchema"], 2, found);
  const meta = listed["_meta"];
  return {
    name: String(listed["name"]),
    title: text(listed["title"]) ?? (isObject(listed["annotations"]) ? text(listed["annotations"]["title"]) : undefined),
    description: text(listed["description"]),
    hint: isObject(meta) ? text(meta[SEARCH_HINT]) : undefined,
    params: found,
  };
}
