/** The tenant document's nested sections (modules, quotas, tasks, tool search, notifications): each one's shape and parser. */

import { DEFAULT_QUOTAS, type QuotaKind, type QuotaLimit } from "../core/admission.ts";
import { isObject } from "../core/json.ts";
import { TOOL_NAME } from "../core/names.ts";
import { MAX_RELAY_SHARDS } from "../server/notifications/change-relay.ts";
import type { ToolSearchOptions } from "../server/tools/tool-search.ts";
import { positiveInt, refuseUnknown, stringList, unknownField, type Fail } from "./config-fields.ts";
import type { RemoteRef } from "./remote-section.ts";

/** A module a tenant enables: a bundled one by name, or a service-bound one by binding name. */
export interface ModuleRef {
  /** A bundled module's name (as passed to the Worker), or, with `service`, a label for logs. */
  name: string;
  /** The service binding of a Worker that provides tools over the RPC contract. */
  service?: string;
  /** Prefixed to the module's names: `<prefix>_<name>`. Default: none for bundled, `name` for services. */
  prefix?: string;
  /** Another MCP server over Streamable HTTP (a remote module; see docs/remote-servers.md). */
  remote?: RemoteRef;
  /** Per-call timeout for a service or remote module in ms (default: the tenant's toolTimeoutMs, else 10000). */
  timeoutMs?: number;
  /** On an auth tenant, the module's tools are public (listed and callable without a token). */
  public?: boolean;
}

/** Live handles, sessions, tasks and listen streams a principal, all anonymous callers, and the whole tenant may hold (defaults: DEFAULT_QUOTAS). */
export type TenantQuotas = Partial<Record<QuotaKind, Partial<QuotaLimit>>>;

/** Change notifications of a tenant (the McpNotificationHub objects). */
export interface TenantNotifications {
  /** Hub objects the notifications are spread over, 1 to 64 (default 1). */
  shards?: number;
  /** The slow-listener limit of listen streams, in bytes queued (default 65536). */
  maxQueuedBytes?: number;
  /** A listen stream writes an SSE comment after this many ms without a write (default 15000). */
  heartbeatMs?: number;
}

/** Tasks of a tenant: on or off, or on with their timings. */
export type TenantTasks = boolean | { ttlMs?: number; pollIntervalMs?: number };

/** A module's name or prefix. */
const PREFIX = /^[A-Za-z0-9_.-]{1,32}$/;
/** A binding name (service, rate limiting). */
export const BINDING = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** One entry of `modules`. */
export function parseModule(value: unknown, index: number, fail: Fail): ModuleRef {
  const field = `modules[${index}]`;
  if (!isObject(value)) return fail(field, "must be an object with a name");
  const { name, service, remote, prefix, timeoutMs, public: open, ...unknown } = value;
  refuseUnknown(Object.keys(unknown), ["name", "service", "remote", "prefix", "timeoutMs", "public"], `${field}.`, fail);
  if (typeof name !== "string" || !PREFIX.test(name)) fail(`${field}.name`, "must be 1-32 characters of A-Z a-z 0-9 _ . -");
  const module: ModuleRef = { name: name };
  if (service !== undefined) {
    if (typeof service !== "string" || !BINDING.test(service)) fail(`${field}.service`, "must be a binding name");
    module.service = service;
  }
  if (remote !== undefined) {
    if (service !== undefined) fail(field, "names both service and remote; a module is one or the other");
    // Checked in full by the Worker's remoteModules() (its parser is bundled only with it).
    if (!isObject(remote)) fail(`${field}.remote`, `must be an object such as {"url": "https://mcp.example.com/mcp"}`);
    module.remote = remote;
  }
  if (prefix !== undefined) {
    if (typeof prefix !== "string" || !PREFIX.test(prefix)) fail(`${field}.prefix`, "must be 1-32 characters of A-Z a-z 0-9 _ . -");
    module.prefix = prefix;
  }
  const timeout = positiveInt(timeoutMs, `${field}.timeoutMs`, fail);
  if (timeout !== undefined) module.timeoutMs = timeout;
  if (open !== undefined) {
    if (typeof open !== "boolean") fail(`${field}.public`, "must be true or false");
    if (open) module.public = true;
  }
  return module;
}

/** `quotas`: per kind, perPrincipal, perTenant and/or anonymous. */
export function parseQuotas(value: unknown, fail: Fail): TenantQuotas {
  if (!isObject(value)) return fail("quotas", `must be an object such as {"handles": {"perPrincipal": 100}}`);
  const quotas: TenantQuotas = {};
  for (const [kind, limit] of Object.entries(value)) {
    if (!Object.hasOwn(DEFAULT_QUOTAS, kind)) unknownField(kind, Object.keys(DEFAULT_QUOTAS), "quotas.", fail);
    if (!isObject(limit)) fail(`quotas.${kind}`, "must be an object with perPrincipal, perTenant and/or anonymous");
    const parsed: { perPrincipal?: number; perTenant?: number; anonymous?: number } = {};
    for (const [key, n] of Object.entries(limit)) {
      if (key !== "perPrincipal" && key !== "perTenant" && key !== "anonymous")
        unknownField(key, ["perPrincipal", "perTenant", "anonymous"], `quotas.${kind}.`, fail);
      parsed[key] = positiveInt(n, `quotas.${kind}.${key}`, fail) as number;
    }
    quotas[kind as QuotaKind] = parsed;
  }
  return quotas;
}

/** `tasks`: true, false, or the timings. */
export function parseTasks(value: unknown, fail: Fail): TenantTasks {
  if (typeof value === "boolean") return value;
  if (!isObject(value)) return fail("tasks", `must be true, false, or an object such as {"ttlMs": 3600000, "pollIntervalMs": 1000}`);
  const settings: { ttlMs?: number; pollIntervalMs?: number } = {};
  for (const [key, n] of Object.entries(value)) {
    if (key !== "ttlMs" && key !== "pollIntervalMs") unknownField(key, ["ttlMs", "pollIntervalMs"], "tasks.", fail);
    settings[key] = positiveInt(n, `tasks.${key}`, fail) as number;
  }
  return settings;
}

/** `toolSearch`: exposure and pinned tools. */
export function parseToolSearch(value: unknown, fail: Fail): ToolSearchOptions {
  if (!isObject(value)) return fail("toolSearch", `must be an object such as {"exposure": "pinned", "pinned": ["tool_name"]}`);
  const { exposure, pinned, ...unknown } = value;
  refuseUnknown(Object.keys(unknown), ["exposure", "pinned"], "toolSearch.", fail);
  const options: ToolSearchOptions = {};
  if (exposure !== undefined) {
    if (exposure !== "all" && exposure !== "pinned") fail("toolSearch.exposure", `must be "all" or "pinned"`);
    options.exposure = exposure;
  }
  const names = stringList(pinned, "toolSearch.pinned", fail, TOOL_NAME);
  if (names) options.pinned = names;
  return options;
}

/** `notifications`: shards, slow-listener limit, heartbeat. */
export function parseNotifications(value: unknown, fail: Fail): TenantNotifications {
  if (!isObject(value)) return fail("notifications", 'must be an object such as {"shards": 4}');
  const { shards, maxQueuedBytes, heartbeatMs, ...unknown } = value;
  refuseUnknown(Object.keys(unknown), ["shards", "maxQueuedBytes", "heartbeatMs"], "notifications.", fail);
  const out: TenantNotifications = {};
  const count = positiveInt(shards, "notifications.shards", fail);
  if (count !== undefined) {
    if (count > MAX_RELAY_SHARDS) fail("notifications.shards", `must be at most ${MAX_RELAY_SHARDS}`);
    out.shards = count;
  }
  const bytes = positiveInt(maxQueuedBytes, "notifications.maxQueuedBytes", fail);
  if (bytes !== undefined) out.maxQueuedBytes = bytes;
  const heartbeat = positiveInt(heartbeatMs, "notifications.heartbeatMs", fail);
  if (heartbeat !== undefined) {
    if (heartbeat < 100 || heartbeat > 300_000) fail("notifications.heartbeatMs", "must be from 100 to 300000 (ms)");
    out.heartbeatMs = heartbeat;
  }
  return out;
}
