/** An MCP Worker behind its own OAuth authorization server: workers-oauth-provider, wrapped, with sign-in upstream. */

import { OAuthProvider, type OAuthHelpers, type OAuthResourceAuth } from "@cloudflare/workers-oauth-provider";
import type { Principal } from "../core/principal.ts";
import type { Authorizer } from "../http/admission/authorizer.ts";
import type { HandlerContext } from "../server/context/handler-context.ts";
import { endpointGuard, type EndpointGuardOptions } from "./endpoint-guard.ts";
import { isLoopbackUrl } from "./loopback.ts";
import { refusePrivateClient } from "./cimd-host-guard.ts";
import { loadLoopbackClient } from "./loopback-cimd.ts";
import { oauthAuthorizer } from "./oauth-authorizer.ts";
import { detectRefreshReuse } from "./refresh-reuse.ts";
import { CALLBACK_PATH, createSignInApp } from "./sign-in-app.ts";
import { type GrantProps, SignedInRegistry, type SignedInUser } from "./signed-in.ts";
import type { EnvValue, Upstream, UpstreamCallback, UpstreamRequest } from "./upstream.ts";
import { upstreamRefresh } from "./upstream-refresh.ts";
import { userIdOf } from "./user-id.ts";

const MCP_PATH = "/mcp";
const TOKEN_PATH = "/oauth/token";
const REGISTER_PATH = "/oauth/register";
const GUARDED = new Set(["/authorize", TOKEN_PATH, REGISTER_PATH, CALLBACK_PATH]);
/** The library's default access token lifetime (an hour), in seconds. */
const DEFAULT_ACCESS_SECONDS = 3_600;
/** The library's default refresh token lifetime (30 days), in seconds. */
const DEFAULT_REFRESH_SECONDS = 2_592_000;
/** Providers kept per isolate, one per resource URL (a Worker reached under several hosts). */
const MAX_PROVIDERS = 8;

/** The env the authorization server needs: its KV namespace (grants, hashed tokens, clients). */
export interface OAuthEnv {
  OAUTH_KV: KVNamespace;
  /** Set by the library during a request: its helpers. */
  OAUTH_PROVIDER?: OAuthHelpers;
  /** The MCP endpoint's canonical URL (`https://mcp.example.com/mcp`); default: `<origin>/mcp` of the request. */
  OAUTH_RESOURCE?: string;
}

/** Options of {@link oauthSignIn}. */
export interface OAuthSignInOptions<E> {
  /** Where users sign in: `oidcUpstream({...})`, `githubUpstream({...})`, or your own {@link Upstream}. */
  upstream: Upstream<E>;
  /** The provider's name on the consent page ("Microsoft", "Google", "GitHub"); default the upstream's kind. */
  upstreamName?: string;
  /** This server's name on the consent page (default "this MCP server"). */
  serverName?: string;
  /** Scopes this server grants and advertises; a client's request is cut to these (default none). */
  scopes?: string[];
  /** Scopes a tool needs, by tool name (`"*"` for every tool without an entry of its own). */
  toolScopes?: Record<string, string[]>;
  /** The MCP endpoint's canonical URL; default the OAUTH_RESOURCE var, else `<origin>/mcp` of the request. */
  resource?: EnvValue<E>;
  /**
   * Client ID Metadata Documents. Over https they need the `global_fetch_strictly_public`
   * compatibility flag (the library's rule). `allowLoopback` also accepts documents on a loopback
   * host, for development only: it takes effect only while the resource itself is on a loopback host.
   */
  cimd?: { allowLoopback?: boolean | ((env: E) => boolean) };
  /** Rate limit and body bound of the authorization endpoints. */
  limits?: EndpointGuardOptions;
  /** Access token lifetime in seconds (default 3600). */
  accessTokenTTL?: number;
  /** Refresh token lifetime in seconds (default 30 days). */
  refreshTokenTTL?: number;
}

/** The sign-in of one MCP Worker: its authorizer (for `createWorker`), and what handlers read of the user. */
export interface OAuthSignIn<E> {
  /** Pass to `createWorker(server, { authorizer })`: admits the principal the authorization server found. */
  readonly authorizer: Authorizer;
  /** The signed-in user (principal, upstream issuer and subject, kept claims); undefined for a call not admitted through sign-in. */
  user(ctx: Pick<HandlerContext, "principal">): SignedInUser | undefined;
  /**
   * The user's upstream access token, to call the upstream API as the user. Never put it in a
   * result or a log. Throws `NotSignedInError` for a call that did not come through sign-in in this
   * request (a session or task object, a code-mode program).
   */
  upstreamToken(ctx: Pick<HandlerContext, "principal">): string;
  /**
   * The same sign-in for a browser outside the MCP client: pass it to `connectedAccounts({ signIn })`
   * so that the browser opening a connect link signs in first and must be the link's principal.
   * Register `<origin>/accounts/identify` as a redirect URI at the upstream provider.
   */
  readonly browserSignIn: {
    authorizationUrl(request: UpstreamRequest, env: E): Promise<string>;
    principal(callback: UpstreamCallback, env: E, origin: string): Promise<{ issuer: string; subject: string }>;
  };
  /** @internal The settings `createOAuthWorker` reads. */
  readonly settings: OAuthSignInOptions<E>;
  /** @internal Where the requests' principals are bound. */
  readonly registry: SignedInRegistry;
}

/**
 * Declares how users sign in to an MCP Worker. Build the Worker with its authorizer, then wrap it:
 *
 * ```ts
 * const signIn = oauthSignIn({ upstream: oidcUpstream({ issuer: (env) => env.OIDC_ISSUER, clientId: (env) => env.OIDC_CLIENT_ID }) });
 * const mcp = createWorker(server, { authorizer: signIn.authorizer });
 * export default createOAuthWorker(mcp, signIn);
 * ```
 */
export function oauthSignIn<E>(options: OAuthSignInOptions<E>): OAuthSignIn<E> {
  const registry = new SignedInRegistry();
  return {
    authorizer: oauthAuthorizer(registry, MCP_PATH, options.toolScopes ?? {}),
    user: (ctx) => registry.userOf(ctx.principal),
    upstreamToken: (ctx) => registry.upstreamTokenOf(ctx.principal, "this Worker's"),
    browserSignIn: {
      authorizationUrl: (request, env) => options.upstream.authorizationUrl(request, env),
      async principal(callback, env, origin) {
        const identity = await options.upstream.signIn(callback, env);
        const configured =
          options.resource === undefined
            ? (env as { OAUTH_RESOURCE?: string }).OAUTH_RESOURCE
            : typeof options.resource === "function"
              ? options.resource(env)
              : options.resource;
        // The principal admission makes of this user's tokens: issuer this server's origin, subject the hashed user id.
        const issuer = configured ? new URL(configured).origin : origin;
        return { issuer, subject: await userIdOf(identity.issuer, identity.subject) };
      },
    },
    settings: options,
    registry,
  };
}

type Fetcher<E> = { fetch(request: Request, env: E, ctx: ExecutionContext): Response | Promise<Response> };

/** The principal of a request the library admitted: issuer this server, subject the hashed user id (never the upstream `sub`). */
function principalOf(resource: string, auth: OAuthResourceAuth): Principal {
  return {
    issuer: new URL(resource).origin,
    subject: auth.userId ?? "",
    scopes: auth.scope,
    via: "oauth",
    ...(auth.clientId === undefined ? {} : { clientId: auth.clientId }),
    ...(auth.expiresAt === undefined ? {} : { expiresAt: auth.expiresAt }),
  };
}

/**
 * The Worker to export: `@cloudflare/workers-oauth-provider` (1.2.3) in front of the MCP Worker.
 * The library owns `/mcp`'s 401 challenge, its protected-resource metadata
 * (`/.well-known/oauth-protected-resource/mcp`), the authorization-server metadata, the token
 * endpoint (PKCE S256, refresh rotation, revocation, tokens bound to the resource), registration
 * (DCR) and CIMD; this adds the consent page and the upstream sign-in, the upstream token's refresh
 * with the grant's, the development switch for loopback CIMD, refresh-token reuse detection (the
 * grant is revoked), and rate limits and body bounds on the authorization endpoints.
 */
export function createOAuthWorker<E extends OAuthEnv>(
  worker: Fetcher<E>,
  signIn: OAuthSignIn<E>,
): { fetch(request: Request, env: E, ctx: ExecutionContext): Promise<Response> } {
  const settings = signIn.settings;
  const app = createSignInApp<E>({
    upstream: settings.upstream,
    scopes: settings.scopes ?? [],
    serverName: settings.serverName ?? "this MCP server",
    upstreamName: settings.upstreamName ?? settings.upstream.kind,
  });
  const guard = endpointGuard(settings.limits);
  const providers = new Map<string, OAuthProvider<E>>();
  const refreshUpstream = upstreamRefresh(settings.upstream, settings.accessTokenTTL ?? DEFAULT_ACCESS_SECONDS);
  const apiHandler = {
    fetch(request: Request, env: E, ctx: ExecutionContext): Response | Promise<Response> {
      const admitted = ctx as ExecutionContext & { props?: GrantProps; auth?: OAuthResourceAuth };
      if (admitted.auth === undefined || admitted.props === undefined) return new Response("Unauthorized", { status: 401 });
      const principal = principalOf(admitted.auth.audience, admitted.auth);
      // The MCP Worker never sees the bearer: the principal travels by the request object, which no header can forge.
      const headers = new Headers(request.headers);
      headers.delete("authorization");
      const forwarded = new Request(request, { headers });
      signIn.registry.bind(forwarded, principal, admitted.props);
      return worker.fetch(forwarded, env, ctx);
    },
  };

  function providerFor(resource: string): OAuthProvider<E> {
    let provider = providers.get(resource);
    if (provider !== undefined) return provider;
    provider = new OAuthProvider<E>({
      apiRoute: MCP_PATH,
      apiHandler,
      defaultHandler: { fetch: (request, env, ctx) => app.fetch(request, env, ctx) },
      authorizeEndpoint: "/authorize",
      tokenEndpoint: TOKEN_PATH,
      clientRegistrationEndpoint: REGISTER_PATH,
      resourceMetadata: { resource },
      ...(settings.scopes === undefined ? {} : { scopesSupported: settings.scopes }),
      clientIdMetadataDocumentEnabled: true,
      ...(settings.accessTokenTTL === undefined ? {} : { accessTokenTTL: settings.accessTokenTTL }),
      ...(settings.refreshTokenTTL === undefined ? {} : { refreshTokenTTL: settings.refreshTokenTTL }),
      tokenExchangeCallback: refreshUpstream,
    });
    if (providers.size >= MAX_PROVIDERS) providers.delete(providers.keys().next().value as string);
    providers.set(resource, provider);
    return provider;
  }

  return {
    async fetch(request, env, ctx) {
      const url = new URL(request.url);
      const configured =
        settings.resource === undefined ? env.OAUTH_RESOURCE : typeof settings.resource === "function" ? settings.resource(env) : settings.resource;
      const resource = configured || `${url.origin}${MCP_PATH}`;
      let admitted: Request = request;
      if (GUARDED.has(url.pathname)) {
        const guarded = await guard(request);
        if (guarded instanceof Response) return guarded;
        admitted = guarded;
        const loopback = settings.cimd?.allowLoopback;
        const loopbackAllowed = (loopback === true || (typeof loopback === "function" && loopback(env))) && isLoopbackUrl(resource);
        const refused =
          (await refusePrivateClient(admitted, TOKEN_PATH, loopbackAllowed)) ??
          (loopbackAllowed ? await loadLoopbackClient(admitted, env.OAUTH_KV, TOKEN_PATH) : undefined);
        if (refused !== undefined) return refused;
      }
      const provider = providerFor(resource);
      if (admitted.method !== "POST" || url.pathname !== TOKEN_PATH) return provider.fetch(admitted, env, ctx);
      const form = await admitted
        .clone()
        .formData()
        .catch(() => undefined);
      const response = await provider.fetch(admitted, env, ctx);
      await detectRefreshReuse(form, response, env, settings.refreshTokenTTL ?? DEFAULT_REFRESH_SECONDS);
      return response;
    },
  };
}
