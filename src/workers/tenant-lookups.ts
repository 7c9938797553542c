/** Where a multi-tenant Worker reads its tenants: one document (a var, a static object, or KV's `tenants` key) or one KV key each. */

import { DefinitionError } from "../core/definition-error.ts";
import { parseTenantsByTenant } from "../tenancy/tenant-document.ts";
import { TenantDirectory, type TenantDirectoryOptions } from "../tenancy/tenant-directory.ts";
import { DOCUMENT_KEY } from "../tenancy/tenant-keys.ts";
import { documentLookup, type TenantLookup } from "../tenancy/tenant-lookup.ts";
import { createCachedConfig, parseJson } from "../tenancy/tenant-source.ts";
import type { KeyedTenantStore } from "./keyed-tenant-store.ts";
import { durableTenantRecords, type McpQuotaObject } from "./state/quota-object.ts";

/** What the lookups read from the Worker's options and env. */
interface TenantSources {
  tenants?: unknown;
  configTtlMs?: number;
}
interface TenantBindings {
  MCP_TENANTS?: string;
  MCP_TENANTS_KV?: KVNamespace;
  MCP_QUOTAS?: DurableObjectNamespace<McpQuotaObject>;
}

/** The tenants of one document, read again after `configTtlMs`; a tenant whose new config is invalid keeps its last good one. */
export function documentTenantLookup(options: TenantSources, env: TenantBindings, directoryOptions: TenantDirectoryOptions): () => Promise<TenantLookup> {
  // Where the document was read, to name it in a JSON syntax error.
  let source = "the tenants document";
  const read = async (): Promise<string | undefined> => {
    if (options.tenants !== undefined) return JSON.stringify(options.tenants);
    source = env.MCP_TENANTS !== undefined ? "MCP_TENANTS" : `MCP_TENANTS_KV "${DOCUMENT_KEY}"`;
    if (env.MCP_TENANTS !== undefined) return env.MCP_TENANTS;
    return (await env.MCP_TENANTS_KV?.get(DOCUMENT_KEY, "text")) ?? undefined;
  };
  let previous: TenantDirectory | undefined;
  const build = (text: string): TenantLookup => {
    const document = parseTenantsByTenant(parseJson(text, source));
    previous = new TenantDirectory(document.tenants, directoryOptions, previous, document.broken);
    // Once per document: a tenant set aside answers 503 with its problem; the others are served.
    for (const broken of previous.broken) console.error(`edge-mcp: tenant ${broken.label} is not served, its configuration is invalid: ${broken.problem}`);
    return documentLookup(previous);
  };
  const config = createCachedConfig({ read, build, ...(options.configTtlMs === undefined ? {} : { ttlMs: options.configTtlMs }) });
  return () => config.get();
}

/** The tenants of MCP_TENANTS_KV, one key each, through the store the Worker opted in to. */
export function keyedTenantLookup(store: KeyedTenantStore, env: TenantBindings, directoryOptions: TenantDirectoryOptions): () => Promise<TenantLookup> {
  const kv = env.MCP_TENANTS_KV;
  if (kv === undefined) {
    const missing = Promise.reject(
      new DefinitionError(`keyedTenants() reads MCP_TENANTS_KV: add to wrangler.toml\n[[kv_namespaces]]\nbinding = "MCP_TENANTS_KV"\nid = "<namespace id>"`),
    );
    missing.catch(() => {});
    return () => missing;
  }
  const records = env.MCP_QUOTAS ? durableTenantRecords(env.MCP_QUOTAS) : undefined;
  const lookup = Promise.resolve(
    store.open(kv, (document, previous) => new TenantDirectory(document.tenants, directoryOptions, previous, document.broken), records),
  );
  return () => lookup;
}
