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
import { decodeAdmission, type Admission } from "../../core/admission.ts";
import type { JsonObject } from "../../core/types.ts";
import type { Endpoint } from "../../http/endpoint.ts";
import { errorResponse } from "../../http/responses.ts";
import type { McpServer, ServerOptions } from "../../server/server.ts";
import { SessionEngine } from "../../session/session-engine.ts";
import type { SessionStorage } from "../../session/session-record.ts";
import { makingOf, workerEndpoints, type WorkerOptions } from "../create-worker.ts";
import type { McpEnv, McpWorker } from "../env.ts";
import { wiringOf } from "../durable-wiring.ts";
import { definitionFailureOf } from "../definition-failure.ts";
import { failedObjectClass } from "../failed-object.ts";
import { sessionRoutes } from "../../http/sessions/session-routes.ts";
import { ADMISSION_HEADER, CREATE_HEADER, SESSION_HEADER, durableSessionGateway, openingOf } from "./session-gateway.ts";

const MAX_EVENTS = 1000;

function sqlSessionStorage(storage: DurableObjectStorage): SessionStorage {
  // The events table is made on the first event or replay: most sessions answer in JSON and
  // store none, and a deleted session needs none (a schema write each time otherwise).
  let tableReady = false;
  const events = (): SqlStorage => {
    if (!tableReady) {
      storage.sql.exec(
        "CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY AUTOINCREMENT, stream TEXT NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL)",
      );
      tableReady = true;
    }
    return storage.sql;
  };
  let appended = 0;
  return {
    loadRecord: () => storage.get("session"),
    saveRecord: (record) => storage.put("session", record),
    appendEvent(stream, seq, data) {
      const sql = events();
      sql.exec("INSERT INTO events (stream, seq, data) VALUES (?, ?, ?)", stream, seq, data);
      if (++appended % 100 === 0) sql.exec("DELETE FROM events WHERE id <= (SELECT MAX(id) FROM events) - ?", MAX_EVENTS);
    },
    eventsAfter(stream, seq) {
      return events().exec<{ seq: number; data: string }>("SELECT seq, data FROM events WHERE stream = ? AND seq > ? ORDER BY seq", stream, seq).toArray();
    },
    scheduleExpiry: (at) => storage.setAlarm(at),
    async deleteAll() {
      await storage.deleteAlarm();
      await storage.deleteAll();
      tableReady = false;
    },
  };
}

/** The endpoint of a session's tenant (multi-tenant Workers build it from the tenant's config). */
export type SessionEndpointResolver = (tenant: string, env: McpEnv) => Promise<Endpoint>;

export interface SessionObjectOptions extends WorkerOptions {
  /** How long a server→client request waits for the client (default 60 s). */
  inputTimeoutMs?: number;
  /** Idle time after which a session expires (default 30 minutes). */
  idleTtlMs?: number;
}

/** The Durable Object class `createSessionObject` makes: export it under the class name bound as MCP_SESSIONS. */
export type SessionObjectClass = new (ctx: DurableObjectState, env: McpEnv) => DurableObject<McpEnv>;

/**
 * Makes the session Durable Object class of a Worker. Export it from the Worker entry under the
 * class name bound as MCP_SESSIONS in wrangler.toml. Given the Worker from `createWorker`, it runs
 * on that Worker's server and options (only `inputTimeoutMs` and `idleTtlMs` are its own) and hands
 * the Worker its gateway to MCP_SESSIONS. Given a server, it runs on the options passed here and
 * wires no Worker (a Worker binding MCP_SESSIONS needs the class made from it).
 *
 * @example
 * const worker = createWorker(server, { legacySessions: true });
 * export default worker;
 * export const McpSessionObject = createSessionObject(worker);
 */
export function createSessionObject(
  source: McpWorker<never> | McpServer | ServerOptions | SessionEndpointResolver,
  options: SessionObjectOptions = {},
): SessionObjectClass {
  const { inputTimeoutMs, idleTtlMs, ...workerOptions } = options;
  // A Worker whose definitions are wrong answers with its error under development; so does its class.
  const failure = definitionFailureOf(source);
  if (failure) return failedObjectClass(failure) as unknown as SessionObjectClass;
  // The Worker (and this class's own endpoints) reach MCP_SESSIONS through the gateway this class hands it.
  const wiring = wiringOf(source) ?? {};
  wiring.sessions = durableSessionGateway;
  wiring.sessionRoutes = sessionRoutes;
  const made = makingOf(source);
  const resolve: SessionEndpointResolver =
    typeof source === "function"
      ? source
      : made
        ? workerEndpoints(made.server, { ...made.options, ...workerOptions, legacySessions: true }, wiring)
        : workerEndpoints(source as McpServer | ServerOptions, { ...workerOptions, legacySessions: true }, wiring);
  return class McpSessionObject extends DurableObject<McpEnv> {
    readonly #engine: SessionEngine;
    #lastAdmission: { text: string; admission: Admission } | undefined;

    constructor(ctx: DurableObjectState, env: McpEnv) {
      super(ctx, env);
      this.#engine = new SessionEngine({
        endpointFor: (tenant) => resolve(tenant, env),
        storage: sqlSessionStorage(ctx.storage),
        ...(inputTimeoutMs === undefined ? {} : { inputTimeoutMs }),
        ...(idleTtlMs === undefined ? {} : { idleTtlMs }),
      });
    }

    override fetch(request: Request): Promise<Response> {
      const sessionId = request.headers.get(SESSION_HEADER);
      const admission = this.#admissionOf(request.headers.get(ADMISSION_HEADER));
      if (sessionId === null || admission === undefined) return Promise.resolve(errorResponse(new Error("session request without its routing headers")));
      const create = request.headers.get(CREATE_HEADER);
      const opening = openingOf(create);
      if (create !== null && opening === undefined) return Promise.resolve(errorResponse(new Error("session request with a malformed opening header")));
      return this.#engine.handle(request, { sessionId, admission, opening });
    }

    /** The forwarded admission, read once per distinct record: a session's calls mostly repeat the last one. */
    #admissionOf(text: string | null): Admission | undefined {
      if (text !== null && text === this.#lastAdmission?.text) return this.#lastAdmission.admission;
      const admission = decodeAdmission(text);
      this.#lastAdmission = admission && text !== null ? { text, admission } : undefined;
      return admission;
    }

    /** RPC from the Worker: a notification for this session's standalone stream, sent only to the session `idHash` of `caller` (see SessionEngine.notify). */
    notify(idHash: string, caller: string, message: JsonObject): Promise<boolean> {
      return this.#engine.notify(idHash, caller, message);
    }

    override alarm(): Promise<void> {
      return this.#engine.expire();
    }
  };
}
