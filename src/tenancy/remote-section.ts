/** The `remote` field of a tenant's module: another MCP server over Streamable HTTP, its credentials named by binding, never inline. */

import { isObject } from "../core/json.ts";
import { HTTP_TOKEN } from "../core/names.ts";
import { positiveInt, refuseUnknown, stringList, type Fail } from "./config-fields.ts";

/** A remote module as a tenant configures it (`modules[i].remote`). */
export interface RemoteRef {
  /** The upstream's MCP endpoint: https, or http to loopback in development. One of `url` and `urlVar`. */
  url?: string;
  /** The name of a var holding the URL (`"EVERYTHING_URL"`). */
  urlVar?: string;
  /** The revision to speak (default `auto`). */
  protocol?: "2025-11-25" | "2026-07-28" | "auto";
  /**
   * Headers sent upstream, each value read from the secret (or var) of that binding name
   * (`{"X-Api-Key": "ACME_KEY"}`) or from the tenant's own secret (`{"X-Api-Key": {"tenantSecret": "api-key"}}`).
   */
  headers?: Record<string, string | TenantSecretRef>;
  /** How to authenticate: `"none"` (default), or `Authorization: Bearer` with a binding's secret (`{"secret": "NAME"}`) or the tenant's own (`{"tenantSecret": "name"}`). */
  auth?: "none" | { secret: string } | TenantSecretRef;
  /** Patterns (`*` wildcard) of upstream tool names to expose (default: all). */
  allow?: string[];
  /** Patterns of upstream tool names to hide; they win over `allow`. */
  deny?: string[];
  /** The largest answer read from the upstream, in bytes (default 4 MiB). */
  maxResponseBytes?: number;
  /** The circuit breaker: consecutive failures that open it (default 5) and how long it stays open (default 30000 ms). */
  breaker?: { failures?: number; cooldownMs?: number };
}

/** One of the tenant's own sealed secrets, by name (tenant secrets: keyedTenants() and MCP_SECRETS_KEY). */
export interface TenantSecretRef {
  tenantSecret: string;
}

const BINDING = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const SECRET_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** True for `{"tenantSecret": "name"}` with a valid name and nothing else. */
export function isTenantSecretRef(value: unknown): value is TenantSecretRef {
  return isObject(value) && Object.keys(value).length === 1 && typeof value["tenantSecret"] === "string" && SECRET_NAME.test(value["tenantSecret"]);
}
const PATTERN = /^[A-Za-z0-9_.*-]{1,128}$/;
const FIELDS = ["url", "urlVar", "protocol", "headers", "auth", "allow", "deny", "maxResponseBytes", "breaker"];
/** Headers the client sets itself, which a config may not replace. */
const RESERVED = new Set(["host", "content-type", "content-length", "accept", "mcp-session-id", "mcp-protocol-version", "mcp-method", "mcp-name"]);

function absolute(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** Parses `modules[index].remote`. */
export function parseRemote(value: unknown, field: string, fail: Fail): RemoteRef {
  if (!isObject(value)) return fail(field, `must be an object such as {"url": "https://mcp.example.com/mcp"}`);
  const { url, urlVar, protocol, headers, auth, allow, deny, maxResponseBytes, breaker, ...unknown } = value;
  refuseUnknown(Object.keys(unknown), FIELDS, `${field}.`, fail);
  const ref: RemoteRef = {};
  if ((url === undefined) === (urlVar === undefined)) fail(field, "needs exactly one of url and urlVar");
  if (url !== undefined) {
    if (typeof url !== "string" || !absolute(url)) fail(`${field}.url`, `must be an absolute URL such as "https://mcp.example.com/mcp"`);
    ref.url = url;
  }
  if (urlVar !== undefined) {
    if (typeof urlVar !== "string" || !BINDING.test(urlVar)) fail(`${field}.urlVar`, "must be the name of a var");
    ref.urlVar = urlVar;
  }
  if (protocol !== undefined) {
    if (protocol !== "2025-11-25" && protocol !== "2026-07-28" && protocol !== "auto")
      fail(`${field}.protocol`, `must be "2025-11-25", "2026-07-28" or "auto"`);
    ref.protocol = protocol;
  }
  if (headers !== undefined) {
    if (!isObject(headers)) fail(`${field}.headers`, `must map header names to secret binding names, such as {"X-Api-Key": "ACME_KEY"}`);
    for (const [name, binding] of Object.entries(headers)) {
      if (!HTTP_TOKEN.test(name) || RESERVED.has(name.toLowerCase())) fail(`${field}.headers`, `${JSON.stringify(name)} is not a header name a module may set`);
      // The value is a binding's name, so a secret never sits in the config itself.
      if (!isTenantSecretRef(binding) && (typeof binding !== "string" || !BINDING.test(binding)))
        fail(
          `${field}.headers.${name}`,
          `must be the name of the secret binding holding the value, or {"tenantSecret": "name"} (the config never holds the value itself)`,
        );
    }
    ref.headers = headers as Record<string, string | TenantSecretRef>;
  }
  if (auth !== undefined && auth !== "none") {
    if (isTenantSecretRef(auth)) ref.auth = { tenantSecret: auth.tenantSecret };
    else {
      if (!isObject(auth) || typeof auth["secret"] !== "string" || !BINDING.test(auth["secret"]) || Object.keys(auth).length !== 1)
        fail(`${field}.auth`, `must be "none", {"secret": "NAME"} (a secret binding holding the bearer token) or {"tenantSecret": "name"} (the tenant's own)`);
      ref.auth = { secret: auth["secret"] };
    }
  }
  const allowed = stringList(allow, `${field}.allow`, fail, PATTERN);
  if (allowed) ref.allow = allowed;
  const denied = stringList(deny, `${field}.deny`, fail, PATTERN);
  if (denied) ref.deny = denied;
  const bytes = positiveInt(maxResponseBytes, `${field}.maxResponseBytes`, fail);
  if (bytes !== undefined) ref.maxResponseBytes = bytes;
  if (breaker !== undefined) {
    if (!isObject(breaker)) fail(`${field}.breaker`, `must be an object such as {"failures": 5, "cooldownMs": 30000}`);
    const { failures, cooldownMs, ...rest } = breaker;
    refuseUnknown(Object.keys(rest), ["failures", "cooldownMs"], `${field}.breaker.`, fail);
    const settings: { failures?: number; cooldownMs?: number } = {};
    const count = positiveInt(failures, `${field}.breaker.failures`, fail);
    if (count !== undefined) settings.failures = count;
    const cooldown = positiveInt(cooldownMs, `${field}.breaker.cooldownMs`, fail);
    if (cooldown !== undefined) settings.cooldownMs = cooldown;
    ref.breaker = settings;
  }
  return ref;
}
