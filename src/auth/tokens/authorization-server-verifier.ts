/** Opaque tokens of a workers-oauth-provider authorization server in another Worker, checked over a Service Binding. */

import { isObject } from "../../core/json.ts";
import { AuthError } from "../auth-error.ts";
import type { ClaimGrant } from "../grants.ts";
import type { TokenVerifier, VerifiedToken } from "../token-verifier.ts";
import { opaquePrincipal, scopeList } from "./opaque-principal.ts";
import { createTokenCache } from "./token-cache.ts";

/**
 * What the authorization server's `validateToken(resource, token)` resolves to
 * (`ValidatedAccessToken` of @cloudflare/workers-oauth-provider), or null for a token not valid for that resource.
 */
export interface ValidatedAccessToken {
  props: unknown;
  audience: string;
  expiresAt: number;
  scope: string[];
  userId: string;
  clientId: string;
}

/** The RPC surface of the authorization server's `WorkerEntrypoint`, as a Service Binding shows it. */
export interface AuthorizationServerBinding {
  validateToken(resource: string, token: string): Promise<ValidatedAccessToken | null>;
}

/** Options of {@link createAuthorizationServerVerifier}. */
export interface AuthorizationServerVerifierOptions {
  /** The Service Binding (`env.AUTH_SERVER`). */
  binding: AuthorizationServerBinding;
  /** The authorization server's issuer identifier: the principal's issuer. */
  issuer: string;
  /** A valid token is answered from the cache for at most this many seconds, never past its expiry (default 30; 0: off). */
  cacheSeconds?: number;
  /** A refused token is answered from the cache for this many seconds (default 5; 0: off). */
  negativeCacheSeconds?: number;
  /** Most tokens held at once (default 1000). */
  cacheEntries?: number;
  /** Claim values that grant tools and scopes, read from the grant's props (auth `grants`). */
  grants?: readonly ClaimGrant[];
  /** Current time in ms (default `Date.now`). */
  now?: () => number;
}

/**
 * Verifies tokens by asking the authorization server (`OAuthAuthorizationServer.validateToken`
 * exposed by its `WorkerEntrypoint`) for this tenant's configured resource: a token issued for
 * another resource (another tenant) is null there, so it is refused here. The principal: issuer =
 * `issuer`, subject = `userId` (else the props' `sub`), clientId, the token's scopes, and the grant's
 * props as `claims`. A binding that throws or is missing is 503 (`ERR_VERIFIER_UNAVAILABLE`) and
 * nothing is cached; a revoked token is refused once its cache entry ends (`cacheSeconds`).
 *
 * @example
 * const tokenVerifier = createAuthorizationServerVerifier({ binding: env.AUTH_SERVER, issuer: "https://auth.example.com" });
 * const authorizer = createAuthorizer(config, { tokenVerifier });
 */
export function createAuthorizationServerVerifier(options: AuthorizationServerVerifierOptions): TokenVerifier {
  const now = options.now ?? Date.now;
  const cache = createTokenCache<VerifiedToken>(
    { cacheSeconds: options.cacheSeconds ?? 30, negativeCacheSeconds: options.negativeCacheSeconds ?? 5, cacheEntries: options.cacheEntries ?? 1000 },
    now,
  );

  const ask = async (resource: string, token: string): Promise<ValidatedAccessToken | null> => {
    if (typeof options.binding?.validateToken !== "function")
      throw new AuthError("ERR_VERIFIER_UNAVAILABLE", "the authorization server's Service Binding is missing or has no validateToken method; try again later");
    try {
      return await options.binding.validateToken(resource, token);
    } catch (error) {
      throw new AuthError("ERR_VERIFIER_UNAVAILABLE", "the authorization server could not validate the token; try again later", { cause: error });
    }
  };

  return {
    async verify(token, resource) {
      const key = await cache.keyOf(token);
      const cached = cache.get(key);
      if (cached !== undefined) {
        if (!cached.ok) throw new AuthError("ERR_TOKEN_INACTIVE", cached.reason);
        return cached.value;
      }
      const validated = await ask(resource.configured, token);
      const props = isObject(validated?.props) ? validated.props : {};
      const subject = typeof validated?.userId === "string" && validated.userId !== "" ? validated.userId : props["sub"];
      const reason =
        validated === null || !isObject(validated)
          ? "the authorization server does not know this token for this resource (revoked, expired, or issued for another resource)"
          : validated.audience !== resource.configured
            ? "the authorization server reports the token for another resource"
            : typeof validated.expiresAt === "number" && validated.expiresAt * 1000 <= now()
              ? "the token has expired; get a new one"
              : typeof subject !== "string" || subject === ""
                ? "the authorization server names no user for this token"
                : undefined;
      if (reason !== undefined || validated === null) {
        const refusal = reason ?? "the token is not valid here";
        cache.put(key, { ok: false, reason: refusal });
        throw new AuthError("ERR_TOKEN_INACTIVE", refusal);
      }
      const principal = opaquePrincipal(
        {
          issuer: options.issuer,
          subject: subject as string,
          scopes: scopeList(validated.scope),
          via: "authorization-server",
          clientId: typeof validated.clientId === "string" ? validated.clientId : undefined,
          expiresAt: typeof validated.expiresAt === "number" ? validated.expiresAt : undefined,
          claims: { ...props },
        },
        options.grants ?? [],
      );
      const verified: VerifiedToken = { principal };
      cache.put(key, { ok: true, value: verified }, principal.expiresAt);
      return verified;
    },
  };
}
