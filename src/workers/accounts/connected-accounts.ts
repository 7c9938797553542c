/** Connected accounts (opt-in): providers declared in code, `ctx.accounts.token(name)` for handlers, and the connect routes. */

import { ProtocolError } from "../../core/errors.ts";
import { ToolError } from "../../core/tool-error.ts";
import type { Feature } from "../../server/feature.ts";
import type { TransportContext } from "../../server/context/transport.ts";
import { InputRequired, checkCapabilities, type InputRequest } from "../../server/inputs/input.ts";
import { AccountKeys } from "./account-keys.ts";
import { resolveProvider, type AccountProvider, type AccountSetting, type ResolvedProvider } from "./account-provider.ts";
import type { AccountOwner } from "./account-store.ts";
import { accountsObjectName, type AccountAnswer, type McpAccountsObject } from "./accounts-object.ts";
import { connectRoutes, type AccountsFetcher } from "./connect-routes.ts";
import { signConnectState } from "./connect-state.ts";

/** 2025-11-25 "URL Elicitation Required": the call needs the user to visit a URL first. */
export const URL_ELICITATION_REQUIRED = -32042;

/** Options of {@link connectedAccounts}. */
export interface ConnectedAccountsOptions<E> {
  /** The providers users connect, by name (`[A-Za-z0-9_-]`); or the providers of each tenant (undefined: none). */
  readonly providers: Readonly<Record<string, AccountProvider<E>>> | ((tenant: string) => Readonly<Record<string, AccountProvider<E>>> | undefined);
  /** The Worker secret holding the keys that seal tokens and sign connect links (default `MCP_ACCOUNTS_KEY`). */
  readonly key?: string;
  /** The Durable Object binding of {@link McpAccountsObject} (default `MCP_ACCOUNTS`). */
  readonly binding?: string;
  /** The Worker's public origin (`https://mcp.example.com`): connect links and the provider's redirect URI start with it. */
  readonly baseUrl: AccountSetting<E>;
  /** Connect routes per client address and minute, per isolate (default 30). */
  readonly routesPerMinute?: number;
}

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
}

declare module "../../server/context/handler-context.ts" {
  interface HandlerContext {
    /** The caller's connected accounts: present where the Worker's server has the `connectedAccounts` feature. */
    readonly accounts?: HandlerAccounts;
  }
}

/** The settings the feature and the routes share, gathered once. */
export interface AccountsSettings<E> {
  readonly keyName: string;
  readonly bindingName: string;
  readonly options: ConnectedAccountsOptions<E>;
  /** The provider's declaration for a tenant, or undefined when that tenant has no provider of this name. */
  providerOf(tenant: string, name: string): AccountProvider<E> | undefined;
  keys(env: E): Promise<AccountKeys>;
  baseUrl(env: E): string;
  /** The principal's accounts object. */
  object(env: E, owner: AccountOwner): DurableObjectStub<McpAccountsObject>;
}

/** Connected accounts: `feature` goes into `createServer({ features })`, `routes(worker)` is the Worker to export. */
export interface ConnectedAccounts<E> {
  readonly feature: Feature;
  /** Wraps a Worker (`createWorker`, `createOAuthWorker`) with the connect routes `/accounts/connect` and `/accounts/callback`. */
  routes<W extends AccountsFetcher<E>>(worker: W): AccountsFetcher<E>;
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

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
  const keyName = options.key ?? "MCP_ACCOUNTS_KEY";
  const bindingName = options.binding ?? "MCP_ACCOUNTS";
  if (typeof options.providers !== "function") {
    for (const name of Object.keys(options.providers)) {
      if (!NAME.test(name)) throw new Error(`connectedAccounts: the provider name "${name}" must be 1 to 64 of A-Z a-z 0-9 _ -`);
    }
  }
  let ring: { secret: unknown; keys: Promise<AccountKeys> } | undefined;
  const settings: AccountsSettings<E> = {
    keyName,
    bindingName,
    options,
    providerOf(tenant, name) {
      const providers = typeof options.providers === "function" ? options.providers(tenant) : options.providers;
      return providers !== undefined && NAME.test(name) && Object.hasOwn(providers, name) ? providers[name] : undefined;
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
  return {
    feature: {
      name: "connected-accounts",
      install: () => ({ context: { accounts: (transport: TransportContext) => handlerAccounts(settings, transport) } }),
    },
    routes: (worker) => connectRoutes(settings, worker),
  };
}

/** `ctx.accounts` of one request. */
function handlerAccounts<E extends object>(settings: AccountsSettings<E>, transport: TransportContext): HandlerAccounts {
  return {
    async token(name) {
      const { tenant, principal } = transport.admission;
      if (principal === undefined) throw new ToolError(`connecting ${name} needs a signed-in user, and this call has none`);
      const declared = settings.providerOf(tenant, name);
      if (declared === undefined) throw new Error(`ctx.accounts.token: no connected account provider "${name}" is declared for this tenant`);
      const env = (transport.endpoint.env ?? {}) as E;
      const provider: ResolvedProvider = await resolveProvider(name, declared, env);
      const owner: AccountOwner = { tenant, issuer: principal.issuer, subject: principal.subject };
      const answer: AccountAnswer = await settings.object(env, owner).token(owner, settings.keyName, provider);
      if (answer.kind === "token") return answer.accessToken;
      if (answer.kind === "unavailable") throw new ToolError(`${provider.title} cannot be reached for this user now: ${answer.message}. Try again later.`);
      const state = await signConnectState(await settings.keys(env), { ...owner, provider: name, nonce: answer.nonce, expiresAt: answer.expiresAt });
      const url = `${settings.baseUrl(env)}/accounts/connect?state=${encodeURIComponent(state)}`;
      const message = `Connect your ${provider.title} account so that this tool can act for you there.`;
      if (transport.era === "modern") {
        // 2026-07-28: the URL request ends this run with input_required; the client's retry runs the call again.
        const requests: Record<string, InputRequest> = {
          [`connect_${name}`]: { method: "elicitation/create", params: { mode: "url", message, url, elicitationId: answer.nonce } },
        };
        checkCapabilities(transport.clientCapabilities, requests);
        throw new InputRequired(requests);
      }
      // 2025-11-25 "URL Elicitation Required Error": no session needed; the client retries after the user connected.
      throw new ProtocolError(URL_ELICITATION_REQUIRED, `This request needs you to connect your ${provider.title} account first.`, {
        data: { elicitations: [{ mode: "url", elicitationId: answer.nonce, url, message }] },
      });
    },
  };
}
