/** The multi-tenant Worker entry: tenants from bindings, each with its own server, modules and limits. */

import type { Hono } from "hono";
import { METADATA_PATH } from "../auth/protected-resource.ts";
import { ErrorCode, ProtocolError } from "../core/errors.ts";
import type { Implementation } from "../core/types.ts";
import { createMcpApp, type McpAppOptions } from "../http/app.ts";
import { createAuthorizer } from "../http/authorizer.ts";
import type { ListenSettings } from "../http/listen.ts";
import type { RateLimiter } from "../http/mcp-post.ts";
import { errorResponse } from "../http/responses.ts";
import type { ToolService } from "../modules/service-contract.ts";
import type { ToolModule } from "../modules/tool-module.ts";
import type { McpServer } from "../server/server.ts";
import { parseTenantsDocument, type TenantConfig, type TenantNotifications, type TenantRateLimits } from "../tenancy/tenant-config.ts";
import { TenantDirectory } from "../tenancy/tenant-directory.ts";
import { createCachedConfig, parseJson } from "../tenancy/tenant-source.ts";
import type { McpEnv } from "./env.ts";
import { durableHandleStore } from "./handle-object.ts";
import { durableChangeRelay } from "./durable-change-relay.ts";
import { durableSessionGateway } from "./session-gateway.ts";
import { createSessionObject, type SessionObjectOptions } from "./session-object.ts";

export interface MultiTenantEnv extends McpEnv {
  /** The tenants document as JSON text (a var or secret): `{"tenants": [...]}`. */
  MCP_TENANTS?: string;
  /** A KV namespace holding the tenants document under the key `tenants` (for many tenants). */
  MCP_TENANTS_KV?: KVNamespace;
}

export interface MultiTenantWorkerOptions extends Pick<McpAppOptions, "maxJsonDepth" | "responseMode" | "debug"> {
  /** Bundled modules, by the names tenant configs use. */
  modules: Readonly<Record<string, ToolModule>>;
  /** serverInfo for tenants that name none. */
  info?: Implementation;
  /** A static tenants document; when absent, MCP_TENANTS or MCP_TENANTS_KV is read. */
  tenants?: unknown;
  /** How long a tenants document is used before it is read again (default 60 s). */
  configTtlMs?: number;
  /** How long a service module's catalogue is used before it is read again (default 5 minutes). */
  catalogTtlMs?: number;
}

interface RateLimitBinding {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

function rateLimiter(env: Record<string, unknown>, limits: TenantRateLimits | undefined): RateLimiter | undefined {
  if (!limits || (!limits.tenant && !limits.principal && !limits.tool)) return undefined;
  const binding = (name: string | undefined) => (name === undefined ? undefined : (env[name] as RateLimitBinding | undefined));
  const wait = limits.retryAfterSeconds ?? 60;
  return {
    async check({ tenant, principal, tool }) {
      const who = `${tenant ?? ""}:${principal ?? "anonymous"}`;
      const checks: [RateLimitBinding | undefined, string][] = [
        [binding(limits.tenant), `${tenant ?? ""}`],
        [binding(limits.principal), who],
        [tool === undefined ? undefined : binding(limits.tool), `${who}:${tool}`],
      ];
      for (const [limiter, key] of checks) {
        if (limiter && !(await limiter.limit({ key })).success) return wait;
      }
      return undefined;
    },
  };
}

/** The listen stream settings in a tenant's `notifications` (shards are the relay's). */
function listenSettingsOf({ maxQueuedBytes, heartbeatMs }: TenantNotifications): ListenSettings {
  return { ...(maxQueuedBytes === undefined ? {} : { maxQueuedBytes }), ...(heartbeatMs === undefined ? {} : { heartbeatMs }) };
}

function list(value: string | undefined): string[] {
  return (value ?? "").split(",").map((item) => item.trim()).filter((item) => item !== "");
}

interface TenantState {
  config: { get(): Promise<TenantDirectory> };
  apps: WeakMap<McpServer, Map<string, Hono>>;
}

const states = new WeakMap<MultiTenantWorkerOptions, WeakMap<object, TenantState>>();

/** The per-isolate tenant configuration of a Worker (or its session objects), built once per env. */
function tenantState(options: MultiTenantWorkerOptions, env: MultiTenantEnv): TenantState {
  let perEnv = states.get(options);
  if (!perEnv) {
    perEnv = new WeakMap();
    states.set(options, perEnv);
  }
  let state = perEnv.get(env);
  if (!state) {
    const bindings = env as unknown as Record<string, unknown>;
    const read = async (): Promise<string | undefined> => {
      if (options.tenants !== undefined) return JSON.stringify(options.tenants);
      if (env.MCP_TENANTS !== undefined) return env.MCP_TENANTS;
      return (await env.MCP_TENANTS_KV?.get("tenants", "text")) ?? undefined;
    };
    const build = (text: string): TenantDirectory =>
      new TenantDirectory(parseTenantsDocument(parseJson(text, "the tenants document")), {
        modules: options.modules,
        service: (name) => bindings[name] as ToolService | undefined,
        info: options.info ?? { name: "edge-mcp", version: "0.1.0" },
        ...(options.catalogTtlMs === undefined ? {} : { catalogTtlMs: options.catalogTtlMs }),
      });
    state = { config: createCachedConfig({ read, build, ...(options.configTtlMs === undefined ? {} : { ttlMs: options.configTtlMs }) }), apps: new WeakMap() };
    perEnv.set(env, state);
  }
  return state;
}

/**
 * The session Durable Object class for a multi-tenant Worker: each session runs on the server of
 * the tenant that opened it. Pass the same options as to {@link createMultiTenantWorker}.
 */
export function createMultiTenantSessionObject(options: MultiTenantWorkerOptions, sessionOptions: SessionObjectOptions = {}) {
  const tenantOf = async (scope: string, env: MultiTenantEnv): Promise<{ directory: TenantDirectory; tenant: TenantConfig }> => {
    const directory = await tenantState(options, env).config.get();
    const id = scope.split(":")[0];
    const tenant = directory.tenants.find((t) => t.id === id);
    if (!tenant) throw new ProtocolError(ErrorCode.InvalidRequest, "Session not found: its tenant no longer exists", { status: 404 });
    return { directory, tenant };
  };
  return createSessionObject(
    async (scope, env) => {
      const { directory, tenant } = await tenantOf(scope, env as MultiTenantEnv);
      return directory.server(tenant);
    },
    {
      ...sessionOptions,
      limitsFor: async (scope, env) => {
        const { limits } = (await tenantOf(scope, env as MultiTenantEnv)).tenant;
        if (limits?.toolTimeoutMs === undefined && limits?.maxResultBytes === undefined) return undefined;
        return {
          ...(limits.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: limits.toolTimeoutMs }),
          ...(limits.maxResultBytes === undefined ? {} : { maxResultBytes: limits.maxResultBytes }),
        };
      },
      hubShardsFor: async (scope, env) => (await tenantOf(scope, env as MultiTenantEnv)).tenant.notifications?.shards ?? 1,
    },
  );
}

/**
 * Makes a Worker that serves many tenants from one deployment. Each request is resolved to a
 * tenant by Host, then by path prefix (unknown → 404); the tenant's server (bundled modules plus
 * service-bound ones) is compiled once per isolate and per catalogue refresh.
 *
 * @example
 * export default createMultiTenantWorker({ modules: { notes: notesModule } });
 */
export function createMultiTenantWorker<E extends MultiTenantEnv = MultiTenantEnv>(options: MultiTenantWorkerOptions): ExportedHandler<E> {
  const stateOf = (env: E) => tenantState(options, env);

  // One app per compiled server and endpoint path: rebuilt when the server is (catalogue refresh).
  const appFor = (env: E, directory: TenantDirectory, server: McpServer, tenant: TenantConfig, path: string, apps: WeakMap<McpServer, Map<string, Hono>>): Hono => {
    let byPath = apps.get(server);
    if (!byPath) {
      byPath = new Map();
      apps.set(server, byPath);
    }
    let app = byPath.get(path);
    if (!app) {
      const bindings = env as unknown as Record<string, unknown>;
      const limiter = rateLimiter(bindings, tenant.rateLimits);
      const auth = directory.auth(tenant);
      app = createMcpApp({
        server,
        path,
        tenant: tenant.id,
        ...(auth ? { authorizer: createAuthorizer(auth) } : {}),
        allow: { hosts: [...(tenant.hosts ?? []), ...list(env.ALLOWED_HOSTS)], origins: [...(tenant.allowedOrigins ?? []), ...list(env.ALLOWED_ORIGINS)] },
        ...(tenant.limits?.maxBodyBytes === undefined ? {} : { maxBodyBytes: tenant.limits.maxBodyBytes }),
        limits: {
          ...(tenant.limits?.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: tenant.limits.toolTimeoutMs }),
          ...(tenant.limits?.maxResultBytes === undefined ? {} : { maxResultBytes: tenant.limits.maxResultBytes }),
        },
        ...(options.maxJsonDepth === undefined ? {} : { maxJsonDepth: options.maxJsonDepth }),
        responseMode: (env.MCP_RESPONSE_MODE?.trim() as McpAppOptions["responseMode"]) || options.responseMode || "auto",
        debug: env.MCP_DEBUG === undefined ? (options.debug ?? false) : env.MCP_DEBUG.trim().toLowerCase() === "true",
        accessLog: true,
        ...(tenant.revisions ? { revisions: tenant.revisions } : {}),
        ...(limiter ? { rateLimiter: limiter } : {}),
        ...(env.MCP_STATE_SECRET ? { stateSecret: env.MCP_STATE_SECRET } : {}),
        ...(env.MCP_HANDLES ? { handleStore: durableHandleStore(env.MCP_HANDLES) } : {}),
        ...(tenant.legacySessions && env.MCP_SESSIONS ? { sessions: durableSessionGateway(env.MCP_SESSIONS) } : {}),
        ...(env.MCP_NOTIFICATIONS ? { relay: durableChangeRelay(env.MCP_NOTIFICATIONS, tenant.id, { shards: tenant.notifications?.shards ?? 1 }) } : {}),
        ...(tenant.notifications ? { listen: listenSettingsOf(tenant.notifications) } : {}),
      });
      byPath.set(path, app);
    }
    return app;
  };

  return {
    async fetch(request, env, ctx) {
      try {
        const state = stateOf(env);
        const directory = await state.config.get();
        const url = new URL(request.url);
        // Protected resource metadata (RFC 9728) names the resource's path after the well-known prefix.
        const metadata = url.pathname.startsWith(METADATA_PATH) ? url.pathname.slice(METADATA_PATH.length) || "/" : undefined;
        const resolved = directory.resolve(request, metadata ?? url.pathname);
        if (!resolved) {
          const host = request.headers.get("host") ?? url.host;
          return errorResponse(new ProtocolError(ErrorCode.InvalidRequest, `Unknown tenant: no tenant is served at host '${host}', path '${url.pathname}'`, { status: 404 }));
        }
        const server = await directory.server(resolved.tenant);
        return await appFor(env, directory, server, resolved.tenant, resolved.path, state.apps).fetch(request, env, ctx);
      } catch (error) {
        // Details (which tenant, which field) go to the log; the client learns only that the server is misconfigured.
        console.error("edge-mcp: cannot serve the request:", error instanceof Error ? error.message : error);
        return errorResponse(new ProtocolError(ErrorCode.InternalError, "Internal error: the server's tenant configuration is invalid or unavailable", { status: 500 }));
      }
    },
  };
}
