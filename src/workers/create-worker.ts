/** The Worker entry: builds the MCP app once per isolate from the server and the env vars. */

import type { Hono } from "hono";
import { DefinitionError } from "../core/definition-error.ts";
import { createMcpApp, type McpAppOptions } from "../http/app.ts";
import type { ResponseMode } from "../http/mcp-post.ts";
import { createServer, type McpServer, type ServerOptions } from "../server/server.ts";
import type { McpEnv } from "./env.ts";
import { durableHandleStore } from "./handle-object.ts";
import { durableChangeRelay, notificationShardsOf } from "./durable-change-relay.ts";
import { durableSessionGateway } from "./session-gateway.ts";

export interface WorkerOptions extends Omit<McpAppOptions, "server" | "sessions" | "handleStore"> {
  /** Keep 2025-era clients in sessions (Durable Objects bound as MCP_SESSIONS). Also MCP_LEGACY_SESSIONS = "true". */
  legacySessions?: boolean;
  /**
   * Hub objects (MCP_NOTIFICATIONS) the change notifications are spread over, 1 to 64 (default 1).
   * Also MCP_NOTIFICATION_SHARDS. Give `createSessionObject` the same count.
   */
  notificationShards?: number;
}

const RESPONSE_MODES: ReadonlySet<string> = new Set(["auto", "json", "sse"]);

function list(value: string | undefined): string[] {
  return (value ?? "").split(",").map((item) => item.trim()).filter((item) => item !== "");
}

function appOptions(server: McpServer, options: WorkerOptions, env: McpEnv): McpAppOptions {
  const mode = env.MCP_RESPONSE_MODE?.trim() || options.responseMode || "auto";
  if (!RESPONSE_MODES.has(mode)) throw new DefinitionError(`MCP_RESPONSE_MODE must be "auto", "json" or "sse"; got "${mode}"`);
  const { legacySessions, notificationShards, ...rest } = options;
  const sessionsOn = env.MCP_LEGACY_SESSIONS === undefined ? legacySessions === true : env.MCP_LEGACY_SESSIONS.trim().toLowerCase() === "true";
  if (sessionsOn && !env.MCP_SESSIONS) {
    throw new DefinitionError("legacy sessions are on but the MCP_SESSIONS Durable Object binding is missing: bind the class from createSessionObject() in wrangler.toml");
  }
  return {
    ...rest,
    server,
    ...(sessionsOn && env.MCP_SESSIONS ? { sessions: durableSessionGateway(env.MCP_SESSIONS) } : {}),
    ...(env.MCP_NOTIFICATIONS ? { relay: durableChangeRelay(env.MCP_NOTIFICATIONS, "default", { shards: notificationShardsOf(env, notificationShards) }) } : {}),
    responseMode: mode as ResponseMode,
    ...(env.MCP_STATE_SECRET ? { stateSecret: env.MCP_STATE_SECRET } : {}),
    ...(env.MCP_HANDLES ? { handleStore: durableHandleStore(env.MCP_HANDLES) } : {}),
    debug: env.MCP_DEBUG === undefined ? (options.debug ?? false) : env.MCP_DEBUG.trim().toLowerCase() === "true",
    allow: {
      hosts: [...(options.allow?.hosts ?? []), ...list(env.ALLOWED_HOSTS)],
      origins: [...(options.allow?.origins ?? []), ...list(env.ALLOWED_ORIGINS)],
    },
  };
}

/**
 * Makes a Worker (`export default createWorker(...)`) that serves the MCP endpoint. The server is
 * compiled at module load; the app is built on the first request of each isolate.
 *
 * @example
 * export default createWorker({ info: { name: "demo", version: "1.0.0" }, tools: [echo] });
 */
export function createWorker<E extends McpEnv = McpEnv>(server: McpServer | ServerOptions, options: WorkerOptions = {}): ExportedHandler<E> {
  const compiled = "handle" in server ? server : createServer(server);
  const apps = new WeakMap<object, Hono>();
  return {
    fetch(request, env, ctx) {
      let app = apps.get(env);
      if (!app) {
        app = createMcpApp(appOptions(compiled, options, env));
        apps.set(env, app);
      }
      return app.fetch(request, env, ctx);
    },
  };
}
