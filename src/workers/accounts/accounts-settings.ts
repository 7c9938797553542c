/** The settings of connected accounts, gathered once and shared by the feature and the connect routes. */

import { AccountKeys } from "./account-keys.ts";
import { resolveProvider, type AccountProvider, type AccountSetting, type ResolvedProvider } from "./account-provider.ts";
import { accountsObjectName, type AccountOwner } from "./account-store.ts";
import type { BrowserSignIn } from "./browser-identity.ts";
import type { McpAccountsObject } from "./accounts-object.ts";
import { tenantProvider, type TenantAccountsSource, type TenantProvider } from "./tenant-providers.ts";

/** Options of {@link connectedAccounts}. */
export interface ConnectedAccountsOptions<E> {
  /**
   * The providers users connect, by name (`[A-Za-z0-9_-]`); or the providers of each tenant (undefined: none).
   * In a multi-tenant Worker (`createMultiTenantWorker({ accounts })`), a tenant's config adds its own
   * (`accounts.providers`); a provider of the code's of the same name wins. Default: none.
   */
  readonly providers?: Readonly<Record<string, AccountProvider<E>>> | ((tenant: string) => Readonly<Record<string, AccountProvider<E>>> | undefined);
  /** The Worker secret holding the keys that seal tokens and sign connect links (default `MCP_ACCOUNTS_KEY`). */
  readonly key?: string;
  /** The Durable Object binding of {@link McpAccountsObject} (default `MCP_ACCOUNTS`). */
  readonly binding?: string;
  /** The Worker's public origin (`https://mcp.example.com`): connect links and the provider's redirect URI start with it. */
  readonly baseUrl: AccountSetting<E>;
  /**
   * The Worker's own sign-in (`signIn.browserSignIn` of `edge-mcp/oauth`): the browser that opens a
   * connect link signs in first, and a browser signed in as anyone but the link's principal is
   * refused (a forwarded link). Without it, the confirmation page is the only check.
   */
  readonly signIn?: BrowserSignIn<E>;
  /** Connect routes per client address and minute, per isolate (default 30). */
  readonly routesPerMinute?: number;
}

/** The settings the feature and the routes share, gathered once. */
export interface AccountsSettings<E> {
  readonly keyName: string;
  readonly bindingName: string;
  readonly options: ConnectedAccountsOptions<E>;
  /**
   * The provider's declaration for a tenant, or undefined when that tenant has no provider of this
   * name: the code's providers first, then (in a multi-tenant Worker) the `accounts` section of the tenant's config.
   */
  providerOf(env: E, tenant: string, name: string): Promise<TenantProvider<E> | undefined>;
  /** The provider with its settings read (undefined as in {@link providerOf}). */
  resolve(env: E, tenant: string, name: string): Promise<ResolvedProvider | undefined>;
  /** Called by createMultiTenantWorker: where the tenants' `accounts` sections are read. */
  useTenants(source: TenantAccountsSource): void;
  keys(env: E): Promise<AccountKeys>;
  baseUrl(env: E): string;
  /** The principal's accounts object. */
  object(env: E, owner: AccountOwner): DurableObjectStub<McpAccountsObject>;
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Checks the options once and gathers the settings. */
export function accountsSettings<E extends object>(options: ConnectedAccountsOptions<E>): AccountsSettings<E> {
  const keyName = options.key ?? "MCP_ACCOUNTS_KEY";
  const bindingName = options.binding ?? "MCP_ACCOUNTS";
  if (options.providers !== undefined && typeof options.providers !== "function") {
    for (const name of Object.keys(options.providers)) {
      if (!NAME.test(name)) throw new Error(`connectedAccounts: the provider name "${name}" must be 1 to 64 of A-Z a-z 0-9 _ -`);
    }
  }
  let ring: { secret: unknown; keys: Promise<AccountKeys> } | undefined;
  let tenants: TenantAccountsSource | undefined;
  const providerOf = async (env: E, tenant: string, name: string): Promise<TenantProvider<E> | undefined> => {
    if (!NAME.test(name)) return undefined;
    const providers = typeof options.providers === "function" ? options.providers(tenant) : options.providers;
    const coded = providers !== undefined && Object.hasOwn(providers, name) ? providers[name] : undefined;
    if (coded !== undefined) return { provider: coded };
    return tenants === undefined ? undefined : tenantProvider(tenants, env, tenant, name);
  };
  return {
    keyName,
    bindingName,
    options,
    providerOf,
    async resolve(env, tenant, name) {
      const found = await providerOf(env, tenant, name);
      return found === undefined ? undefined : resolveProvider(name, found.provider, env, found.tenantSecret);
    },
    useTenants(source) {
      tenants = source;
    },
    keys(env) {
      const secret = (env as Record<string, unknown>)[keyName];
      if (ring !== undefined && ring.secret === secret) return ring.keys;
      const keys = AccountKeys.from(typeof secret === "string" ? secret : undefined, keyName);
      ring = { secret, keys };
      return keys;
    },
    baseUrl(env) {
      const value = typeof options.baseUrl === "function" ? options.baseUrl(env) : options.baseUrl;
      if (value === undefined || value === "")
        throw new Error("connectedAccounts: baseUrl is empty; set it (or the var it reads) to the Worker's public origin");
      return value.replace(/\/$/, "");
    },
    object(env, owner) {
      const namespace = (env as Record<string, unknown>)[bindingName] as DurableObjectNamespace<McpAccountsObject> | undefined;
      if (namespace === undefined) throw new Error(`connectedAccounts: the Durable Object binding ${bindingName} (class McpAccountsObject) is missing`);
      return namespace.get(namespace.idFromName(accountsObjectName(owner)));
    },
  };
}
