/** Providers of connected accounts from a tenant's config (`accounts` in the tenants document), for a multi-tenant Worker. */

import { DefinitionError } from "../../core/definition-error.ts";
import { parseAccountsSection } from "../../tenancy/accounts-section.ts";
import type { TenantLookup } from "../../tenancy/tenant-lookup.ts";
import type { KeyedTenantStore } from "../keyed-tenant-store.ts";
import type { AccountProvider } from "./account-provider.ts";

/** The tenants of a multi-tenant Worker for an env (what `createMultiTenantWorker` hands `useTenants`). */
export type TenantsOfEnv = (env: unknown) => Promise<TenantLookup>;

/**
 * How connected accounts reads a multi-tenant Worker's tenants by id: the config's `accounts`
 * section, and the tenant's secrets through its keyed store (each reader held, bounded, per tenant and name).
 */
export function tenantAccountsSource(tenants: TenantsOfEnv, store: KeyedTenantStore | undefined): TenantAccountsSource {
  const readers = new Map<string, () => Promise<string>>();
  return async (env, id) => {
    const tenant = (await (await tenants(env)).byId(id))?.tenants.find((t) => t.id === id);
    if (tenant === undefined) return undefined;
    return {
      section: tenant.accounts,
      secret: (name) => {
        if (store === undefined) throw new DefinitionError(`tenant ${id}: its secret ${name} needs keyedTenants() (tenant secrets live in its store)`);
        // A reader holds its value a minute: one per tenant and secret.
        let reader = readers.get(`${id}\n${name}`);
        if (reader === undefined) {
          if (readers.size >= 1024) readers.clear();
          reader = store.secret(env as Parameters<KeyedTenantStore["secret"]>[0], id, name);
          readers.set(`${id}\n${name}`, reader);
        }
        return reader();
      },
    };
  };
}

/** One tenant as a multi-tenant Worker tells connected accounts about it: its `accounts` section, unchecked, and a reader of its secrets. */
export interface TenantAccountsEntry {
  readonly section: Record<string, unknown> | undefined;
  /** Reads one of the tenant's own secrets (keyedTenants() and MCP_SECRETS_KEY); throws naming it when there is none. */
  secret(name: string): Promise<string>;
}

/** How connected accounts reads a tenant of a multi-tenant Worker by id: undefined when no tenant has that id. */
export type TenantAccountsSource = (env: unknown, tenant: string) => Promise<TenantAccountsEntry | undefined>;

/** A provider declared by a tenant, with the reader of the tenant's secret its client secret is in. */
export interface TenantProvider<E> {
  readonly provider: AccountProvider<E>;
  readonly tenantSecret?: (name: string) => Promise<string>;
}

/** Each section parsed once (per config object): a changed config is a new object. */
const parsed = new WeakMap<object, Readonly<Record<string, AccountProvider>>>();

/** The tenant's provider of this name from its config, or undefined; a section that does not parse throws naming the tenant and field. */
export async function tenantProvider<E>(source: TenantAccountsSource, env: E, tenant: string, name: string): Promise<TenantProvider<E> | undefined> {
  const entry = await source(env, tenant);
  const section = entry?.section;
  if (entry === undefined || section === undefined) return undefined;
  let providers = parsed.get(section);
  if (providers === undefined) {
    providers = parseAccountsSection(section, (field, problem) => {
      throw new DefinitionError(`tenant ${tenant}: ${field} ${problem}`);
    }).providers;
    parsed.set(section, providers);
  }
  if (!Object.hasOwn(providers, name)) return undefined;
  return { provider: providers[name] as AccountProvider<E>, tenantSecret: (secret) => entry.secret(secret) };
}
