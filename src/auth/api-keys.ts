/** API keys: generated as 256-bit random strings, stored as SHA-256 digests, compared in constant time. */

import type { ApiKeyEntry } from "./auth-config.ts";

const PREFIX = "emk_";
const encoder = new TextEncoder();

function toHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/**
 * Returns a new API key: `emk_` plus 256 random bits in base64url (47 characters, valid in a
 * Bearer header). Hand the key to the client; configure only {@link hashApiKey} of it.
 */
export function generateApiKey(): string {
  let binary = "";
  for (const byte of crypto.getRandomValues(new Uint8Array(32))) binary += String.fromCharCode(byte);
  return PREFIX + btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The lowercase hex SHA-256 of a key's UTF-8 bytes: the `sha256` of its `apiKeys` entry. */
export async function hashApiKey(key: string): Promise<string> {
  return toHex(await sha256(key));
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
      let diff = digest.length ^ presented.length;
      for (let i = 0; i < digest.length; i++) diff |= (digest[i] ?? 0) ^ (presented[i] ?? 0);
      if (diff === 0) found ??= entry;
    }
    return found;
  };
}
