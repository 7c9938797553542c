/** Grants from token claims: a claim value (a role, a group, a permission) gives tools and/or scopes. */

import { isObject } from "../core/json.ts";
import { AuthError } from "./auth-error.ts";
import { isScopeToken, type ConfigFail } from "./config-checks.ts";
import { shown } from "./jose-errors.ts";

/** One grant: callers whose `claim` holds `value` may call `tools` and hold `scopes`. */
export interface ClaimGrant {
  /** A claim name (`roles`, `groups`, `permissions`, `https://example.com/roles`) or a dotted path (`realm_access.roles`). */
  readonly claim: string;
  /** The value the claim must contain (an array element, or a word of a string separated by U+0020 spaces). */
  readonly value: string;
  /** Tool names and `prefix_*` patterns this grant allows, whatever scopes they need. */
  readonly tools: readonly string[];
  /** Scopes added to the caller's own: they satisfy `toolScopes` like scopes of the token. */
  readonly scopes: readonly string[];
}

/** What a principal's claims granted: tool patterns, and extra scopes. */
export interface Granted {
  readonly tools: readonly string[];
  readonly scopes: readonly string[];
}

// A claim longer than this is refused (401), never split or matched: real role lists are short.
const MAX_CLAIM_ITEMS = 256;
const MAX_CLAIM_CHARS = 8192;
const CLAIM_PATH = /^[\x21-\x7E]{1,256}$/;
/** A tool name, a `prefix*` pattern, or `*`. */
export const TOOL_PATTERN = /^(?:\*|[A-Za-z0-9_.-]{1,128}\*?)$/;

/** True when a tool name matches a pattern: an exact name, `prefix*` (e.g. `billing_*`), or `*`. */
export function toolMatches(pattern: string, name: string): boolean {
  return pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : pattern === name;
}

/** Validates `auth.grants` (an array of `{ claim, value, tools?, scopes? }`); problems go to `fail`. */
export function parseGrants(value: unknown, fail: ConfigFail): readonly ClaimGrant[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    fail("grants", "must be an array of { claim, value, tools?, scopes? }");
    return [];
  }
  const grants: ClaimGrant[] = [];
  value.forEach((entry: unknown, i) => {
    const field = `grants[${i}]`;
    if (!isObject(entry)) return fail(field, "must be an object { claim, value, tools?, scopes? }");
    for (const key of Object.keys(entry)) if (!["claim", "value", "tools", "scopes"].includes(key)) fail(`${field}.${key}`, "unknown field");
    const { claim, value: wanted, tools, scopes } = entry;
    if (typeof claim !== "string" || !CLAIM_PATH.test(claim))
      return fail(`${field}.claim`, "must be a claim name such as roles, groups or https://example.com/roles");
    if (typeof wanted !== "string" || wanted === "" || wanted.length > 256 || /\s/.test(wanted))
      return fail(`${field}.value`, "must be a non-empty claim value without spaces");
    const toolList = patternList(tools, `${field}.tools`, fail);
    const scopeList = list(scopes, `${field}.scopes`, fail, isScopeToken, "scope names");
    if (toolList.length === 0 && scopeList.length === 0) return fail(field, "grants nothing: give tools and/or scopes");
    grants.push({ claim, value: wanted, tools: toolList, scopes: scopeList });
  });
  return grants;
}

/** Validates `auth.publicTools`: tool names and `prefix_*` patterns callable without a token. */
export function patternList(value: unknown, field: string, fail: ConfigFail): readonly string[] {
  return list(value, field, fail, (item) => typeof item === "string" && TOOL_PATTERN.test(item), "tool names or prefix_* patterns");
}

function list(value: unknown, field: string, fail: ConfigFail, ok: (item: unknown) => boolean, what: string): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every(ok)) {
    fail(field, `must be an array of ${what}`);
    return [];
  }
  return [...new Set(value as string[])];
}

/** The claim at a path: the claim of that exact name first (namespaced URLs have dots), else a dotted walk. */
function claimAt(payload: Record<string, unknown>, path: string): unknown {
  if (Object.hasOwn(payload, path)) return payload[path];
  if (!path.includes(".") || path.includes("://")) return undefined;
  let node: unknown = payload;
  for (const part of path.split(".")) {
    if (!isObject(node) || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return node;
}

/** The values of a claim: an array of strings, or a string split on U+0020 (no other white space); 401 for any other shape or a huge claim. */
function claimValues(payload: Record<string, unknown>, path: string): ReadonlySet<string> {
  const raw = claimAt(payload, path);
  if (raw === undefined || raw === null) return new Set();
  const bad = (why: string) => new AuthError("ERR_MALFORMED_TOKEN", `the token's ${shown(path)} claim ${why}`);
  if (typeof raw === "string") {
    if (raw.length > MAX_CLAIM_CHARS) throw bad(`is longer than ${MAX_CLAIM_CHARS} characters`);
    // U+0020 only, as `scope` is split (RFC 6749 §3.3): "team<NBSP>billing" is one value, not two.
    return new Set(raw.split(" ").filter(Boolean));
  }
  if (!Array.isArray(raw)) throw bad("must be an array of strings or a space-separated string");
  if (raw.length > MAX_CLAIM_ITEMS) throw bad(`has more than ${MAX_CLAIM_ITEMS} values`);
  let chars = 0;
  for (const item of raw) {
    if (typeof item !== "string") throw bad("must be an array of strings or a space-separated string");
    chars += item.length;
  }
  if (chars > MAX_CLAIM_CHARS) throw bad(`is longer than ${MAX_CLAIM_CHARS} characters`);
  return new Set(raw as string[]);
}

/**
 * What the verified claims grant. Each configured claim is read once; a claim of the wrong type
 * or over the size limits is an invalid token (401), since the issuer is misconfigured or the
 * token is not what it claims to be. Tool patterns come out sorted, so equal grants compare equal.
 */
export function grantsOf(grants: readonly ClaimGrant[], payload: Record<string, unknown>): Granted {
  if (grants.length === 0) return { tools: [], scopes: [] };
  const claims = new Map<string, ReadonlySet<string>>();
  const tools = new Set<string>();
  const scopes = new Set<string>();
  for (const grant of grants) {
    let values = claims.get(grant.claim);
    if (!values) {
      values = claimValues(payload, grant.claim);
      claims.set(grant.claim, values);
    }
    if (!values.has(grant.value)) continue;
    for (const tool of grant.tools) tools.add(tool);
    for (const scope of grant.scopes) scopes.add(scope);
  }
  return { tools: [...tools].sort(), scopes: [...scopes] };
}
