/** A bounded per-isolate cache of opaque-token verdicts, keyed by the token's SHA-256 (never the token). */

import { sha256Hex } from "../../core/bytes.ts";
import type { TokenCacheConfig } from "./opaque-config.ts";

/** A cached verdict: what a verifier found for a token, or why it refused it. */
export type TokenVerdict<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

interface Entry<T> {
  readonly verdict: TokenVerdict<T>;
  /** ms since the epoch after which the entry is not used. */
  readonly until: number;
}

/** A cache of verdicts; `get` and `put` take the token's key from {@link TokenCache.keyOf}. */
export interface TokenCache<T> {
  keyOf(token: string): Promise<string>;
  get(key: string): TokenVerdict<T> | undefined;
  /** Holds an accepted token until `min(now + cacheSeconds, expiresAt)`; a refused one for `negativeCacheSeconds`. */
  put(key: string, verdict: TokenVerdict<T>, expiresAt?: number): void;
  readonly size: number;
}

/**
 * Builds the cache of one verifier. At most `cacheEntries` verdicts are held (a full cache drops
 * its oldest entry first); an accepted token is never answered from the cache past its `exp`, so a
 * revocation takes effect within `cacheSeconds`; a refusal is held for `negativeCacheSeconds` only,
 * so a token that starts to be valid (a clock between two servers) is not refused for long. Only
 * verdicts are cached: a verifier that could not ask caches nothing.
 */
export function createTokenCache<T>(config: TokenCacheConfig, now: () => number = Date.now): TokenCache<T> {
  const entries = new Map<string, Entry<T>>();
  return {
    keyOf: (token) => sha256Hex(token),
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (now() >= entry.until) {
        entries.delete(key);
        return undefined;
      }
      return entry.verdict;
    },
    put(key, verdict, expiresAt) {
      const at = now();
      const until = verdict.ok
        ? Math.min(at + config.cacheSeconds * 1000, expiresAt === undefined ? Infinity : expiresAt * 1000)
        : at + config.negativeCacheSeconds * 1000;
      if (until <= at) return;
      entries.delete(key);
      while (entries.size >= config.cacheEntries) {
        const oldest = entries.keys().next();
        if (oldest.done === true) break;
        entries.delete(oldest.value);
      }
      entries.set(key, { verdict, until });
    },
    get size() {
      return entries.size;
    },
  };
}
