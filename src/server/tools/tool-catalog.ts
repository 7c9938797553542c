/**
 * A server's tools as tool search and code mode read them: the best tools for a query, the named
 * ones, every visible one, each as one caller sees them. Only those opt-ins bundle it.
 */

import type { JsonObject } from "../../core/types.ts";
import type { ToolFilter } from "./tool-filter.ts";
import type { CatalogSource, CatalogView, SearchOutcome, ToolCatalog, ToolSearchResult } from "./tool-search.ts";

/** A catalogue with every visible tool too (code mode's declarations). */
export interface FullToolCatalog extends ToolCatalog {
  /** The listed form of every tool the caller may see, the search tools left out. */
  visible(filter?: ToolFilter): JsonObject[];
}

const catalogues = new WeakMap<CatalogSource, FullToolCatalog>();

/** Which searchable tools a view shows (counted on its first search or pick, then kept with the view). */
function allowedDocs(tools: CatalogSource, view: CatalogView): Uint8Array | undefined {
  if (!view.allows || view.visible >= 0) return view.allowedDocs;
  const allows = view.allows;
  const allowed = new Uint8Array(tools.searchable.length);
  let visible = 0;
  tools.searchable.forEach((tool, doc) => {
    if (allows(tool.name)) {
      allowed[doc] = 1;
      visible++;
    }
  });
  view.allowedDocs = allowed;
  view.visible = visible;
  return allowed;
}

/** The catalogue of a server's tools (one per registry: the search index is built on its first search). */
export function toolCatalog(tools: CatalogSource): FullToolCatalog {
  let catalogue = catalogues.get(tools);
  if (catalogue) return catalogue;
  let index: { search(query: string, limit: number, allowed?: Uint8Array): SearchOutcome } | undefined;
  catalogue = {
    search(query, limit, filter): ToolSearchResult {
      const engine = tools.searchEngine;
      if (!engine) return { total: 0, matched: 0, tools: [] };
      index ??= engine.index(tools.searchable.map((tool) => tool.listed));
      const view = tools.view(filter);
      const outcome = index.search(query, limit, allowedDocs(tools, view));
      return { total: view.visible, matched: outcome.matched, tools: outcome.hits.map((hit) => tools.searchable[hit.doc]?.listed as JsonObject) };
    },
    pick(names, filter) {
      const view = tools.view(filter);
      allowedDocs(tools, view);
      const found: JsonObject[] = [];
      const unknown: string[] = [];
      for (const name of new Set(names)) {
        const tool = tools.get(name);
        if (tool && (!view.allows || view.allows(name))) found.push(tool.listed);
        else unknown.push(name);
      }
      return { total: view.visible, tools: found, unknown };
    },
    visible: (filter) => tools.searchable.filter((tool) => !filter || filter.allows(tool.name)).map((tool) => tool.listed),
    viewFor: (ctx, reader) => tools.viewFor(ctx, reader),
  };
  catalogues.set(tools, catalogue);
  return catalogue;
}
