/** The field checks of a tenant's `auth` config: each reads one field, reports its problems and returns the normalized value. */

import { isObject } from "../core/json.ts";
import { closestName } from "../core/suggest.ts";
import { ASYMMETRIC_ALGORITHMS, isHttpsOrLoopback, isScopeToken, isUrl, type ConfigFail } from "./config-checks.ts";

const TOOL_KEY = /^(?:\*|[A-Za-z0-9_.-]{1,128})$/;
const KEY_ID = /^[A-Za-z0-9_.-]{1,64}$/;
const SHA256_HEX = /^[0-9a-fA-F]{64}$/;

/** An API key, stored as the hex SHA-256 of the key; the key itself is never configured. */
export interface ApiKeyEntry {
  /** Names the key in logs and in the principal (`api-key:<id>`). */
  readonly id: string;
  /** Lowercase hex SHA-256 of the key's UTF-8 bytes (`printf %s "$KEY" | sha256sum`). */
  readonly sha256: string;
  /** Scopes the key grants; none when left out. */
  readonly scopes: readonly string[];
}

export function checkResource(value: unknown, fail: ConfigFail): string {
  if (typeof value !== "string") {
    fail("resource", "is required: the canonical URL of this tenant's MCP endpoint, e.g. https://mcp.example.com/mcp");
    return "";
  }
  if (!isHttpsOrLoopback(value)) {
    fail("resource", `must be an https URL (http only on 127.0.0.1, localhost or [::1]), got "${value.slice(0, 200)}"`);
    return value;
  }
  const url = new URL(value);
  if (value.includes("#") || value.includes("?") || url.username !== "" || url.password !== "") {
    fail("resource", "must have no fragment, query or user info (RFC 8707 §2)");
  } else if (value !== url.origin + url.pathname && !(url.pathname === "/" && value === url.origin)) {
    fail(
      "resource",
      `must be written canonically as "${url.origin + url.pathname}" (lowercase scheme and host, no default port): tokens must carry it exactly`,
    );
  }
  return value;
}

export function urlList(value: unknown, field: string, fail: ConfigFail, allowSingle: boolean): readonly string[] {
  if (value === undefined) return [];
  const list = allowSingle && typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.length === 0) {
    fail(field, allowSingle ? "must be a URL or a non-empty array of URLs" : "must be a non-empty array of URLs");
    return [];
  }
  list.forEach((item: unknown, i) => {
    if (!isUrl(item)) fail(`${field}${Array.isArray(value) ? `[${i}]` : ""}`, "must be an http(s) URL (the issuer identifier, exactly as in the tokens' iss)");
  });
  return list.filter((item): item is string => typeof item === "string");
}

export function scopeList(value: unknown, field: string, fail: ConfigFail): readonly string[] {
  if (!Array.isArray(value)) {
    fail(field, "must be an array of scope names");
    return [];
  }
  value.forEach((scope: unknown, i) => {
    if (!isScopeToken(scope)) fail(`${field}[${i}]`, "must be a scope name: visible ASCII, no spaces, quotes or backslashes (RFC 6749 §3.3)");
  });
  return [...new Set(value.filter((scope): scope is string => typeof scope === "string"))];
}

export function checkAlgorithms(value: unknown, fail: ConfigFail): readonly string[] {
  if (!Array.isArray(value) || value.length === 0) {
    fail("algorithms", "must be a non-empty array");
    return [];
  }
  for (const alg of value) {
    if (typeof alg === "string" && ASYMMETRIC_ALGORITHMS.has(alg)) continue;
    const shown = JSON.stringify(alg)?.slice(0, 40);
    const why =
      alg === "none"
        ? "unsigned tokens are never accepted"
        : typeof alg === "string" && /^HS/i.test(alg)
          ? "HMAC algorithms are refused: with public keys they allow forged tokens"
          : "not a supported asymmetric JWS algorithm";
    fail("algorithms", `${shown}: ${why}; use some of ${[...ASYMMETRIC_ALGORITHMS].join(", ")}`);
  }
  return [...new Set(value as string[])];
}

export function checkToolScopes(value: unknown, fail: ConfigFail): Readonly<Record<string, readonly string[]>> {
  const result: Record<string, readonly string[]> = Object.create(null) as Record<string, readonly string[]>;
  if (value === undefined) return result;
  if (!isObject(value)) {
    fail("toolScopes", `must be an object of tool name → scopes, with an optional "*" default`);
    return result;
  }
  for (const [tool, scopes] of Object.entries(value)) {
    if (!TOOL_KEY.test(tool)) fail(`toolScopes["${tool.slice(0, 60)}"]`, `is not a tool name (A-Z a-z 0-9 _ - ., 1-128 chars) or "*"`);
    else result[tool] = scopeList(scopes, `toolScopes["${tool}"]`, fail);
  }
  return result;
}

const ENTRY_FIELDS: readonly string[] = ["id", "sha256", "scopes"];

/** What is wrong with an API key's digest, without repeating it (it may be the key itself). */
function badDigest(id: string, sha256: unknown): string {
  const expected = `must be the 64-character hex SHA-256 of key "${id}" (printf %s "$KEY" | sha256sum prints it; "hello" gives 2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824)`;
  if (typeof sha256 !== "string") return `${expected}; got ${sha256 === undefined ? "nothing" : typeof sha256}`;
  const hex = /^[0-9a-fA-F]*$/.test(sha256);
  const base64 = !hex && /^[A-Za-z0-9+/]{43}=$/.test(sha256);
  const got = `got ${sha256.length} characters${hex ? "" : ", not all hex"}`;
  return `${expected}; ${got}${base64 ? " (this looks like base64: write the digest in hex)" : hex ? "" : " (never the key itself)"}`;
}

export function checkApiKeys(value: unknown, fail: ConfigFail): readonly ApiKeyEntry[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    fail("apiKeys", "must be an array of { id, sha256, scopes? }");
    return [];
  }
  const entries: ApiKeyEntry[] = [];
  value.forEach((entry: unknown, i) => {
    const field = `apiKeys[${i}]`;
    if (!isObject(entry)) return fail(field, "must be an object { id, sha256, scopes? }");
    const { id, sha256, scopes } = entry;
    const misspelt = new Set<string>();
    for (const key of Object.keys(entry)) {
      if (ENTRY_FIELDS.includes(key)) continue;
      const meant = closestName(key, ENTRY_FIELDS);
      if (meant !== undefined) misspelt.add(meant);
      fail(
        `${field}.${key}`,
        meant === undefined ? "unknown field (store the key's SHA-256 in sha256, never the key)" : `unknown field; did you mean ${meant}?`,
      );
    }
    if (misspelt.has("id") || misspelt.has("sha256")) return;
    if (typeof id !== "string" || !KEY_ID.test(id)) return fail(`${field}.id`, "must be 1-64 chars of A-Z a-z 0-9 _ - .");
    if (entries.some((other) => other.id === id)) return fail(`${field}.id`, `"${id}" is used twice`);
    if (typeof sha256 !== "string" || !SHA256_HEX.test(sha256)) return fail(`${field}.sha256`, badDigest(id, sha256));
    const digest = sha256.toLowerCase();
    if (entries.some((other) => other.sha256 === digest)) return fail(`${field}.sha256`, "the same key is listed twice");
    entries.push({ id, sha256: digest, scopes: scopes === undefined ? [] : scopeList(scopes, `${field}.scopes`, fail) });
  });
  return entries;
}
