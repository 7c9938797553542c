/** How the multi-tenant Worker finds a request's tenant, whether tenants come from one document or one KV key each. */

import type { BrokenTenant } from "./tenant-document.ts";
import type { ResolvedTenant, TenantDirectory } from "./tenant-directory.ts";

/** Where a request goes: a tenant served, or one set aside with its problem. */
export type TenantResolution = { directory: TenantDirectory; resolved: ResolvedTenant } | { directory: TenantDirectory; broken: BrokenTenant };

export interface TenantLookup {
  /** The tenant of a request: by Host first, then by path prefix; undefined when none serves it. */
  resolve(request: Request, pathname: string): Promise<TenantResolution | undefined>;
  /** The directory holding the tenant with this id (sessions and tasks find their tenant by id). */
  byId(id: string): Promise<TenantDirectory | undefined>;
  /** The tenants served at the request's host, for its AI Catalog. */
  at(request: Request): Promise<ResolvedTenant[]>;
  /** The tenants admin API (`/admin/tenants`) of a store that has one; `token` is MCP_ADMIN_TOKEN, `secretKeys` MCP_SECRETS_KEY. */
  admin?(request: Request, token: string | undefined, secretKeys?: string): Promise<Response>;
}

/** The lookup of a whole tenants document, already read. */
export function documentLookup(directory: TenantDirectory): TenantLookup {
  return {
    resolve(request, pathname) {
      const resolved = directory.resolve(request, pathname);
      if (resolved) return Promise.resolve({ directory, resolved });
      const broken = directory.unavailable(request, pathname);
      return Promise.resolve(broken ? { directory, broken } : undefined);
    },
    byId: (id) => Promise.resolve(directory.tenants.some((t) => t.id === id) ? directory : undefined),
    at: (request) => Promise.resolve(directory.tenantsAt(request)),
  };
}
