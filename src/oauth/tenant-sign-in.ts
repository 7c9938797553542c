/** An authorization server per tenant of the multi-tenant Worker: workers-oauth-provider, one instance per tenant, its KV keys under the tenant's prefix. */

import { OAuthProvider, type OAuthHelpers, type OAuthResourceAuth } from "@cloudflare/workers-oauth-provider";
import type { Principal } from "../core/principal.ts";
import type { HandlerContext } from "../server/context/handler-context.ts";
import { DefinitionError } from "../core/definition-error.ts";
import type { TenantConfig } from "../tenancy/tenant-config.ts";
import { parseSignIn, type TenantSignInConfig } from "../tenancy/sign-in-section.ts";
import type { SignInTenantRequest, TenantSignInOptIn } from "../workers/tenant-sign-in-hook.ts";
import { PAGE_HEADERS, errorPage } from "./consent-page.ts";
import { endpointGuard, type EndpointGuardOptions } from "./endpoint-guard.ts";
import { oauthAuthorizer } from "./oauth-authorizer.ts";
import { oidcUpstream } from "./oidc-upstream.ts";
import { withIssParameter, withIssuer } from "./path-issuer.ts";
import { prefixedKv } from "./prefixed-kv.ts";
import { refusePrivateClient } from "./cimd-host-guard.ts";
import { detectRefreshReuse } from "./refresh-reuse.ts";
import { upstreamRefresh } from "./upstream-refresh.ts";
import { CALLBACK_PATH, createSignInApp } from "./sign-in-app.ts";
import { type GrantProps, SignedInRegistry, type SignedInUser } from "./signed-in.ts";

/** RFC 8414's well-known prefix; a path-routed tenant's metadata is at this prefix followed by its issuer's path. */
const AS_METADATA = "/.well-known/oauth-authorization-server";
const DEFAULT_REFRESH_SECONDS = 2_592_000;
/** The library's default access token lifetime (an hour), in seconds. */
const DEFAULT_ACCESS_SECONDS = 3_600;
/** Where the upstream client secret travels in the env the library and the sign-in app see (never the MCP handlers' env). */
const CLIENT_SECRET = "EDGE_MCP_TENANT_SIGN_IN_SECRET";

/** Options of {@link tenantSignIn}. */
export interface TenantSignInOptions {
  /** Rate limit and body bound of every tenant's authorization endpoints. */
  limits?: EndpointGuardOptions;
  /** Access token lifetime in seconds (default 3600). */
  accessTokenTTL?: number;
  /** Refresh token lifetime in seconds (default 30 days). */
  refreshTokenTTL?: number;
  /** Authorization servers held per isolate, one per tenant and resource URL; the least recently used goes first (default 256). */
  maxTenants?: number;
}

/** The per-tenant sign-in: pass it as `createMultiTenantWorker({ signIn })`; handlers read the user through it. */
export interface TenantSignIn extends TenantSignInOptIn {
  /** The signed-in user of a call admitted through its tenant's authorization server; undefined otherwise. */
  user(ctx: Pick<HandlerContext, "principal">): SignedInUser | undefined;
  /** The user's upstream access token (never put it in a result or a log); throws `NotSignedInError` for a call not admitted through sign-in in this request. */
  upstreamToken(ctx: Pick<HandlerContext, "principal">): string;
}

type TenantEnv = { OAUTH_KV: KVNamespace; OAUTH_PROVIDER?: OAuthHelpers | undefined; [CLIENT_SECRET]?: string | undefined };

/** One request on its way through a tenant's provider: what the library's API handler needs to reach the tenant's endpoint. */
interface Passage {
  readonly issuer: string;
  readonly served: SignInTenantRequest;
}

/** Sections parsed, by the config object they came from (a changed config is a new object). */
const parsedSections = new WeakMap<object, TenantSignInConfig>();

/** The tenant's `signIn`, validated; throws a DefinitionError naming the field. */
function sectionOf(tenant: TenantConfig): TenantSignInConfig {
  const raw = tenant.signIn ?? {};
  let parsed = parsedSections.get(raw);
  if (parsed === undefined) {
    parsed = parseSignIn(raw, (field, problem) => {
      throw new DefinitionError(`tenant ${tenant.id}: ${field} ${problem}`);
    });
    parsedSections.set(raw, parsed);
  }
  return parsed;
}

function json(status: number, body: Record<string, string>): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store" } });
}

/** Whether `clientId` is on the tenant's list: an exact id, or under a listed URL prefix ending in `/`. */
function clientAllowed(clients: readonly string[], clientId: string | null): boolean {
  return clientId !== null && clients.some((allowed) => allowed === clientId || (allowed.endsWith("/") && clientId.startsWith(allowed)));
}

/**
 * Each tenant whose config has a `signIn` section gets its own authorization server, signing users in
 * with the tenant's OpenID provider. The library is given the Worker's OAUTH_KV under the tenant's
 * prefix (`t:<id>:`), so a token one tenant issued is found by no other. A host-routed tenant's issuer
 * is its origin; a path-routed tenant's is `<origin><pathPrefix>`, its metadata at RFC 8414's
 * path-inserted URL (`/.well-known/oauth-authorization-server/t/acme`), which this serves by asking
 * the library for its origin metadata and naming the issuer with its path.
 *
 * @example
 * export default createMultiTenantWorker({ modules, tenantStore: keyedTenants(), signIn: tenantSignIn() });
 */
export function tenantSignIn(options: TenantSignInOptions = {}): TenantSignIn {
  const registry = new SignedInRegistry();
  const guard = endpointGuard(options.limits);
  const maxTenants = options.maxTenants ?? 256;
  const providers = new Map<string, OAuthProvider<TenantEnv>>();
  const passages = new WeakMap<object, Passage>();

  const apiHandler = {
    fetch(request: Request, env: TenantEnv, ctx: ExecutionContext): Promise<Response> | Response {
      const passage = passages.get(env);
      const admitted = ctx as ExecutionContext & { props?: GrantProps; auth?: OAuthResourceAuth };
      if (passage === undefined || admitted.auth === undefined || admitted.props === undefined) return new Response("Unauthorized", { status: 401 });
      const { auth } = admitted;
      const principal: Principal = {
        issuer: passage.issuer,
        subject: auth.userId ?? "",
        scopes: auth.scope,
        via: "oauth",
        ...(auth.clientId === undefined ? {} : { clientId: auth.clientId }),
        ...(auth.expiresAt === undefined ? {} : { expiresAt: auth.expiresAt }),
      };
      // The tenant's endpoint never sees the bearer: the principal travels by the request object, which no header can forge.
      const headers = new Headers(request.headers);
      headers.delete("authorization");
      const forwarded = new Request(request, { headers });
      registry.bind(forwarded, principal, admitted.props);
      return passage.served.mcp(forwarded);
    },
  };

  /** The tenant's provider for this resource, built once per isolate while its config stays the same. */
  function providerFor(tenant: TenantConfig, config: TenantSignInConfig, prefix: string, origin: string, path: string): OAuthProvider<TenantEnv> {
    const key = `${tenant.id}\n${origin}${path}\n${JSON.stringify(config)}`;
    const held = providers.get(key);
    if (held !== undefined) {
      providers.delete(key);
      providers.set(key, held);
      return held;
    }
    const upstream = oidcUpstream<TenantEnv>({
      issuer: config.issuer,
      clientId: config.clientId,
      ...(config.clientSecret ? { clientSecret: (env: TenantEnv) => env[CLIENT_SECRET] } : {}),
      ...(config.upstreamScopes ? { scopes: config.upstreamScopes } : {}),
    });
    const app = createSignInApp<TenantEnv>({
      upstream,
      scopes: config.scopes ?? [],
      serverName: config.serverName ?? tenant.server?.title ?? tenant.server?.name ?? "this MCP server",
      upstreamName: config.upstreamName ?? upstream.kind,
      basePath: prefix,
    });
    const issuer = `${origin}${prefix}`;
    const provider = new OAuthProvider<TenantEnv>({
      apiRoute: path,
      apiHandler,
      defaultHandler: { fetch: (request, env, ctx) => app.fetch(request, env, ctx) },
      authorizeEndpoint: `${prefix}/authorize`,
      tokenEndpoint: `${prefix}/oauth/token`,
      // A tenant that lists its clients takes no dynamic registrations.
      ...(config.clients ? {} : { clientRegistrationEndpoint: `${prefix}/oauth/register` }),
      // The library names its issuer by origin; a path-routed tenant's metadata names its own.
      resourceMetadata: { resource: `${origin}${path}`, ...(prefix === "" ? {} : { authorization_servers: [issuer] }) },
      ...(config.scopes === undefined ? {} : { scopesSupported: config.scopes }),
      clientIdMetadataDocumentEnabled: true,
      // Tenants on one origin (by path) keep their consent and upstream cookies apart.
      cookiePrefix: `__Host-t-${tenant.id}-`,
      tokenExchangeCallback: upstreamRefresh(upstream, options.accessTokenTTL ?? DEFAULT_ACCESS_SECONDS),
      ...(options.accessTokenTTL === undefined ? {} : { accessTokenTTL: options.accessTokenTTL }),
      ...(options.refreshTokenTTL === undefined ? {} : { refreshTokenTTL: options.refreshTokenTTL }),
    });
    if (providers.size >= maxTenants) providers.delete(providers.keys().next().value as string);
    providers.set(key, provider);
    return provider;
  }

  async function serve(request: Request, env: object, ctx: ExecutionContext, served: SignInTenantRequest): Promise<Response> {
    const { tenant, path } = served;
    let config: TenantSignInConfig;
    try {
      config = sectionOf(tenant);
    } catch (error) {
      if (!(error instanceof DefinitionError)) throw error;
      console.error(`edge-mcp: ${error.message}`);
      return json(503, { error: "temporarily_unavailable", error_description: `Tenant unavailable: its configuration is invalid: ${error.message}` });
    }
    const url = new URL(request.url);
    const prefix = path.slice(0, -"/mcp".length);
    const issuer = `${url.origin}${prefix}`;
    const kv = (env as { OAUTH_KV?: KVNamespace }).OAUTH_KV;
    if (kv === undefined) {
      console.error(`edge-mcp: tenant ${tenant.id}: signIn needs a KV namespace bound as OAUTH_KV`);
      return json(503, { error: "temporarily_unavailable", error_description: "This tenant's authorization server is not set up" });
    }
    let admitted = request;
    const guarded = [`${prefix}/authorize`, `${prefix}/oauth/token`, `${prefix}/oauth/register`, `${prefix}${CALLBACK_PATH}`];
    if (guarded.includes(url.pathname)) {
      const checked = await guard(request);
      if (checked instanceof Response) return checked;
      admitted = checked;
      const refused = await refusePrivateClient(admitted, `${prefix}/oauth/token`, false, `${prefix}/authorize`);
      if (refused !== undefined) return refused;
    }
    if (
      config.clients &&
      url.pathname === `${prefix}/authorize` &&
      request.method === "GET" &&
      !clientAllowed(config.clients, url.searchParams.get("client_id"))
    ) {
      const page = new Response(errorPage("unauthorized_client", "This client may not sign in here."), { status: 400 });
      for (const [name, value] of Object.entries(PAGE_HEADERS)) page.headers.set(name, value);
      return page;
    }
    // The upstream client secret is read only where it is used: the callback's code exchange, and a refresh of the upstream token.
    let secret: string | undefined;
    if (config.clientSecret && (url.pathname === `${prefix}${CALLBACK_PATH}` || url.pathname === `${prefix}/oauth/token`)) {
      try {
        secret = await served.secret?.(config.clientSecret.tenantSecret);
      } catch (error) {
        console.error(`edge-mcp: tenant ${tenant.id}: signIn.clientSecret cannot be read: ${error instanceof Error ? error.message : String(error)}`);
      }
      // Without it the callback cannot sign anyone in; a refresh then answers temporarily_unavailable, and the grant stays.
      if (secret === undefined && url.pathname === `${prefix}${CALLBACK_PATH}`)
        return json(503, { error: "temporarily_unavailable", error_description: "This tenant's sign-in is not set up" });
    }
    const tenantEnv: TenantEnv = Object.assign(Object.create(env) as object, {
      OAUTH_KV: prefixedKv(kv, `t:${tenant.id}:`),
      OAUTH_PROVIDER: undefined,
      [CLIENT_SECRET]: secret,
    });
    passages.set(tenantEnv, { issuer, served });
    const provider = providerFor(tenant, config, prefix, url.origin, path);
    const metadata = prefix !== "" && url.pathname === `${AS_METADATA}${prefix}`;
    if (metadata) admitted = new Request(`${url.origin}${AS_METADATA}`, admitted);
    const token = admitted.method === "POST" && url.pathname === `${prefix}/oauth/token`;
    const form = token
      ? await admitted
          .clone()
          .formData()
          .catch(() => undefined)
      : undefined;
    if (token && config.clients && !clientAllowed(config.clients, tokenClientId(admitted, form)))
      return json(401, { error: "invalid_client", error_description: "This client may not use this server" });
    const response = await provider.fetch(admitted, tenantEnv, ctx);
    if (token) await detectRefreshReuse(form, response, tenantEnv, options.refreshTokenTTL ?? DEFAULT_REFRESH_SECONDS);
    if (prefix === "") return response;
    if (metadata && response.ok && request.method === "GET") return withIssuer(response, issuer);
    return withIssParameter(response, url.origin, issuer);
  }

  return {
    kind: "edge-mcp/tenant-sign-in",
    lookupPath: (pathname) => (pathname.startsWith(`${AS_METADATA}/`) ? pathname.slice(AS_METADATA.length) : undefined),
    // A section that does not parse admits no one: serve() answers 503 naming the field before the endpoint is reached.
    authorizer: (tenant, path) => {
      let toolScopes: Record<string, string[]> = {};
      try {
        toolScopes = sectionOf(tenant).toolScopes ?? {};
      } catch (error) {
        if (!(error instanceof DefinitionError)) throw error;
      }
      return oauthAuthorizer(registry, path, toolScopes);
    },
    fetch: serve,
    user: (ctx) => registry.userOf(ctx.principal),
    upstreamToken: (ctx) => registry.upstreamTokenOf(ctx.principal, "its tenant's"),
  };
}

/** The client a token request names: `client_id` of the form, else the user of HTTP Basic authentication. */
function tokenClientId(request: Request, form: FormData | undefined): string | null {
  const named = form?.get("client_id");
  if (typeof named === "string") return named;
  const basic = /^Basic\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (basic === undefined) return null;
  try {
    const decoded = atob(basic);
    return decodeURIComponent(decoded.slice(0, decoded.includes(":") ? decoded.indexOf(":") : undefined));
  } catch {
    return null;
  }
}
