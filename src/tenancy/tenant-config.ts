/** The tenant configuration document: its shape, and validation with errors naming tenant and field. */

import { parseCodeModeConfig, type CodeModeLimits } from "../server/code-mode/code-mode-options.ts";
import { DEFAULT_QUOTAS, type QuotaKind, type QuotaLimit } from "../core/admission.ts";
import { DefinitionError } from "../core/definition-error.ts";
import { isObject } from "../core/json.ts";
import { closestName } from "../core/suggest.ts";
import { SUPPORTED_VERSIONS } from "../core/versions.ts";
import type { ToolSearchOptions } from "../server/tools/tool-search.ts";
import { parseServerCard, type TenantServerCard } from "./server-card-config.ts";
import { MAX_RELAY_SHARDS } from "../server/notifications/change-relay.ts";
import { TOOL_NAME } from "../core/names.ts";

/** A module a tenant enables: a bundled one by name, or a service-bound one by binding name. */
export interface ModuleRef {
  /** A bundled module's name (as passed to the Worker), or, with `service`, a label for logs. */
  name: string;
  /** The service binding of a Worker that provides tools over the RPC contract. */
  service?: string;
  /** Prefixed to the module's names: `<prefix>_<name>`. Default: none for bundled, `name` for services. */
  prefix?: string;
  /** Per-call timeout for a service module in ms (default: the tenant's toolTimeoutMs, else 10000). */
  timeoutMs?: number;
  /** On an auth tenant, the module's tools are public (listed and callable without a token). */
  public?: boolean;
}

export interface TenantLimits {
  maxBodyBytes?: number;
  /** Time allowed to receive a request body in ms (default 10000): slower uploads get 408. */
  bodyTimeoutMs?: number;
  maxResultBytes?: number;
  toolTimeoutMs?: number;
}

/** Live handles, sessions, tasks and listen streams a principal, all anonymous callers, and the whole tenant may hold (defaults: DEFAULT_QUOTAS). */
export type TenantQuotas = Partial<Record<QuotaKind, Partial<QuotaLimit>>>;

/** Rate limiting bindings (Workers rate limiting API), each with its own limit and period. */
export interface TenantRateLimits {
  /** Binding applied per tenant. */
  tenant?: string;
  /** Binding applied per tenant and principal. */
  principal?: string;
  /** Binding applied per tenant, principal and tool. */
  tool?: string;
  /** Seconds sent in Retry-After (the bindings' period; default 60). */
  retryAfterSeconds?: number;
}

/** Change notifications of a tenant (the McpNotificationHub objects). */
export interface TenantNotifications {
  /** Hub objects the notifications are spread over, 1 to 64 (default 1). */
  shards?: number;
  /** The slow-listener limit of listen streams, in bytes queued (default 65536). */
  maxQueuedBytes?: number;
  /** A listen stream writes an SSE comment after this many ms without a write (default 15000). */
  heartbeatMs?: number;
}

export interface TenantConfig {
  id: string;
  /** Host names (no port) that select this tenant, e.g. `mcp.acme.com`. */
  hosts?: string[];
  /** Path prefix that selects this tenant; its endpoint is `<prefix>/mcp`. */
  pathPrefix?: string;
  modules: ModuleRef[];
  allowedOrigins?: string[];
  legacySessions?: boolean;
  /** Revisions this tenant serves (default: all). */
  revisions?: string[];
  server?: { name?: string; version?: string; title?: string; instructions?: string };
  limits?: TenantLimits;
  rateLimits?: TenantRateLimits;
  quotas?: TenantQuotas;
  /**
   * Tasks (tools declaring `task`), on by default when the Worker binds MCP_TASKS: `false` turns
   * them off; an object sets `ttlMs` and `pollIntervalMs`.
   */
  tasks?: boolean | { ttlMs?: number; pollIntervalMs?: number };
  /** Authorization settings (see src/auth); validated by the auth module. */
  auth?: Record<string, unknown>;
  /** Tool search over the tenant's tools: `{}` turns it on (see docs/tool-search.md). */
  toolSearch?: ToolSearchOptions;
  notifications?: TenantNotifications;
  /** Serve a Server Card at `<endpoint>/server-card` and list it in the host's AI Catalog (off by default). */
  serverCard?: TenantServerCard;
  /** Code mode (`execute` and `tool_declarations`): `true` or `{ limits }`; needs a Worker Loader binding (see README, "Code mode"). */
  codeMode?: CodeModeLimits;
  /**
   * MCP Apps of the tenant's modules (`io.modelcontextprotocol/ui`), on by default: `false` serves
   * their tools as plain tools, without `ui://` resources, app-only tools or the extension.
   */
  apps?: boolean;
}

const ID = /^[a-z0-9][a-z0-9-]{0,62}$/;
const PREFIX = /^[A-Za-z0-9_.-]{1,32}$/;
const BINDING = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const HOST = /^[a-z0-9.-]{1,253}$/;
const PATH_PREFIX = /^(\/[A-Za-z0-9._~-]+)+$/;

type Fail = (field: string, problem: string) => never;

/** Refuses an unknown field, suggesting the known one it most likely meant ("limit … did you mean limits?"). */
function unknownField(key: string, known: readonly string[], path: string, fail: Fail): never {
  const meant = closestName(key, known);
  return fail(`${path}${key}`, `is not a known field${meant === undefined ? ` (${known.join(", ")})` : `; did you mean ${path}${meant}?`}`);
}

function refuseUnknown(keys: Iterable<string>, known: readonly string[], path: string, fail: Fail): void {
  for (const key of keys) unknownField(key, known, path, fail);
}

function stringList(value: unknown, field: string, fail: Fail, pattern?: RegExp): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string" && (!pattern || pattern.test(item)))) {
    fail(field, pattern ? `must be an array of strings matching ${pattern}` : "must be an array of strings");
  }
  return value as string[];
}

function positiveInt(value: unknown, field: string, fail: Fail): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) <= 0) fail(field, "must be a positive integer");
  return value as number;
}

function parseModule(value: unknown, index: number, fail: Fail): ModuleRef {
  const field = `modules[${index}]`;
  if (!isObject(value)) return fail(field, "must be an object with a name");
  const { name, service, prefix, timeoutMs, public: open, ...unknown } = value;
  refuseUnknown(Object.keys(unknown), ["name", "service", "prefix", "timeoutMs", "public"], `${field}.`, fail);
  if (typeof name !== "string" || !PREFIX.test(name)) fail(`${field}.name`, "must be 1-32 characters of A-Z a-z 0-9 _ . -");
  const module: ModuleRef = { name: name };
  if (service !== undefined) {
    if (typeof service !== "string" || !BINDING.test(service)) fail(`${field}.service`, "must be a binding name");
    module.service = service;
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

const LIMIT_KEYS = ["maxBodyBytes", "bodyTimeoutMs", "maxResultBytes", "toolTimeoutMs"] as const;
const RATE_LIMIT_KEYS = ["tenant", "principal", "tool", "retryAfterSeconds"];
const TENANT_FIELDS = [
  "id",
  "hosts",
  "pathPrefix",
  "modules",
  "allowedOrigins",
  "legacySessions",
  "revisions",
  "server",
  "limits",
  "rateLimits",
  "quotas",
  "tasks",
  "auth",
  "toolSearch",
  "notifications",
  "serverCard",
  "codeMode",
  "apps",
];

function parseQuotas(value: unknown, fail: Fail): TenantQuotas {
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

function parseTasks(value: unknown, fail: Fail): NonNullable<TenantConfig["tasks"]> {
  if (typeof value === "boolean") return value;
  if (!isObject(value)) return fail("tasks", `must be true, false, or an object such as {"ttlMs": 3600000, "pollIntervalMs": 1000}`);
  const settings: { ttlMs?: number; pollIntervalMs?: number } = {};
  for (const [key, n] of Object.entries(value)) {
    if (key !== "ttlMs" && key !== "pollIntervalMs") unknownField(key, ["ttlMs", "pollIntervalMs"], "tasks.", fail);
    settings[key] = positiveInt(n, `tasks.${key}`, fail) as number;
  }
  return settings;
}

function parseToolSearch(value: unknown, fail: Fail): ToolSearchOptions {
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

function parseNotifications(value: unknown, fail: Fail): TenantNotifications {
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

/** Validates one tenant; throws a DefinitionError "tenant <id>: <field> <problem>". */
export function parseTenantConfig(value: unknown, index = 0): TenantConfig {
  const label = isObject(value) && typeof value["id"] === "string" ? value["id"] : `#${index}`;
  const fail: Fail = (field, problem) => {
    throw new DefinitionError(`tenant ${label}: ${field} ${problem}`);
  };
  if (!isObject(value)) return fail("(config)", "must be an object");
  const {
    id,
    hosts,
    pathPrefix,
    modules,
    allowedOrigins,
    legacySessions,
    revisions,
    server,
    limits,
    rateLimits,
    quotas,
    tasks,
    auth,
    toolSearch,
    notifications,
    serverCard,
    codeMode,
    apps,
    ...unknown
  } = value;
  refuseUnknown(Object.keys(unknown), TENANT_FIELDS, "", fail);
  if (typeof id !== "string" || !ID.test(id)) fail("id", "must be 1-63 characters of a-z 0-9 - (starting with a letter or digit)");
  const tenant: TenantConfig = { id: id, modules: [] };
  const hostList = stringList(hosts, "hosts", fail, HOST);
  if (hostList) tenant.hosts = hostList.map((h) => h.toLowerCase());
  if (pathPrefix !== undefined) {
    if (typeof pathPrefix !== "string" || !PATH_PREFIX.test(pathPrefix)) fail("pathPrefix", "must be a path such as /t/acme (no trailing slash)");
    tenant.pathPrefix = pathPrefix;
  }
  if (!tenant.hosts?.length && tenant.pathPrefix === undefined) fail("hosts", "or pathPrefix is required to reach the tenant");
  if (!Array.isArray(modules) || modules.length === 0) fail("modules", "must list at least one module");
  tenant.modules = (modules as unknown[]).map((m, i) => parseModule(m, i, fail));
  const origins = stringList(allowedOrigins, "allowedOrigins", fail);
  if (origins) tenant.allowedOrigins = origins;
  if (legacySessions !== undefined) {
    if (typeof legacySessions !== "boolean") fail("legacySessions", "must be true or false");
    tenant.legacySessions = legacySessions;
  }
  if (apps !== undefined) {
    if (typeof apps !== "boolean") fail("apps", "must be true or false");
    tenant.apps = apps;
  }
  const revisionList = stringList(revisions, "revisions", fail);
  if (revisionList) {
    const unknownRevision = revisionList.find((r) => !SUPPORTED_VERSIONS.includes(r));
    if (unknownRevision !== undefined) fail("revisions", `names ${unknownRevision}, not one of ${SUPPORTED_VERSIONS.join(", ")}`);
    tenant.revisions = revisionList;
  }
  if (server !== undefined) {
    if (!isObject(server) || Object.values(server).some((v) => typeof v !== "string"))
      fail("server", "must be an object of strings (name, version, title, instructions)");
    tenant.server = server;
  }
  if (limits !== undefined) {
    if (!isObject(limits)) fail("limits", "must be an object");
    const l = limits;
    tenant.limits = {};
    refuseUnknown(
      Object.keys(l).filter((key) => !LIMIT_KEYS.includes(key as (typeof LIMIT_KEYS)[number])),
      LIMIT_KEYS,
      "limits.",
      fail,
    );
    for (const key of LIMIT_KEYS) {
      const n = positiveInt(l[key], `limits.${key}`, fail);
      if (n !== undefined) tenant.limits[key] = n;
    }
  }
  if (rateLimits !== undefined) {
    if (!isObject(rateLimits)) fail("rateLimits", "must be an object");
    const r = rateLimits;
    refuseUnknown(
      Object.keys(r).filter((key) => !RATE_LIMIT_KEYS.includes(key)),
      RATE_LIMIT_KEYS,
      "rateLimits.",
      fail,
    );
    tenant.rateLimits = {};
    for (const key of ["tenant", "principal", "tool"] as const) {
      if (r[key] === undefined) continue;
      if (typeof r[key] !== "string" || !BINDING.test(r[key])) fail(`rateLimits.${key}`, "must be a rate limiting binding name");
      tenant.rateLimits[key] = r[key];
    }
    const retry = positiveInt(r["retryAfterSeconds"], "rateLimits.retryAfterSeconds", fail);
    if (retry !== undefined) tenant.rateLimits.retryAfterSeconds = retry;
  }
  if (quotas !== undefined) tenant.quotas = parseQuotas(quotas, fail);
  if (tasks !== undefined) tenant.tasks = parseTasks(tasks, fail);
  if (auth !== undefined) {
    if (!isObject(auth)) fail("auth", "must be an object");
    tenant.auth = auth;
  }
  if (toolSearch !== undefined) tenant.toolSearch = parseToolSearch(toolSearch, fail);
  if (notifications !== undefined) tenant.notifications = parseNotifications(notifications, fail);
  const card = serverCard === undefined ? undefined : parseServerCard(serverCard, fail);
  if (card) tenant.serverCard = card;
  if (codeMode !== undefined && codeMode !== false) tenant.codeMode = parseCodeModeConfig(codeMode, fail);
  return tenant;
}

/** Validates a `{ "tenants": [...] }` document: each tenant, then unique ids, hosts and path prefixes. */
export function parseTenantsDocument(value: unknown): TenantConfig[] {
  if (!isObject(value) || !Array.isArray(value["tenants"])) throw new DefinitionError(`tenants document: must be an object {"tenants": [...]}`);
  const tenants = (value["tenants"] as unknown[]).map((t, i) => parseTenantConfig(t, i));
  const seen = new Map<string, string>();
  const claim = (key: string, what: string, tenant: string) => {
    const owner = seen.get(key);
    if (owner !== undefined) throw new DefinitionError(`tenant ${tenant}: ${what} is already used by tenant ${owner}`);
    seen.set(key, tenant);
  };
  for (const tenant of tenants) {
    claim(`id:${tenant.id}`, `id ${tenant.id}`, tenant.id);
    for (const host of tenant.hosts ?? []) claim(`host:${host}`, `host ${host}`, tenant.id);
    if (tenant.pathPrefix !== undefined) claim(`path:${tenant.pathPrefix}`, `pathPrefix ${tenant.pathPrefix}`, tenant.id);
  }
  return tenants;
}
