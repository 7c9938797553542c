/** The opt-in that reads tenants one KV key each (`keyedTenants()`), for deployments with many tenants. */

import { DefinitionError } from "../core/definition-error.ts";
import { KeyedTenants, type KeyedTenantsOptions } from "../tenancy/keyed-tenants.ts";
import { tenantSecretReader } from "../tenancy/tenant-secret-reader.ts";
import type { TenantLookup } from "../tenancy/tenant-lookup.ts";
import type { TenantRecords } from "../tenancy/tenant-records.ts";

/** Bounds and timings of {@link keyedTenants}. */
export type KeyedTenantSettings = Pick<KeyedTenantsOptions, "ttlMs" | "missTtlMs" | "maxTenants" | "maxBytes" | "kvCacheTtlSeconds" | "recheckMs">;

/** What `createMultiTenantWorker({ tenantStore })` takes: made by {@link keyedTenants}. */
export interface KeyedTenantStore {
  readonly kind: "edge-mcp/keyed-tenants";
  /** The lookup over a namespace, building each tenant's directory with `directory`. */
  open(kv: KVNamespace, directory: KeyedTenantsOptions["directory"], records: TenantRecords | undefined): TenantLookup;
  /** A reader of `tenant`'s secret `name`, sealed in MCP_TENANTS_KV under MCP_SECRETS_KEY (the admin API writes them). */
  secret(env: { MCP_TENANTS_KV?: KVNamespace; MCP_SECRETS_KEY?: string }, tenant: string, name: string): () => Promise<string>;
}

/**
 * Tenants kept one per key in the MCP_TENANTS_KV namespace (`tenant:<id>`, with `host:<host>` and
 * `path:<prefix>` routes; `edge-mcp tenants import` writes them): an isolate reads only the
 * tenants it serves and holds at most `maxTenants` of them. See docs/tenants.md, "Many tenants".
 *
 * @example
 * export default createMultiTenantWorker({ modules, tenantStore: keyedTenants() });
 */
export function keyedTenants(settings: KeyedTenantSettings = {}): KeyedTenantStore {
  return {
    kind: "edge-mcp/keyed-tenants",
    open: (kv, directory, records) => new KeyedTenants({ ...settings, kv, directory, ...(records ? { records } : {}) }),
    secret: (env, tenant, name) => {
      if (!env.MCP_TENANTS_KV || !env.MCP_SECRETS_KEY)
        throw new DefinitionError(`tenant "${tenant}": its secret ${name} needs the MCP_TENANTS_KV binding and the MCP_SECRETS_KEY secret`);
      return tenantSecretReader(env.MCP_TENANTS_KV, env.MCP_SECRETS_KEY, tenant, name);
    },
  };
}
