/** The tenant configuration document: its shape, and validation with errors naming tenant and field. */

import { parseCodeModeConfig, type CodeModeLimits } from "../server/code-mode/code-mode-options.ts";
import { DefinitionError } from "../core/definition-error.ts";
import { isObject } from "../core/json.ts";
import { SUPPORTED_VERSIONS } from "../core/versions.ts";
import type { ToolSearchOptions } from "../server/tools/tool-search.ts";
import { parseServerCard, type TenantServerCard } from "./server-card-config.ts";
import { positiveInt, refuseUnknown, stringList, type Fail } from "./config-fields.ts";
import {
  BINDING,
  parseModule,
  parseNotifications,
  parseQuotas,
  parseTasks,
  parseToolSearch,
  type ModuleRef,
  type TenantNotifications,
  type TenantQuotas,
  type TenantTasks,
} from "./tenant-sections.ts";

export type { ModuleRef, TenantNotifications, TenantQuotas, TenantTasks } from "./tenant-sections.ts";

export interface TenantLimits {
  maxBodyBytes?: number;
  /** Time allowed to receive a request body in ms (default 10000): slower uploads get 408. */
  bodyTimeoutMs?: number;
  maxResultBytes?: number;
  toolTimeoutMs?: number;
}

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
  tasks?: TenantTasks;
  /** Authorization settings (see src/auth); validated by the auth module. */
  auth?: Record<string, unknown>;
  /** Tool search over the tenant's tools: `{}` turns it on (see docs/tool-search.md). */
  toolSearch?: ToolSearchOptions;
  notifications?: TenantNotifications;
  /** Serve a Server Card at `<endpoint>/server-card` and list it in the host's AI Catalog (off by default). */
  serverCard?: TenantServerCard;
  /** Code mode (`execute` and `tool_declarations`): `true` or `{ limits }`; needs a Worker Loader binding (see docs/code-mode.md). */
  codeMode?: CodeModeLimits;
  /**
   * MCP Apps of the tenant's modules (`io.modelcontextprotocol/ui`), on by default: `false` serves
   * their tools as plain tools, without `ui://` resources, app-only tools or the extension.
   */
  apps?: boolean;
  /**
   * The tenant's own authorization server, with `tenantSignIn()` (see docs/sign-in.md, "Per tenant"); it
   * replaces `auth`. Validated by sign-in-section.ts where it is used: the admin API and the opt-in.
   */
  signIn?: Record<string, unknown>;
  /**
   * Providers of connected accounts (`{"providers": {"github": {...}}}`); checked in full by the
   * admin API and by the Worker's `connectedAccounts()` (see docs/connected-accounts.md).
   */
  accounts?: Record<string, unknown>;
}

const ID = /^[a-z0-9][a-z0-9-]{0,62}$/;
const HOST = /^[a-z0-9.-]{1,253}$/;
const PATH_PREFIX = /^(\/[A-Za-z0-9._~-]+)+$/;

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
  "signIn",
  "accounts",
];

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
    signIn,
    accounts,
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
  if (signIn !== undefined) {
    if (auth !== undefined) fail("signIn", "and auth cannot both be set: with signIn the tenant's own authorization server admits its tokens");
    if (!isObject(signIn)) fail("signIn", "must be an object");
    tenant.signIn = signIn;
  }
  if (accounts !== undefined) {
    if (!isObject(accounts)) fail("accounts", "must be an object");
    tenant.accounts = accounts;
  }
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
