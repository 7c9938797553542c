/** `/.well-known/ai-catalog.json` of a multi-tenant Worker: the Server Cards of the tenants served at the request's host. */

import { aiCatalog, discoveryPreflight, discoveryResponse } from "../http/server-card/server-card.ts";
import type { ResolvedTenant } from "../tenancy/tenant-directory.ts";

/** The well-known path of the AI Catalog. */
export const AI_CATALOG_PATH = "/.well-known/ai-catalog.json";

/**
 * The catalog of a host: one entry per tenant with `serverCard` on that this host serves (its
 * own tenant when the host names one, else the tenants reached by path), never another host's.
 */
export function aiCatalogResponse(request: Request, served: readonly ResolvedTenant[]): Promise<Response> | Response {
  if (request.method === "OPTIONS") return discoveryPreflight();
  const url = new URL(request.url);
  const entries = served
    .filter(({ tenant }) => tenant.serverCard !== undefined)
    .map(({ tenant, path }) => ({ identifier: `urn:air:${url.hostname}:mcp:${tenant.id}`, url: `${url.origin}${path}/server-card` }));
  return discoveryResponse(request, aiCatalog(entries), "application/ai-catalog+json");
}
