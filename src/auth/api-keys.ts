/** API keys: generated as 256-bit random strings, stored as SHA-256 digests, compared in constant time. */

import { constantTimeEqual, fromHex, randomToken, sha256, sha256Hex } from "../core/bytes.ts";
import type { ApiKeyEntry } from "./auth-config.ts";

const PREFIX = "emk_";

/**
 * Returns a new API key: `emk_` plus 256 random bits in base64url (47 characters, valid in a
 * Bearer header). Hand the key to the client; configure only {@link hashApiKey} of it.
 */
export function generateApiKey(): string {
  return PREFIX + randomToken(32);
}

/** The lowercase hex SHA-256 of a key's UTF-8 bytes: the `sha256` of its `apiKeys` entry. */
export async function hashApiKey(key: string): Promise<string> {
  return sha256Hex(key);
}

/** Finds the configured key a presented token is, if any. */
export type ApiKeyMatcher = (token: string) => Promise<ApiKeyEntry | undefined>;

/**
 * Builds a matcher over a tenant's keys; the stored digests are decoded once. Every digest is
 * compared in full (no early exit) against the token's digest, so the time taken says nothing
 * about how close a guess came. Comparing digests rather than keys also makes a key that is a
 * prefix of a real one an ordinary mismatch.
 */
export function createApiKeyMatcher(entries: readonly ApiKeyEntry[]): ApiKeyMatcher {
  const digests = entries.map((entry) => ({ entry, digest: fromHex(entry.sha256) }));
  return async (token) => {
    if (digests.length === 0) return undefined;
    const presented = await sha256(token);
    let found: ApiKeyEntry | undefined;
    for (const { entry, digest } of digests) {
      if (constantTimeEqual(digest, presented)) found ??= entry;
    }
    return found;
  };
}
