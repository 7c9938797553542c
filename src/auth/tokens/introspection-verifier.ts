/** RFC 7662 token introspection: an opaque token checked by asking its authorization server, with a bounded cache. */

import { isObject } from "../../core/json.ts";
import { AuthError } from "../auth-error.ts";
import type { ClaimGrant } from "../grants.ts";
import type { TokenVerifier, VerifiedToken } from "../token-verifier.ts";
import { opaquePrincipal, scopeList } from "./opaque-principal.ts";
import { createTokenCache } from "./token-cache.ts";

/** Options of {@link createIntrospectionVerifier}. */
export interface IntrospectionVerifierOptions {
  /** The introspection endpoint (RFC 7662 §2). */
  endpoint: string;
  /** This resource server's client id at the authorization server. */
  clientId: string;
  /**
   * Its client secret (from a secret binding), or a reader of it (a tenant secret, read when asked);
   * sent with HTTP Basic authentication (RFC 6749 §2.3.1).
   */
  clientSecret: string | (() => Promise<string>);
  /** The authorization server's issuer identifier: the principal's issuer. A response naming another `iss` is refused. */
  issuer: string;
  /** A response must name the resource in `aud` (default true). */
  requireAudience?: boolean;
  /** Abort a request to the endpoint after this many ms (default 5000). */
  timeoutMs?: number;
  /** An active token is answered from the cache for at most this many seconds, never past its `exp` (default 30; 0: off). */
  cacheSeconds?: number;
  /** An inactive token is answered from the cache for this many seconds (default 5; 0: off). */
  negativeCacheSeconds?: number;
  /** Most tokens held at once (default 1000). */
  cacheEntries?: number;
  /** Claim values that grant tools and scopes, read from the response's members (auth `grants`). */
  grants?: readonly ClaimGrant[];
  /** Leeway for `exp` and `nbf`, in seconds (default 60). */
  clockSkewSeconds?: number;
  /** The fetch to use (default the global one). */
  fetch?: typeof fetch;
  /** Current time in ms (default `Date.now`). */
  now?: () => number;
}

/** What an active token's response said, as cached: the principal's facts, its audiences and binding. */
interface Introspected {
  readonly verified: VerifiedToken;
  readonly audiences: readonly string[] | undefined;
}

// A response is a small JSON object; anything larger is not an introspection response.
const MAX_RESPONSE_CHARS = 65_536;

function unavailable(why: string, cause?: unknown): AuthError {
  return new AuthError("ERR_VERIFIER_UNAVAILABLE", `the token introspection endpoint ${why}; try again later`, cause === undefined ? {} : { cause });
}

/** RFC 6749 §2.3.1: client id and secret are form-urlencoded before they are joined for Basic authentication. */
function basic(clientId: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, "+");
  return `Basic ${btoa(`${encode(clientId)}:${encode(secret)}`)}`;
}

function audiencesOf(aud: unknown): readonly string[] | undefined {
  if (typeof aud === "string") return [aud];
  if (Array.isArray(aud)) return aud.filter((item): item is string => typeof item === "string");
  return undefined;
}

/**
 * Verifies opaque tokens by RFC 7662 introspection. An inactive token is 401 `invalid_token`; an
 * endpoint that cannot be reached, times out, or answers anything but a 200 JSON object is 503
 * (`ERR_VERIFIER_UNAVAILABLE`) and nothing is cached. An active token must be within its `exp` and
 * `nbf`, name this resource in `aud` (unless `requireAudience: false`), name no other `iss`, not be
 * a refresh token, and have a `sub` or `client_id` (a client-credentials token's subject is its client).
 *
 * @example
 * const tokenVerifier = createIntrospectionVerifier({
 *   endpoint: "https://login.example.com/oauth/introspect",
 *   clientId: "mcp-server",
 *   clientSecret: env.INTROSPECTION_SECRET,
 *   issuer: "https://login.example.com/",
 * });
 * const authorizer = createAuthorizer(config, { tokenVerifier });
 */
export function createIntrospectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const now = options.now ?? Date.now;
  const skew = (options.clockSkewSeconds ?? 60) * 1000;
  const cache = createTokenCache<Introspected>(
    { cacheSeconds: options.cacheSeconds ?? 30, negativeCacheSeconds: options.negativeCacheSeconds ?? 5, cacheEntries: options.cacheEntries ?? 1000 },
    now,
  );
  const secret = options.clientSecret;
  const fixed = typeof secret === "string" ? basic(options.clientId, secret) : undefined;
  const send = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  const ask = async (token: string): Promise<Record<string, unknown>> => {
    let response: Response;
    let authorization = fixed;
    if (authorization === undefined)
      try {
        authorization = basic(options.clientId, await (secret as () => Promise<string>)());
      } catch (error) {
        throw unavailable("cannot be asked: its client secret cannot be read", error);
      }
    try {
      response = await send(options.endpoint, {
        method: "POST",
        headers: { authorization, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
        signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
      });
    } catch (error) {
      throw unavailable("could not be reached", error);
    }
    const text = await response.text().catch((error: unknown) => {
      throw unavailable("broke off its answer", error);
    });
    if (response.status !== 200) throw unavailable(`answered HTTP ${response.status}${response.status === 401 ? " (check the client id and secret)" : ""}`);
    let body: unknown;
    try {
      body = text.length > MAX_RESPONSE_CHARS ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!isObject(body) || typeof body["active"] !== "boolean") throw unavailable("did not answer with an introspection response (a JSON object with active)");
    return body;
  };

  /** The verdict of one response: the facts of an active token, or why it is refused. */
  const judge = (body: Record<string, unknown>): { ok: true; value: Introspected; exp?: number } | { ok: false; reason: string } => {
    if (body["active"] !== true) return { ok: false, reason: "the authorization server says the token is not active (revoked, expired or unknown)" };
    const { exp, nbf, iss, sub, client_id: clientId, token_type: tokenType, scope, aud, cnf } = body;
    const at = now();
    if (typeof exp === "number" && exp * 1000 + skew <= at) return { ok: false, reason: "the token has expired; get a new one" };
    if (typeof nbf === "number" && nbf * 1000 - skew > at) return { ok: false, reason: "the token is not valid yet (nbf is in the future)" };
    if (iss !== undefined && iss !== options.issuer)
      return { ok: false, reason: "the token was issued by another authorization server than this resource trusts" };
    if (typeof tokenType === "string" && tokenType.toLowerCase() === "refresh_token") return { ok: false, reason: "a refresh token is not an access token" };
    const subject = typeof sub === "string" && sub !== "" ? sub : typeof clientId === "string" && clientId !== "" ? clientId : undefined;
    if (subject === undefined) return { ok: false, reason: "the introspection response names no sub or client_id" };
    const claims: Record<string, unknown> = { ...body };
    delete claims["active"];
    const principal = opaquePrincipal(
      {
        issuer: options.issuer,
        subject,
        scopes: scopeList(scope),
        via: "introspection",
        clientId: typeof clientId === "string" ? clientId : undefined,
        expiresAt: typeof exp === "number" ? exp : undefined,
        claims,
      },
      options.grants ?? [],
    );
    const jkt = isObject(cnf) && typeof cnf["jkt"] === "string" ? cnf["jkt"] : undefined;
    const value: Introspected = { verified: jkt === undefined ? { principal } : { principal, jkt }, audiences: audiencesOf(aud) };
    return typeof exp === "number" ? { ok: true, value, exp } : { ok: true, value };
  };

  return {
    async verify(token, resource) {
      const key = await cache.keyOf(token);
      let verdict = cache.get(key);
      if (verdict === undefined) {
        const judged = judge(await ask(token));
        verdict = judged.ok ? { ok: true, value: judged.value } : judged;
        cache.put(key, verdict, judged.ok ? judged.exp : undefined);
      }
      if (!verdict.ok) throw new AuthError("ERR_TOKEN_INACTIVE", verdict.reason);
      const { audiences, verified } = verdict.value;
      if (audiences === undefined ? options.requireAudience !== false : !audiences.includes(resource.configured) && !audiences.includes(resource.served)) {
        throw new AuthError(
          "ERR_WRONG_AUDIENCE",
          "the token was not issued for this resource (its aud does not name it); request a token with this resource as its audience",
        );
      }
      return verified;
    },
  };
}
