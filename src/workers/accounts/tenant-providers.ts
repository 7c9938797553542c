/** Providers of connected accounts from a tenant's config (`accounts` in the tenants document), for a multi-tenant Worker. */

import { DefinitionError } from "../../core/definition-error.ts";
import { parseAccountsSection } from "../../tenancy/accounts-section.ts";
import type { AccountProvider } from "./account-provider.ts";

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
