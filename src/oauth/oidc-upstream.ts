/** Sign-in with any OpenID Connect provider found by discovery: Entra ID, Google, Okta, Auth0, Keycloak, oidc-provider. */

import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import { isLoopbackHost } from "./loopback.ts";
import type { UpstreamTokens } from "./signed-in.ts";
import {
  type EnvValue,
  type Upstream,
  type UpstreamCallback,
  type UpstreamIdentity,
  type UpstreamRequest,
  UpstreamError,
  refreshAt,
  tokensOf,
  upstreamFetch,
  upstreamJson,
  valueOf,
} from "./upstream.ts";

/** Options of {@link oidcUpstream}. */
export interface OidcUpstreamOptions<E> {
  /**
   * The provider's issuer, as its discovery document names it: `https://accounts.google.com`,
   * `https://login.microsoftonline.com/<directory id>/v2.0`, `https://<org>.okta.com`. For Entra's
   * multi-tenant endpoints (`…/common/v2.0`, `…/organizations/v2.0`) list the directories in `tenants`.
   * A function of env reads a var. `http:` only on a loopback host (a local provider in development).
   */
  issuer: EnvValue<E>;
  clientId: EnvValue<E>;
  /** The client secret (a Worker secret). Without one the upstream client is public (PKCE only). */
  clientSecret?: EnvValue<E>;
  /** Scopes asked upstream (default `openid profile email`; `openid` is always added). */
  scopes?: string[];
  /** ID token claims kept for handlers as the user's claims (default `name`, `email`, `preferred_username`). */
  claims?: string[];
  /**
   * Entra ID multi-tenant: the directory ids (`tid`) whose users may sign in. The discovery document
   * of `common`/`organizations` names the issuer `https://login.microsoftonline.com/{tenantid}/v2.0`;
   * an ID token's `iss` must be that template with its own `tid`, and the `tid` must be listed here.
   */
  tenants?: string[];
  /** ID token algorithms accepted (default RS256, PS256, ES256, EdDSA). */
  algorithms?: string[];
}

interface Discovery {
  readonly issuer: string;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  readonly jwks: ReturnType<typeof createRemoteJWKSet>;
  readonly authMethods: readonly string[];
  readonly loadedAt: number;
}

const DISCOVERY_TTL_MS = 3_600_000;
const ENTRA_TENANT_PLACEHOLDER = "{tenantid}";

function checkedUrl(value: unknown, what: string): string {
  if (typeof value !== "string") throw new UpstreamError("ERR_UPSTREAM_CONFIG", `the discovery document has no ${what}`);
  const url = new URL(value);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname))) {
    throw new UpstreamError("ERR_UPSTREAM_CONFIG", `the discovery document's ${what} must be https (http only on a loopback host): ${value}`);
  }
  return value;
}

/**
 * An OpenID Connect provider, found by discovery (`<issuer>/.well-known/openid-configuration`,
 * cached an hour per isolate). Sign-in is the authorization code flow with PKCE S256, `state` and
 * `nonce`; the ID token is verified with jose against the provider's JWKS (issuer, audience, nonce,
 * expiry). No `resource` parameter is sent upstream (Entra ID refuses it).
 */
export function oidcUpstream<E = unknown>(options: OidcUpstreamOptions<E>): Upstream<E> {
  const discoveries = new Map<string, Promise<Discovery>>();
  const scopes = [...new Set(["openid", ...(options.scopes ?? ["profile", "email"])])].join(" ");
  const kept = options.claims ?? ["name", "email", "preferred_username"];
  const algorithms = options.algorithms ?? ["RS256", "PS256", "ES256", "EdDSA"];
  const tenants = options.tenants === undefined ? undefined : new Set(options.tenants);

  async function load(issuer: string): Promise<Discovery> {
    const base = checkedUrl(issuer, "issuer").replace(/\/$/, "");
    const response = await upstreamFetch(`${base}/.well-known/openid-configuration`, { headers: { accept: "application/json" } }, "OIDC discovery");
    const document = await upstreamJson(response, "OIDC discovery");
    const named = document["issuer"];
    // OIDC Discovery §4.3: the document's issuer must be the one asked for (Entra's multi-tenant ones name a template).
    if (named !== issuer && !(typeof named === "string" && named.includes(ENTRA_TENANT_PLACEHOLDER) && tenants !== undefined)) {
      throw new UpstreamError("ERR_UPSTREAM_CONFIG", `the discovery document of ${issuer} names another issuer: ${String(named)}`);
    }
    const methods = document["token_endpoint_auth_methods_supported"];
    return {
      issuer: named,
      authorizationEndpoint: checkedUrl(document["authorization_endpoint"], "authorization_endpoint"),
      tokenEndpoint: checkedUrl(document["token_endpoint"], "token_endpoint"),
      jwks: createRemoteJWKSet(new URL(checkedUrl(document["jwks_uri"], "jwks_uri")), { timeoutDuration: 10_000 }),
      authMethods: Array.isArray(methods) ? methods.filter((m): m is string => typeof m === "string") : ["client_secret_basic"],
      loadedAt: Date.now(),
    };
  }

  async function discovery(env: E): Promise<Discovery> {
    const issuer = valueOf(options.issuer, env, "issuer");
    const cached = discoveries.get(issuer);
    if (cached !== undefined) {
      const found = await cached.catch(() => undefined);
      if (found !== undefined && Date.now() - found.loadedAt < DISCOVERY_TTL_MS) return found;
    }
    const loading = load(issuer);
    discoveries.set(issuer, loading);
    loading.catch(() => discoveries.delete(issuer));
    return loading;
  }

  /** The issuer an ID token must carry: the discovered one, or Entra's template filled with a listed `tid`. */
  function expectedIssuer(found: Discovery, payload: JWTPayload): string {
    if (!found.issuer.includes(ENTRA_TENANT_PLACEHOLDER)) return found.issuer;
    const tid = payload["tid"];
    if (typeof tid !== "string" || tenants === undefined || !tenants.has(tid)) {
      throw new UpstreamError("ERR_UPSTREAM_REFUSED", `ID token of directory ${String(tid)}, which is not among the allowed tenants`);
    }
    return found.issuer.replace(ENTRA_TENANT_PLACEHOLDER, tid);
  }

  /** A POST to the token endpoint, with the client authenticated as the provider supports (basic, else in the body; public clients name themselves). */
  function tokenRequest(found: Discovery, env: E, body: URLSearchParams): RequestInit {
    const clientId = valueOf(options.clientId, env, "clientId");
    const secret = options.clientSecret === undefined ? undefined : valueOf(options.clientSecret, env, "clientSecret");
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
    if (secret === undefined) body.set("client_id", clientId);
    else if (found.authMethods.includes("client_secret_basic")) {
      headers["authorization"] = `Basic ${btoa(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`)}`;
    } else {
      body.set("client_id", clientId);
      body.set("client_secret", secret);
    }
    return { method: "POST", headers, body };
  }

  return {
    kind: "oidc",
    async authorizationUrl(request: UpstreamRequest, env: E) {
      const found = await discovery(env);
      const url = new URL(found.authorizationEndpoint);
      const params = url.searchParams;
      params.set("response_type", "code");
      params.set("client_id", valueOf(options.clientId, env, "clientId"));
      params.set("redirect_uri", request.redirectUri);
      params.set("scope", scopes);
      params.set("state", request.state);
      params.set("nonce", request.nonce);
      params.set("code_challenge", request.codeChallenge);
      params.set("code_challenge_method", "S256");
      return url.href;
    },
    async signIn(callback: UpstreamCallback, env: E): Promise<UpstreamIdentity> {
      const found = await discovery(env);
      // RFC 9207: when the provider names itself on the callback, it must be the one we sent the user to.
      if (callback.iss !== undefined && !found.issuer.includes(ENTRA_TENANT_PLACEHOLDER) && callback.iss !== found.issuer) {
        throw new UpstreamError("ERR_UPSTREAM_REFUSED", `the callback names issuer ${callback.iss}, not ${found.issuer}`);
      }
      const clientId = valueOf(options.clientId, env, "clientId");
      const request = tokenRequest(
        found,
        env,
        new URLSearchParams({
          grant_type: "authorization_code",
          code: callback.code,
          redirect_uri: callback.redirectUri,
          code_verifier: callback.codeVerifier,
        }),
      );
      const answer = await upstreamJson(await upstreamFetch(found.tokenEndpoint, request, "upstream token endpoint"), "upstream token endpoint");
      const idToken = answer["id_token"];
      if (typeof idToken !== "string") throw new UpstreamError("ERR_UPSTREAM_REFUSED", "the upstream token answer has no id_token");
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(idToken, found.jwks, { audience: clientId, algorithms }));
      } catch (error) {
        throw new UpstreamError("ERR_UPSTREAM_REFUSED", `the upstream ID token does not verify: ${error instanceof Error ? error.message : String(error)}`, {
          cause: error,
        });
      }
      const issuer = expectedIssuer(found, payload);
      if (payload.iss !== issuer) throw new UpstreamError("ERR_UPSTREAM_REFUSED", `the ID token's issuer ${String(payload.iss)} is not ${issuer}`);
      if (payload["nonce"] !== callback.nonce) throw new UpstreamError("ERR_UPSTREAM_REFUSED", "the ID token's nonce is not the one this sign-in sent");
      if (typeof payload.sub !== "string" || payload.sub === "") throw new UpstreamError("ERR_UPSTREAM_REFUSED", "the ID token has no sub");
      const claims: Record<string, unknown> = {};
      for (const name of kept) if (payload[name] !== undefined) claims[name] = payload[name];
      return { issuer, subject: payload.sub, claims, tokens: tokensOf(answer, "upstream token endpoint") };
    },
    async refresh(refreshToken: string, env: E): Promise<UpstreamTokens> {
      const found = await discovery(env);
      const request = tokenRequest(found, env, new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }));
      return refreshAt(found.tokenEndpoint, request, refreshToken, "upstream token refresh");
    },
  };
}
