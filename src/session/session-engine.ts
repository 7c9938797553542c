/** A legacy (2025-era) session: runs its requests, routes client responses, streams and resumes. */

import type { Admission } from "../core/admission.ts";
import { constantTimeEqual, sha256Hex } from "../core/bytes.ts";
import { ErrorCode, ProtocolError, invalidRequest } from "../core/errors.ts";
import { isObject, own } from "../core/json.ts";
import { classifyMessage, type InboundRequest, type RequestId } from "../core/jsonrpc.ts";
import { loggingLevelRank, type JsonObject } from "../core/types.ts";
import { isLegacyVersion } from "../core/versions.ts";
import type { Endpoint } from "../http/endpoint.ts";
import type { SessionOpening } from "../http/sessions/session-gateway.ts";
import { Exchange } from "../http/exchange.ts";
import { errorResponse, jsonResponse, resultMessage, toProtocolError } from "../http/responses.ts";
import { relayedChangeFeed } from "../server/notifications/change-relay.ts";
import { takeClientMessage } from "./client-messages.ts";
import { SessionFeed } from "./session-feed.ts";
import { PendingRequests, createSessionInputs } from "./session-inputs.ts";
import type { SessionRecord, SessionStorage } from "./session-record.ts";
import { SessionStream, parseEventId } from "./session-stream.ts";

export interface SessionEngineOptions {
  /**
   * The endpoint of a tenant: its server, sealer, handle store, relay and quota counter, built the
   * same way the Worker builds it.
   */
  endpointFor(tenant: string): Promise<Endpoint>;
  storage: SessionStorage;
  /** How long a server→client request waits for the client's answer (default 60 s). */
  inputTimeoutMs?: number;
  /** A session unused this long expires (default 30 minutes). */
  idleTtlMs?: number;
  /** The `retry` of priming events (default 1000 ms). */
  retryMs?: number;
  now?: () => number;
}

/** Who is calling and whether this request creates the session (set by the Worker, never by clients). */
export interface SessionCall {
  sessionId: string;
  /** What the Worker's admission decided: the session is bound to `admission.caller`. */
  admission: Admission;
  /** Set only for the `initialize` that creates the session: the id's digest and the quota place admission took. */
  opening?: SessionOpening | undefined;
}

const TOUCH_EVERY_MS = 60_000;
/** The methods whose success changes what the session keeps (see #remember). */
const REMEMBERED: ReadonlySet<string> = new Set(["logging/setLevel", "resources/subscribe", "resources/unsubscribe"]);
const INFO_RANK = 1;

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
  /** The session id once it matched the record's digest: later requests compare with it (constant-time), not digest again. */
  #checkedId: string | undefined;
  #standalone: SessionStream | undefined;
  readonly #feed = new SessionFeed((method, params) => this.#standalone?.send(JSON.stringify({ jsonrpc: "2.0", method, params })));

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
      // Loaded and checked once per object instance: later requests take no turn for either.
      const record = this.#loaded ? this.#record : await this.#load();
      const endpoint = await this.#options.endpointFor(call.admission.tenant);
      if (call.opening) return await this.#initialize(request, call, call.opening, endpoint);
      if (!record || record.caller !== call.admission.caller) throw sessionGone();
      if (this.#checkedId !== undefined ? !constantTimeEqual(this.#checkedId, call.sessionId) : !(await this.#isSessionId(record, call.sessionId)))
        throw sessionGone();
      if (this.#now() - record.lastSeen > TOUCH_EVERY_MS) {
        const now = this.#now();
        await this.#save({ ...record, lastSeen: now });
        await this.#options.storage.scheduleExpiry(now + this.#idleTtl());
        await endpoint.quotaCounter?.renew(record.tenant, record.idHash, now + this.#idleTtl());
      }
      if (request.method === "DELETE") return await this.#delete(endpoint);
      if (request.method === "GET") return this.#get(request, endpoint);
      return await this.#post(request, record, call, endpoint);
    } catch (error) {
      return errorResponse(error);
    }
  }

  /** Whether `sessionId` is this session's: its digest is the record's (then later requests compare with the id it checked). */
  async #isSessionId(record: SessionRecord, sessionId: string): Promise<boolean> {
    if (!constantTimeEqual(record.idHash, await sha256Hex(sessionId))) return false;
    this.#checkedId = sessionId;
    return true;
  }

  /** Sends a message no request carries (`notifications/elicitation/complete`) on the open standalone stream, if this session is `idHash`'s of `caller`: whether it did. */
  async notify(idHash: string, caller: string, message: JsonObject): Promise<boolean> {
    const record = this.#loaded ? this.#record : await this.#load();
    const stream = this.#standalone;
    if (!record || record.caller !== caller || !constantTimeEqual(record.idHash, idHash) || !stream || stream.done) return false;
    stream.send(JSON.stringify(message));
    return true;
  }

  /** The host's alarm: deletes the session when it has been idle too long. */
  async expire(): Promise<void> {
    const record = await this.#load();
    if (!record) return;
    const due = record.lastSeen + this.#idleTtl();
    if (due > this.#now()) await this.#options.storage.scheduleExpiry(due);
    else await this.#end("the session expired", await this.#options.endpointFor(record.tenant));
  }

  #idleTtl(): number {
    return this.#options.idleTtlMs ?? 30 * 60_000;
  }

  async #initialize(request: Request, call: SessionCall, opening: SessionOpening, endpoint: Endpoint): Promise<Response> {
    const message = classifyMessage(JSON.parse(await request.text()));
    if (message.kind !== "request" || message.method !== "initialize") throw invalidRequest("A new session starts with initialize");
    if (this.#record) throw invalidRequest("This session is already initialized");
    const exchange = this.#exchange(request, message, undefined, call, endpoint);
    let result: JsonObject;
    try {
      result = (await endpoint.server.handle(message, exchange)) as JsonObject;
    } catch (error) {
      // A refused initialize opens no session: 400 (unless the refusal says otherwise), with the request's id.
      const refusal = toProtocolError(error);
      return errorResponse(
        refusal.status === 200 ? new ProtocolError(refusal.code, refusal.message, { status: 400, data: refusal.data, cause: error }) : refusal,
        message.id,
      );
    }
    const params = message.params ?? {};
    const now = this.#now();
    const expiresAt = now + this.#idleTtl();
    const { idHash, leaseExpiresAt } = opening;
    await this.#save({
      idHash,
      tenant: call.admission.tenant,
      caller: call.admission.caller,
      protocolVersion: String(result["protocolVersion"]),
      clientCapabilities: isObject(params["capabilities"]) ? params["capabilities"] : {},
      clientInfo: isObject(params["clientInfo"]) ? params["clientInfo"] : undefined,
      logLevel: undefined,
      subscriptions: [],
      createdAt: now,
      lastSeen: now,
    });
    await this.#options.storage.scheduleExpiry(expiresAt);
    // Admission took the session's quota place (the lease is the id's digest); it lasts while the
    // session does: moved forward here only when this session may idle past the place's end.
    if (leaseExpiresAt === undefined || leaseExpiresAt < expiresAt) await endpoint.quotaCounter?.renew(call.admission.tenant, idHash, expiresAt);
    this.#checkedId = call.sessionId;
    return jsonResponse(resultMessage(message.id, result), 200, { "mcp-session-id": call.sessionId });
  }

  async #delete(endpoint: Endpoint): Promise<Response> {
    await this.#end("the session was deleted", endpoint);
    return new Response(null, { status: 204 });
  }

  async #end(reason: string, endpoint: Endpoint): Promise<void> {
    const record = this.#record;
    this.#pending.rejectAll(reason);
    for (const exchange of this.#inflight.values()) exchange.cancel(new DOMException(reason, "AbortError"));
    for (const stream of this.#streams.values()) stream.close();
    this.#streams.clear();
    this.#feed.stop();
    this.#standalone = undefined;
    this.#record = undefined;
    this.#checkedId = undefined;
    await this.#options.storage.deleteAll();
    if (record) await endpoint.quotaCounter?.release(record.tenant, record.idHash);
  }

  #get(request: Request, endpoint: Endpoint): Response {
    const lastEventId = request.headers.get("last-event-id");
    if (lastEventId !== null) {
      const position = parseEventId(lastEventId);
      const stream = position && this.#streams.get(position.stream);
      if (!position || !stream)
        throw new ProtocolError(ErrorCode.InvalidRequest, `Unknown Last-Event-ID '${lastEventId}': the stream ended or its events expired`, { status: 404 });
      return stream.resume(position.seq);
    }
    // The standalone stream: notifications not tied to a request (list changes, resource updates).
    this.#standalone?.close();
    const stream = this.#openStream(true);
    this.#standalone = stream;
    this.#subscribe(endpoint);
    return stream.response;
  }

  /** Feeds the standalone stream from the change source; `again` after the source ended (the hub went away). */
  #subscribe(endpoint: Endpoint, again = false): void {
    const record = this.#record;
    if (!record) return this.#feed.stop();
    const lost = (): void => {
      if (this.#standalone && this.#record) this.#subscribe(endpoint, true);
    };
    this.#feed.follow(endpoint.relay ?? endpoint.server.changes, record.subscriptions, lost, again);
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

  async #post(request: Request, record: SessionRecord, call: SessionCall, endpoint: Endpoint): Promise<Response> {
    const message = classifyMessage(JSON.parse(await request.text()));
    if (message.kind !== "request") return takeClientMessage(message, this.#pending, this.#inflight);
    if (message.method === "initialize") throw invalidRequest("This session is already initialized; send initialize without Mcp-Session-Id to start a new one");

    const exchange = this.#exchange(request, message, record, call, endpoint);
    // In flight until the handler finishes, which may be long after the SSE answer has started.
    this.#inflight.set(message.id, exchange);
    const response = exchange.respond(message.id, async (ctx) => {
      const result = await endpoint.server.handle(message, ctx);
      if (REMEMBERED.has(message.method)) await this.#remember(message, record, endpoint);
      return result;
    });
    void exchange.finished.then(() => {
      if (this.#inflight.get(message.id) === exchange) this.#inflight.delete(message.id);
    });
    return response;
  }

  /** Keeps what a successful request changed in the session: log level, subscriptions. */
  async #remember(message: InboundRequest, record: SessionRecord, endpoint: Endpoint): Promise<void> {
    const params = message.params ?? {};
    if (message.method === "logging/setLevel") {
      await this.#save({ ...record, logLevel: String(params["level"]) });
    } else if (message.method === "resources/subscribe" || message.method === "resources/unsubscribe") {
      const uri = String(params["uri"]);
      const others = record.subscriptions.filter((u) => u !== uri);
      await this.#save({ ...record, subscriptions: message.method === "resources/subscribe" ? [...others, uri] : others });
      if (this.#standalone) this.#subscribe(endpoint);
    }
  }

  #exchange(request: Request, message: InboundRequest, record: SessionRecord | undefined, call: SessionCall, endpoint: Endpoint): Exchange {
    const admission = call.admission;
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
          trace: admission.trace,
        })
      : undefined;
    exchange = new Exchange(request, endpoint, {
      era: "legacy",
      protocolVersion: version,
      clientCapabilities: record?.clientCapabilities ?? {},
      minLogRank: loggingLevelRank(record?.logLevel) ?? INFO_RANK,
      progressToken: typeof token === "string" || typeof token === "number" ? token : undefined,
      admission,
      inputs,
      sessionful: true,
      sessionId: call.sessionId,
      cancelOnDisconnect: false,
      changes: endpoint.relay ? relayedChangeFeed(endpoint.relay, undefined) : undefined,
      openStream: () => this.#openStream(false),
      // Code-mode programs run here: their inner calls are traced and metered like a stateless request's.
      observeCall: endpoint.observer?.innerCallsOf?.(admission, "legacy"),
    });
    return exchange;
  }
}
