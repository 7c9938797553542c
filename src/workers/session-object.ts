/**
 * McpSessionObject: the Durable Object behind each legacy (2025-era) session.
 *
 * Storage (SQLite backend):
 * - KV key `session`: the SessionRecord (hash of the session id, scope, negotiated version,
 *   client capabilities, log level, resource subscriptions, createdAt, lastSeen).
 * - table `events(id, stream, seq, data)`: SSE events of the session's streams for
 *   `Last-Event-ID` replay; bounded to the most recent MAX_EVENTS rows.
 * Lifecycle: created by the `initialize` the Worker forwards (the session id is this object's
 * id plus a secret); every request of the session is forwarded here; DELETE or an idle alarm (30 minutes
 * without requests) deletes all storage, after which the session id gets 404.
 */

import { DurableObject } from "cloudflare:workers";
import { errorResponse } from "../http/responses.ts";
import type { ToolLimits } from "../server/request-context.ts";
import { createStateSealer } from "../server/request-state.ts";
import { createServer, type McpServer, type ServerOptions } from "../server/server.ts";
import { SessionEngine } from "../session/session-engine.ts";
import { CREATE_HEADER, SCOPE_HEADER, SESSION_HEADER } from "./session-gateway.ts";
import type { SessionStorage, StoredEvent } from "../session/session-record.ts";
import type { McpEnv } from "./env.ts";
import { durableHandleStore } from "./handle-object.ts";
import { durableChangeRelay, notificationShardsOf } from "./durable-change-relay.ts";

const MAX_EVENTS = 1000;

function sqlSessionStorage(storage: DurableObjectStorage): SessionStorage {
  const ensureTable = () =>
    storage.sql.exec("CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY AUTOINCREMENT, stream TEXT NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL)");
  ensureTable();
  let appended = 0;
  return {
    loadRecord: () => storage.get("session"),
    saveRecord: (record) => storage.put("session", record),
    appendEvent(stream, seq, data) {
      storage.sql.exec("INSERT INTO events (stream, seq, data) VALUES (?, ?, ?)", stream, seq, data);
      if (++appended % 100 === 0) storage.sql.exec("DELETE FROM events WHERE id <= (SELECT MAX(id) FROM events) - ?", MAX_EVENTS);
    },
    eventsAfter(stream, seq) {
      return storage.sql.exec<{ seq: number; data: string }>("SELECT seq, data FROM events WHERE stream = ? AND seq > ? ORDER BY seq", stream, seq).toArray() as StoredEvent[];
    },
    scheduleExpiry: (at) => storage.setAlarm(at),
    async deleteAll() {
      await storage.deleteAlarm();
      await storage.deleteAll();
      ensureTable();
    },
  };
}

/** Finds the server of a session from its scope (`tenant` or `tenant:principal`): for multi-tenant Workers. */
export type SessionServerResolver = (scope: string, env: McpEnv) => Promise<McpServer>;

export interface SessionObjectOptions {
  /** The tool limits of a session's tenant, by scope (multi-tenant Workers). */
  limitsFor?: (scope: string, env: McpEnv) => Promise<ToolLimits | undefined>;
  /** The notification hub shards of a session's tenant, by scope (multi-tenant Workers). */
  hubShardsFor?: (scope: string, env: McpEnv) => Promise<number>;
  /** Single tenant: the `notificationShards` given to createWorker (MCP_NOTIFICATION_SHARDS wins). */
  notificationShards?: number;
  /** How long a server→client request waits for the client (default 60 s). */
  inputTimeoutMs?: number;
  /** Idle time after which a session expires (default 30 minutes). */
  idleTtlMs?: number;
}

/**
 * Makes the session Durable Object class for a server. Export it from the Worker entry under
 * the class name bound as MCP_SESSIONS in wrangler.toml.
 *
 * @example
 * const server = createServer({ info, tools });
 * export default createWorker(server);
 * export const McpSessionObject = createSessionObject(server);
 */
export function createSessionObject(server: McpServer | ServerOptions | SessionServerResolver, options: SessionObjectOptions = {}) {
  const resolve: SessionServerResolver =
    typeof server === "function"
      ? server
      : ((compiled: McpServer) => () => Promise.resolve(compiled))("handle" in server ? server : createServer(server));
  return class McpSessionObject extends DurableObject<McpEnv> {
    readonly #engine: SessionEngine;

    constructor(ctx: DurableObjectState, env: McpEnv) {
      super(ctx, env);
      const { hubShardsFor } = options;
      const shardsFor = (scope: string) => (hubShardsFor ? () => hubShardsFor(scope, env) : notificationShardsOf(env, options.notificationShards));
      this.#engine = new SessionEngine({
        serverFor: (scope) => resolve(scope, env),
        storage: sqlSessionStorage(ctx.storage),
        sealer: createStateSealer({ secret: env.MCP_STATE_SECRET }),
        handleStore: env.MCP_HANDLES ? durableHandleStore(env.MCP_HANDLES) : undefined,
        debug: env.MCP_DEBUG?.trim().toLowerCase() === "true",
        ...(env.MCP_NOTIFICATIONS ? { relay: (scope: string) => durableChangeRelay(env.MCP_NOTIFICATIONS as NonNullable<McpEnv["MCP_NOTIFICATIONS"]>, scope.split(":")[0] as string, { shards: shardsFor(scope) }) } : {}),
        ...(options.inputTimeoutMs === undefined ? {} : { inputTimeoutMs: options.inputTimeoutMs }),
        ...(options.idleTtlMs === undefined ? {} : { idleTtlMs: options.idleTtlMs }),
        ...(options.limitsFor ? { limitsFor: (scope: string) => (options.limitsFor as NonNullable<SessionObjectOptions["limitsFor"]>)(scope, env) } : {}),
      });
    }

    override fetch(request: Request): Promise<Response> {
      const sessionId = request.headers.get(SESSION_HEADER);
      const scope = request.headers.get(SCOPE_HEADER);
      if (sessionId === null || scope === null) return Promise.resolve(errorResponse(new Error("session request without its routing headers")));
      return this.#engine.handle(request, { sessionId, scope, create: request.headers.get(CREATE_HEADER) === "1" });
    }

    override alarm(): Promise<void> {
      return this.#engine.expire();
    }
  };
}
