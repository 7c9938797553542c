/** A legacy (2025-era) session: runs its requests, routes client responses, streams and resumes. */

import { ErrorCode, ProtocolError, invalidRequest } from "../core/errors.ts";
import { isObject, own } from "../core/json.ts";
import { classifyMessage, type InboundRequest, type RequestId } from "../core/jsonrpc.ts";
import { loggingLevelRank, type JsonObject } from "../core/types.ts";
import { isLegacyVersion } from "../core/versions.ts";
import { Exchange } from "../http/exchange.ts";
import { errorResponse, jsonResponse, resultMessage } from "../http/responses.ts";
import { relayedChangeFeed, type ChangeRelay } from "../server/change-relay.ts";
import type { HandleStore } from "../server/handles.ts";
import type { ToolLimits } from "../server/request-context.ts";
import type { StateSealer } from "../server/request-state.ts";
import type { McpServer } from "../server/server.ts";
import { PendingRequests, createSessionInputs } from "./session-inputs.ts";
import type { SessionRecord, SessionStorage } from "./session-record.ts";
import { SessionStream, parseEventId } from "./session-stream.ts";

export interface SessionEngineOptions {
  /** The server that answers a session's requests, by the session's scope (tenant and principal). */
  serverFor(scope: string): Promise<McpServer>;
  storage: SessionStorage;
  sealer: StateSealer;
  handleStore?: HandleStore | undefined;
  debug?: boolean;
  /** How long a server→client request waits for the client's answer (default 60 s). */
  inputTimeoutMs?: number;
  /** A session unused this long expires (default 30 minutes). */
  idleTtlMs?: number;
  /** The `retry` of priming events (default 1000 ms). */
  retryMs?: number;
  /** The tool limits of a scope's tenant (deadline, result size), if it has any. */
  limitsFor?: (scope: string) => Promise<ToolLimits | undefined>;
  /** The relay of change notifications for a scope's tenant (other isolates); in-isolate when absent. */
  relay?: (scope: string) => ChangeRelay | undefined;
  now?: () => number;
}

/** Who is calling and whether this request creates the session (set by the Worker, never by clients). */
export interface SessionCall {
  sessionId: string;
  scope: string;
  create: boolean;
}

const TOUCH_EVERY_MS = 60_000;
const INFO_RANK = 1;

async function hashId(id: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(id)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Compares two equal-length hex digests without an early exit. */
function sameDigest(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function sessionGone(): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidRequest, "Session not found: it expired or was deleted; initialize a new session", { status: 404 });
}

/**
 * The engine of one session. Its host (a Durable Object) gives every request of the session to
 * `handle`, so a tool waiting for the client's answer and the POST carrying that answer meet
 * here, whichever Worker invocation received them.
 */
export class SessionEngine {
  readonly #options: SessionEngineOptions;
  readonly #pending = new PendingRequests();
  readonly #inflight = new Map<RequestId, Exchange>();
  readonly #streams = new Map<string, SessionStream>();
  #record: SessionRecord | undefined;
  #loaded = false;
  #standalone: SessionStream | undefined;
  #unsubscribe: (() => void) | undefined;
  /** The standalone stream's filter: updated in place when the client subscribes to a resource. */
  #filter: { resourceSubscriptions: string[] } | undefined;
  #server: McpServer | undefined;

  constructor(options: SessionEngineOptions) {
    this.#options = options;
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  async #load(): Promise<SessionRecord | undefined> {
    if (!this.#loaded) {
      this.#record = await this.#options.storage.loadRecord();
      this.#loaded = true;
    }
    return this.#record;
  }

  async #save(record: SessionRecord): Promise<void> {
    this.#record = record;
    await this.#options.storage.saveRecord(record);
  }

  /** Answers one HTTP request of this session. */
  async handle(request: Request, call: SessionCall): Promise<Response> {
    try {
      const record = await this.#load();
      if (call.create) return await this.#initialize(request, call);
      if (!record || record.scope !== call.scope || !sameDigest(record.idHash, await hashId(call.sessionId))) throw sessionGone();
      if (this.#now() - record.lastSeen > TOUCH_EVERY_MS) {
        await this.#save({ ...record, lastSeen: this.#now() });
        await this.#options.storage.scheduleExpiry(this.#now() + this.#idleTtl());
      }
      if (request.method === "DELETE") return await this.#delete();
      if (request.method === "GET") return this.#get(request, await this.#options.serverFor(record.scope));
      return await this.#post(request, record);
    } catch (error) {
      return errorResponse(error);
    }
  }

  /** The host's alarm: deletes the session when it has been idle too long. */
  async expire(): Promise<void> {
    const record = await this.#load();
    if (!record) return;
    const due = record.lastSeen + this.#idleTtl();
    if (due > this.#now()) await this.#options.storage.scheduleExpiry(due);
    else await this.#end("the session expired");
  }

  #idleTtl(): number {
    return this.#options.idleTtlMs ?? 30 * 60_000;
  }

  async #initialize(request: Request, call: SessionCall): Promise<Response> {
    const message = classifyMessage(JSON.parse(await request.text()));
    if (message.kind !== "request" || message.method !== "initialize") throw invalidRequest("A new session starts with initialize");
    if (this.#record) throw invalidRequest("This session is already initialized");
    const exchange = this.#exchange(request, message, undefined, call.scope);
    const result = (await (await this.#options.serverFor(call.scope)).handle(message, exchange)) as JsonObject;
    const params = message.params ?? {};
    const now = this.#now();
    await this.#save({
      idHash: await hashId(call.sessionId),
      scope: call.scope,
      protocolVersion: String(result["protocolVersion"]),
      clientCapabilities: isObject(params["capabilities"]) ? params["capabilities"] : {},
      clientInfo: isObject(params["clientInfo"]) ? params["clientInfo"] : undefined,
      logLevel: undefined,
      subscriptions: [],
      createdAt: now,
      lastSeen: now,
    });
    await this.#options.storage.scheduleExpiry(now + this.#idleTtl());
    return jsonResponse(resultMessage(message.id, result), 200, { "mcp-session-id": call.sessionId });
  }

  async #delete(): Promise<Response> {
    await this.#end("the session was deleted");
    return new Response(null, { status: 204 });
  }

  async #end(reason: string): Promise<void> {
    this.#pending.rejectAll(reason);
    for (const exchange of this.#inflight.values()) exchange.cancel(new DOMException(reason, "AbortError"));
    for (const stream of this.#streams.values()) stream.close();
    this.#streams.clear();
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#standalone = undefined;
    this.#record = undefined;
    await this.#options.storage.deleteAll();
  }

  #get(request: Request, server: McpServer): Response {
    const lastEventId = request.headers.get("last-event-id");
    if (lastEventId !== null) {
      const position = parseEventId(lastEventId);
      const stream = position && this.#streams.get(position.stream);
      if (!position || !stream) throw new ProtocolError(ErrorCode.InvalidRequest, `Unknown Last-Event-ID '${lastEventId}': the stream ended or its events expired`, { status: 404 });
      return stream.resume(position.seq);
    }
    // The standalone stream: notifications not tied to a request (list changes, resource updates).
    this.#standalone?.close();
    const stream = this.#openStream(true);
    this.#standalone = stream;
    this.#server = server;
    this.#subscribe();
    return stream.response;
  }

  /** Feeds the standalone stream from the change source; `again` after the source ended (the hub went away). */
  #subscribe(again = false): void {
    const record = this.#record;
    if (this.#unsubscribe && this.#filter && record && !again) {
      // Only the resource subscriptions changed: the live subscription reads its filter at each
      // notification, so nothing published meanwhile is missed (re-subscribing could miss it).
      this.#filter.resourceSubscriptions = record.subscriptions;
      return;
    }
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    if (!record) return;
    const filter = { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: record.subscriptions };
    this.#filter = filter;
    const source = this.#options.relay?.(record.scope) ?? this.#server?.changes;
    if (!source) return;
    const send = (method: string, params: JsonObject): void => this.#standalone?.send(JSON.stringify({ jsonrpc: "2.0", method, params }));
    this.#unsubscribe = source.subscribe(filter, {
      send,
      // What the lost hub may have dropped is announced again: list changes and updates are
      // idempotent (the client lists or reads again), and 2025 clients have no other way to learn it.
      ready: () => {
        if (!again) return;
        for (const method of ["notifications/tools/list_changed", "notifications/prompts/list_changed", "notifications/resources/list_changed"]) send(method, {});
        for (const uri of filter.resourceSubscriptions) send("notifications/resources/updated", { uri });
      },
      // The hub went away (reset, eviction, deploy): subscribe again after 1 to 5 s, spread so
      // that a hub's sessions do not all come back at once.
      end: () => {
        this.#unsubscribe = undefined;
        setTimeout(() => {
          if (this.#standalone && this.#record && !this.#unsubscribe) this.#subscribe(true);
        }, 1000 + Math.floor(Math.random() * 4000));
      },
    });
  }

  #openStream(standalone: boolean): SessionStream {
    const stream = new SessionStream({
      storage: this.#options.storage,
      retryMs: this.#options.retryMs ?? 1000,
      // The standalone stream is fed by other requests of this object (one I/O context: no polling).
      ...(standalone ? { keepAliveMs: 15_000 } : {}),
    });
    this.#streams.set(stream.id, stream);
    return stream;
  }

  async #post(request: Request, record: SessionRecord): Promise<Response> {
    const message = classifyMessage(JSON.parse(await request.text()));
    if (message.kind === "response") {
      if (!this.#pending.settle(message.id, message.result, message.error)) {
        throw invalidRequest(`No request with id ${JSON.stringify(message.id)} is waiting for a response in this session`);
      }
      return new Response(null, { status: 202 });
    }
    if (message.kind === "notification") {
      if (message.method === "notifications/cancelled") {
        const requestId = message.params ? own(message.params, "requestId") : undefined;
        if (typeof requestId === "string" || typeof requestId === "number") {
          const reason = message.params ? own(message.params, "reason") : undefined;
          this.#inflight.get(requestId)?.cancel(new DOMException(typeof reason === "string" ? reason : "cancelled by the client", "AbortError"));
        }
      }
      return new Response(null, { status: 202 });
    }
    if (message.method === "initialize") throw invalidRequest("This session is already initialized; send initialize without Mcp-Session-Id to start a new one");

    const server = await this.#options.serverFor(record.scope);
    const limits = await this.#options.limitsFor?.(record.scope);
    const exchange = this.#exchange(request, message, record, record.scope, limits);
    // In flight until the handler finishes, which may be long after the SSE answer has started.
    this.#inflight.set(message.id, exchange);
    const response = exchange.respond(message.id, async (ctx) => {
      const result = await server.handle(message, ctx);
      await this.#remember(message, record);
      return result;
    });
    void exchange.finished.then(() => {
      if (this.#inflight.get(message.id) === exchange) this.#inflight.delete(message.id);
    });
    return response;
  }

  /** Keeps what a successful request changed in the session: log level, subscriptions. */
  async #remember(message: InboundRequest, record: SessionRecord): Promise<void> {
    const params = message.params ?? {};
    if (message.method === "logging/setLevel") {
      await this.#save({ ...record, logLevel: String(params["level"]) });
    } else if (message.method === "resources/subscribe" || message.method === "resources/unsubscribe") {
      const uri = String(params["uri"]);
      const others = record.subscriptions.filter((u) => u !== uri);
      await this.#save({ ...record, subscriptions: message.method === "resources/subscribe" ? [...others, uri] : others });
      if (this.#standalone) this.#subscribe();
    }
  }

  #exchange(request: Request, message: InboundRequest, record: SessionRecord | undefined, scope: string, limits?: ToolLimits): Exchange {
    const header = request.headers.get("mcp-protocol-version");
    const version = header !== null && isLegacyVersion(header) ? header : (record?.protocolVersion ?? "2025-11-25");
    const meta = message.params ? own(message.params, "_meta") : undefined;
    const token = isObject(meta) ? own(meta, "progressToken") : undefined;
    let exchange: Exchange | undefined;
    const inputs = record
      ? createSessionInputs({
          pending: this.#pending,
          clientCapabilities: record.clientCapabilities,
          send: (json) => exchange?.sendMessage(json),
          signal: () => (exchange as Exchange).signal,
          timeoutMs: this.#options.inputTimeoutMs ?? 60_000,
        })
      : undefined;
    exchange = new Exchange(request, {
      era: "legacy",
      protocolVersion: version,
      clientCapabilities: record?.clientCapabilities ?? {},
      minLogRank: loggingLevelRank(record?.logLevel) ?? INFO_RANK,
      progressToken: typeof token === "string" || typeof token === "number" ? token : undefined,
      sealer: this.#options.sealer,
      scope,
      tenant: scope.split(":")[0],
      handleStore: this.#options.handleStore,
      responseMode: "auto",
      debug: this.#options.debug ?? false,
      inputs,
      sessionful: true,
      cancelOnDisconnect: false,
      limits,
      changes: ((relay) => (relay ? relayedChangeFeed(relay, undefined) : undefined))(record ? this.#options.relay?.(record.scope) : undefined),
      openStream: () => this.#openStream(false),
    });
    return exchange;
  }
}
