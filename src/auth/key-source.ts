/** The key resolver of a tenant: inline keys and/or a remote JWKS, with failures mapped to AuthError. */

import { createLocalJWKSet, createRemoteJWKSet, type CryptoKey, type FlattenedJWSInput, type JWSHeaderParameters } from "jose";
import type { AuthConfig } from "./auth-config.ts";
import { AuthError } from "./auth-error.ts";
import { joseCode } from "./jose-errors.ts";

/** Finds the verification key for a token header, as jose's key sets do. */
export type KeyResolver = (header: JWSHeaderParameters, token: FlattenedJWSInput) => Promise<CryptoKey>;

/** Tuning of the remote key set (jose `createRemoteJWKSet`); the defaults are jose's. */
export interface KeySourceOptions {
  /** Abort a JWKS fetch after this many ms (default 5000). */
  jwksTimeoutMs?: number;
  /** After a fetch, an unknown `kid` does not refetch for this many ms (default 30000). */
  jwksCooldownMs?: number;
  /** Refetch the JWKS when it is older than this many ms (default 600000). */
  jwksCacheMaxAgeMs?: number;
}

function unknownKey(header: JWSHeaderParameters, error: unknown): AuthError {
  const kid = typeof header.kid === "string" ? `kid "${header.kid.replace(/[^\x20-\x7E]/g, "?").slice(0, 64)}"` : "no kid";
  return new AuthError("ERR_UNKNOWN_KEY", `no signing key of this resource's issuer matches the token (${kid}, alg ${String(header.alg)})`, { cause: error });
}

/**
 * Wraps a jose key set: a missing key becomes `ERR_UNKNOWN_KEY`; several matching keys (a token
 * without `kid`) pass through for the verifier to try each; anything else (fetch failure,
 * timeout, non-200, malformed set or key) becomes `ERR_JWKS_UNAVAILABLE`.
 */
function guarded(keySet: KeyResolver, source: string): KeyResolver {
  return async (header, token) => {
    try {
      return await keySet(header, token);
    } catch (error) {
      const errorCode = joseCode(error);
      if (errorCode === "ERR_JWKS_NO_MATCHING_KEY") throw unknownKey(header, error);
      if (errorCode === "ERR_JWKS_MULTIPLE_MATCHING_KEYS") throw error;
      throw new AuthError("ERR_JWKS_UNAVAILABLE", `the signing keys (${source}) could not be loaded or used; try again later`, { cause: error });
    }
  };
}

/**
 * Builds the resolver for a config once (jose caches the fetched JWKS inside it). The remote key
 * set refetches on an unknown `kid` unless it fetched within the cooldown, and when its copy is
 * older than the cache max age. Inline `keys` are tried first, then `jwksUri`. Returns
 * `undefined` for a tenant that takes API keys only.
 */
export function createKeyResolver(config: Pick<AuthConfig, "keys" | "jwksUri">, options: KeySourceOptions = {}): KeyResolver | undefined {
  const local = config.keys === undefined ? undefined : guarded(createLocalJWKSet({ keys: config.keys.map((key) => ({ ...key })) }), "inline keys");
  const remote =
    config.jwksUri === undefined
      ? undefined
      : guarded(
          createRemoteJWKSet(new URL(config.jwksUri), {
            ...(options.jwksTimeoutMs === undefined ? {} : { timeoutDuration: options.jwksTimeoutMs }),
            ...(options.jwksCooldownMs === undefined ? {} : { cooldownDuration: options.jwksCooldownMs }),
            ...(options.jwksCacheMaxAgeMs === undefined ? {} : { cacheMaxAge: options.jwksCacheMaxAgeMs }),
          }),
          "jwksUri",
        );
  if (local === undefined || remote === undefined) return local ?? remote;
  return async (header, token) => {
    try {
      return await local(header, token);
    } catch (error) {
      if (error instanceof AuthError && error.code === "ERR_UNKNOWN_KEY") return remote(header, token);
      throw error;
    }
  };
}
