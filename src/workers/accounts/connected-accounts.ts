/** Connected accounts (opt-in): providers declared in code, `ctx.accounts.token(name)` for handlers, and the connect routes. */

import { ProtocolError } from "../../core/errors.ts";
import { ToolError } from "../../core/tool-error.ts";
import type { Feature } from "../../server/feature.ts";
import type { TransportContext } from "../../server/context/transport.ts";
import { InputRequired, checkCapabilities, type InputRequest } from "../../server/inputs/input.ts";
import type { ResolvedProvider } from "./account-provider.ts";
import type { AccountOwner, AccountSummary } from "./account-store.ts";
import type { AccountAnswer } from "./accounts-object.ts";
import { accountsSettings, type AccountsSettings, type ConnectedAccountsOptions } from "./accounts-settings.ts";
import { connectRoutes, type AccountsFetcher } from "./connect-routes.ts";
import { sessionReference, signConnectState } from "./connect-state.ts";
import type { KeyedTenantStore } from "../keyed-tenant-store.ts";
import { tenantAccountsSource, type TenantsOfEnv } from "./tenant-providers.ts";

/** 2025-11-25 "URL Elicitation Required": the call needs the user to visit a URL first. */
export const URL_ELICITATION_REQUIRED = -32042;

/** What a handler reads as `ctx.accounts`. */
export interface HandlerAccounts {
  /**
   * A fresh access token of the calling principal's account at the provider, to call its API as
   * the user. Never put it in a result, a log or an error. When the user has not connected the
   * provider (or the provider refused its refresh token) the call is answered with a URL
   * elicitation that sends the user to connect it: in 2026-07-28 an `input_required` result, in
   * 2025-11-25 the error -32042; the client's retry after the user connected runs the call again.
   */
  token(provider: string): Promise<string>;
  /**
   * A token for another API, exchanged for the account's access token at the provider's token
   * endpoint (RFC 8693 token exchange), cached until it expires. Asks the user to connect as
   * {@link token} does.
   */
  exchange(provider: string, request: { audience?: string; scope?: string }): Promise<string>;
}

declare module "../../server/context/handler-context.ts" {
  interface HandlerContext {
    /** The caller's connected accounts: present where the Worker's server has the `connectedAccounts` feature. */
    readonly accounts?: HandlerAccounts;
  }
}

/** Connected accounts: `feature` goes into `createServer({ features })`, `routes(worker)` is the Worker to export. */
export interface ConnectedAccounts<E> {
  readonly feature: Feature;
  /**
   * Wraps a Worker (`createWorker`, `createMultiTenantWorker`, `createOAuthWorker`) with the connect
   * routes `/accounts/connect`, `/accounts/identify` and `/accounts/callback`; other paths pass through
   * with the same env (its type is this feature's `E`: make it include what the wrapped Worker reads).
   */
  routes(worker: AccountsFetcher<never>): AccountsFetcher<E>;
  /**
   * The accounts of one principal in one tenant, for an admin route of your own (behind your admin
   * auth): `list` shows providers, status and when each was connected (never a token), `disconnect`
   * forgets a provider's tokens.
   */
  /** Called by `createMultiTenantWorker({ accounts })`: tenants' configs may declare providers (`accounts.providers`). */
  useTenants(tenants: TenantsOfEnv, store: KeyedTenantStore | undefined): void;
  admin(env: E): {
    list(owner: AccountOwner): Promise<AccountSummary[]>;
    disconnect(owner: AccountOwner, provider: string): Promise<boolean>;
  };
}

/**
 * Lets tools act for their user on other services. Declare the providers, add the feature to the
 * server, wrap the Worker with the routes and export {@link McpAccountsObject}:
 *
 * ```ts
 * const accounts = connectedAccounts<Env>({
 *   providers: { github: { authorizationEndpoint: "https://github.com/login/oauth/authorize", tokenEndpoint: "https://github.com/login/oauth/access_token",
 *     clientId: (env) => env.GITHUB_CLIENT_ID, clientSecret: { binding: "GITHUB_CLIENT_SECRET" }, tokenAuth: "post", scopes: ["repo"] } },
 *   baseUrl: (env) => env.PUBLIC_URL,
 * });
 * const server = createServer({ tools, features: [accounts.feature] });
 * export default accounts.routes(createWorker(server, { authorizer }));
 * export { McpAccountsObject } from "edge-mcp/workers";
 * ```
 */
export function connectedAccounts<E extends object>(options: ConnectedAccountsOptions<E>): ConnectedAccounts<E> {
  const settings = accountsSettings(options);
  return {
    feature: {
      name: "connected-accounts",
      install: () => ({ context: { accounts: (transport: TransportContext) => handlerAccounts(settings, transport) } }),
    },
    routes: (worker) => connectRoutes(settings, worker),
    useTenants: (tenants, store) => settings.useTenants(tenantAccountsSource(tenants, store)),
    admin: (env) => ({
      list: (owner) => settings.object(env, owner).list(owner, settings.keyName),
      disconnect: (owner, provider) => settings.object(env, owner).disconnect(owner, settings.keyName, provider),
    }),
  };
}

/** `ctx.accounts` of one request. */
function handlerAccounts<E extends object>(settings: AccountsSettings<E>, transport: TransportContext): HandlerAccounts {
  async function answer(
    name: string,
    ask: (object: ReturnType<AccountsSettings<E>["object"]>, owner: AccountOwner, provider: ResolvedProvider) => Promise<AccountAnswer>,
  ): Promise<string> {
    const { tenant, principal } = transport.admission;
    if (principal === undefined) throw new ToolError(`connecting ${name} needs a signed-in user, and this call has none`);
    const env = (transport.endpoint.env ?? {}) as E;
    const provider = await settings.resolve(env, tenant, name);
    if (provider === undefined) throw new Error(`ctx.accounts: no connected account provider "${name}" is declared for this tenant`);
    const owner: AccountOwner = { tenant, issuer: principal.issuer, subject: principal.subject };
    const found = await ask(settings.object(env, owner), owner, provider);
    if (found.kind === "token") return found.accessToken;
    if (found.kind === "unavailable") throw new ToolError(`${provider.title} cannot be reached for this user now: ${found.message}. Try again later.`);
    // A 2025-11-25 session is told when the link completes: the signed state names it (never by its id).
    const session = transport.era === "legacy" && transport.sessionId !== undefined ? await sessionReference(transport.sessionId) : undefined;
    const state = await signConnectState(await settings.keys(env), { ...owner, provider: name, nonce: found.nonce, expiresAt: found.expiresAt, session });
    const url = `${settings.baseUrl(env)}/accounts/connect?state=${encodeURIComponent(state)}`;
    const message = `Connect your ${provider.title} account so that this tool can act for you there.`;
    if (transport.era === "modern") {
      // 2026-07-28: the URL request ends this run with input_required; the client's retry runs the call again.
      const requests: Record<string, InputRequest> = {
        [`connect_${name}`]: { method: "elicitation/create", params: { mode: "url", message, url, elicitationId: found.nonce } },
      };
      checkCapabilities(transport.clientCapabilities, requests);
      throw new InputRequired(requests);
    }
    // 2025-11-25 "URL Elicitation Required Error": the client retries after the user connected (a session is also notified).
    throw new ProtocolError(URL_ELICITATION_REQUIRED, `This request needs you to connect your ${provider.title} account first.`, {
      data: { elicitations: [{ mode: "url", elicitationId: found.nonce, url, message }] },
    });
  }
  return {
    token: (name) => answer(name, (object, owner, provider) => object.token(owner, settings.keyName, provider)),
    exchange: (name, request) =>
      answer(name, (object, owner, provider) =>
        object.exchange(owner, settings.keyName, provider, {
          ...(request.audience === undefined ? {} : { audience: request.audience }),
          ...(request.scope === undefined ? {} : { scope: request.scope }),
        }),
      ),
  };
}
