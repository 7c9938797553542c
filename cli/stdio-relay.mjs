// Relays JSON-RPC lines of a stdio host to a Streamable HTTP MCP endpoint and writes every answer back as a line.

import { DEFAULT_RETRY_MS, clip, isEventStream, messageLine, parseJson } from "./http-answer.mjs";
import { isObject } from "./is-object.mjs";
import { modernHeaders, modernVersionOf } from "./request-headers.mjs";
import { InFlightLimit } from "./in-flight-limit.mjs";
import { followSessionStream } from "./session-listener.mjs";
import { relayResponseStream } from "./response-stream.mjs";
import { ToolCatalog } from "./tool-catalog.mjs";

/**
 * @typedef {{ method: string, headers: Record<string, string>, body?: string, signal?: AbortSignal }} RelayRequestInit
 * @typedef {(url: string, init: RelayRequestInit) => Promise<Response>} Dispatch
 * @typedef {Record<string, unknown>} Message
 * @typedef {import("./response-stream.mjs").InFlight} InFlight
 */

/**
 * @typedef {object} StdioRelayOptions
 * @property {Dispatch} dispatch Sends one HTTP request to the Worker (miniflare's `dispatchFetch`).
 * @property {string} endpoint The MCP endpoint's URL, e.g. `http://localhost/mcp`.
 * @property {(json: string) => void | Promise<void>} write Writes one message line to the host (stdout).
 * @property {(line: string) => void} log Writes one diagnostic line (stderr).
 * @property {Record<string, string>} [headers] Extra headers on every request (e.g. `authorization`).
 * @property {boolean} [debug] Logs every message in and out.
 * @property {number} [maxInFlight] At most this many requests are sent to the Worker at once (default 64); later ones wait.
 * @property {() => void} [onRoom] Called whenever a waiting request is sent (the backlog shrank).
 */

/** Requests relayed at once by default: enough for any host, and bounded memory whatever it sends. */
export const DEFAULT_MAX_IN_FLIGHT = 64;

const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** @param {unknown} id */
const isRequestId = (id) => typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id));
/** @param {unknown} id A map key that keeps 1 and "1" apart. */
const keyOf = (id) => `${typeof id}:${String(id)}`;

/**
 * The stdio side of the Worker. Each line is POSTed as it is (so malformed lines, batches and
 * unknown methods get exactly the HTTP endpoint's error), with the headers a Streamable HTTP
 * client would send: the session id and negotiated version after a 2025-era `initialize`, or
 * the 2026-07-28 request-metadata headers derived from the message's `_meta`. JSON and SSE
 * answers go back line by line; a session's GET stream carries server-initiated messages, and
 * the host's answers to them are POSTed back. `notifications/cancelled` closes the request's
 * stream (and reaches the session, which cancels the handler).
 */
export class StdioRelay {
  #options;
  #tools = new ToolCatalog((headers, body) => this.#send("POST", headers, body));
  /** @type {Map<string, InFlight>} */
  #inflight = new Map();
  /** @type {Set<Promise<void>>} */
  #tasks = new Set();
  /** Later messages wait for an `initialize` in flight: they need the session it opens. */
  #gate = Promise.resolve();
  /** @type {string | undefined} */
  #session;
  /** @type {string | undefined} */
  #legacyVersion;
  /** @type {AbortController | undefined} */
  #listening;
  #closed = false;
  #limit;

  /** @param {StdioRelayOptions} options */
  constructor(options) {
    this.#options = options;
    this.#limit = new InFlightLimit(options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT, options.onRoom);
  }

  /** How many requests wait for room under the in-flight limit (a host reading stdin pauses when it grows). */
  get backlog() {
    return this.#limit.waiting;
  }

  /**
   * Takes one line from the host. Never throws: failures become JSON-RPC errors or log lines.
   * Requests beyond the in-flight limit wait, in order; notifications and the host's answers to
   * the Worker's requests pass at once (a request in flight may wait for one of them), and a
   * cancellation of a request that still waits drops it (no answer is due: 2025-11-25
   * cancellation).
   * @param {string} line
   */
  receive(line) {
    if (this.#closed || line.trim() === "") return;
    if (this.#options.debug) this.#options.log(`edge-mcp stdio: in  ${clip(line)}`);
    const message = parseJson(line);
    if (isObject(message) && typeof message["method"] === "string" && !Object.hasOwn(message, "id")) {
      const params = message["params"];
      if (message["method"] === "notifications/cancelled" && isObject(params) && this.#limit.withdraw(keyOf(params["requestId"]))) return;
      return void this.#start(message, line);
    }
    if (isObject(message) && typeof message["method"] !== "string" && (Object.hasOwn(message, "result") || Object.hasOwn(message, "error")))
      return void this.#start(message, line);
    this.#limit.admit(isObject(message) && Object.hasOwn(message, "id") ? keyOf(message["id"]) : undefined, () => this.#start(message, line));
  }

  /** @param {unknown} message @param {string} line */
  #start(message, line) {
    const task = this.#gate.then(() => this.#handle(message, line));
    if (isObject(message) && message["method"] === "initialize") this.#gate = task;
    this.#tasks.add(task);
    void task.finally(() => this.#tasks.delete(task));
    return task;
  }

  /** Resolves once every message received so far has been relayed and answered. */
  async idle() {
    // A waiting request starts as a running one ends: between the two, no task may be listed.
    while (this.#tasks.size > 0 || this.#limit.waiting > 0) await (this.#tasks.size > 0 ? Promise.allSettled([...this.#tasks]) : Promise.resolve());
  }

  /** Closes every stream and ends the session (DELETE), best effort. */
  async close() {
    this.#closed = true;
    this.#limit.clear();
    for (const entry of this.#inflight.values()) entry.controller.abort();
    this.#listening?.abort();
    const session = this.#session;
    if (session === undefined) return;
    try {
      const response = await this.#send("DELETE", { "mcp-session-id": session, ...this.#versionHeader() }, undefined, AbortSignal.timeout(1000));
      await response.body?.cancel();
    } catch {
      // The Worker is going away with us; its session expires on its own.
    }
  }

  /** @param {unknown} message @param {string} line */
  async #handle(message, line) {
    if (this.#closed) return;
    try {
      if (!isObject(message)) return await this.#forward(line);
      const hasId = Object.hasOwn(message, "id");
      if (typeof message["method"] === "string") return await (hasId ? this.#request(message, line) : this.#notification(message, line));
      if (hasId && (Object.hasOwn(message, "result") || Object.hasOwn(message, "error"))) return await this.#clientAnswer(line);
      return await this.#forward(line);
    } catch (error) {
      if (!this.#closed) this.#options.log(`edge-mcp stdio: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** A line that is no JSON-RPC message (malformed JSON, a batch, an invalid object): the Worker names the problem. */
  async #forward(/** @type {string} */ line) {
    const response = await this.#send("POST", this.#legacyHeaders(), line);
    const answer = messageLine(await response.text());
    if (answer) await this.#emit(answer.line);
  }

  /** @param {Message} message @param {string} line */
  async #request(message, line) {
    const id = message["id"];
    /** @type {InFlight} */
    const entry = { controller: new AbortController(), cancelled: false, answered: false, lastEventId: undefined, retryMs: DEFAULT_RETRY_MS };
    const key = keyOf(id);
    if (isRequestId(id)) this.#inflight.set(key, entry);
    try {
      const version = modernVersionOf(message);
      const headers =
        version === undefined ? this.#legacyHeaders(message["method"]) : { ...modernHeaders(message, version), ...(await this.#tools.headersFor(message)) };
      const response = await this.#send("POST", headers, line, entry.controller.signal);
      if (message["method"] === "initialize" && version === undefined) this.#adoptSession(response.headers.get("mcp-session-id"));
      if (isEventStream(response) && response.body) await this.#relayStream(response.body, message, entry);
      else await this.#relayJson(response, message, entry);
    } catch (error) {
      if (entry.cancelled || this.#closed) return;
      const reason = error instanceof Error ? error.message : String(error);
      this.#options.log(`edge-mcp stdio: request ${JSON.stringify(id)} failed: ${reason}`);
      if (isRequestId(id))
        await this.#emit(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32603, message: `Internal error: no answer from the Worker (${reason})` } }));
    } finally {
      if (this.#inflight.get(key) === entry) this.#inflight.delete(key);
    }
  }

  /** @param {Response} response @param {Message} message @param {InFlight} entry */
  async #relayJson(response, message, entry) {
    const text = await response.text();
    const answer = messageLine(text);
    if (!answer) throw new Error(`HTTP ${response.status} answered with ${text === "" ? "no body" : "a body that is not a JSON-RPC message"}`);
    entry.answered = true;
    this.#observe(message, answer.message);
    const id = message["id"];
    // An HTTP client matches an answer to its request by the exchange; a stdio host needs the id,
    // which the endpoint answers as null in errors raised before it read the body (413, 403, 401, 404).
    if ((answer.message["id"] ?? null) === null && isRequestId(id)) return this.#emit(JSON.stringify({ ...answer.message, jsonrpc: "2.0", id }), entry);
    await this.#emit(answer.line, entry);
  }

  /** @param {ReadableStream<Uint8Array>} body @param {Message} message @param {InFlight} entry */
  async #relayStream(body, message, entry) {
    await relayResponseStream(body, {
      requestId: message["id"],
      entry,
      emit: (line) => this.#emit(line, entry),
      onAnswer: (answer) => this.#observe(message, answer),
      canResume: () => this.#session !== undefined && !this.#closed,
      resume: (lastEventId) => {
        const headers = { accept: "text/event-stream", "mcp-session-id": String(this.#session), "last-event-id": lastEventId, ...this.#versionHeader() };
        return this.#send("GET", headers, undefined, entry.controller.signal);
      },
    });
  }

  /** @param {Message} message @param {string} line */
  async #notification(message, line) {
    const version = modernVersionOf(message);
    const headers = version === undefined ? this.#legacyHeaders(message["method"]) : modernHeaders(message, version);
    if (message["method"] === "notifications/cancelled") {
      const params = message["params"];
      const target = this.#inflight.get(keyOf(isObject(params) ? params["requestId"] : undefined));
      if (target) target.cancelled = true;
      // 2025: a session cancels the handler on this notification (a dropped stream alone does not).
      // 2026-07-28 over HTTP: closing the request's stream is the cancellation.
      if (version === undefined) await this.#notify(headers, line);
      target?.controller.abort();
      return;
    }
    const accepted = await this.#notify(headers, line);
    if (accepted && message["method"] === "notifications/initialized" && this.#session !== undefined) this.#listen(this.#session);
  }

  /** The host's answer to a server→client request (elicitation, sampling, roots): the session routes it. */
  async #clientAnswer(/** @type {string} */ line) {
    await this.#notify(this.#legacyHeaders(), line);
  }

  /** POSTs a message that gets no answer over stdio; a refusal goes to the log. Returns whether it was accepted. */
  async #notify(/** @type {Record<string, string>} */ headers, /** @type {string} */ line) {
    const response = await this.#send("POST", headers, line);
    const text = await response.text();
    if (response.ok) return true;
    this.#options.log(`edge-mcp stdio: the Worker refused a message with HTTP ${response.status}: ${clip(text)}`);
    return false;
  }

  /** Follows the session's GET stream (server-initiated messages) until the relay closes or the session changes. */
  #listen(/** @type {string} */ session) {
    this.#listening?.abort();
    const controller = new AbortController();
    this.#listening = controller;
    const open = (/** @type {string | undefined} */ lastEventId) =>
      this.#send(
        "GET",
        {
          accept: "text/event-stream",
          "mcp-session-id": session,
          ...this.#versionHeader(),
          ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId }),
        },
        undefined,
        controller.signal,
      );
    followSessionStream({ open, emit: (line) => this.#emit(line), signal: controller.signal }).catch((error) => {
      if (!controller.signal.aborted && !this.#closed) this.#options.log(`edge-mcp stdio: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** @param {string | null} session */
  #adoptSession(session) {
    if (session === null || session === this.#session) return;
    this.#listening?.abort();
    this.#session = session;
  }

  /** The headers of a 2025-era message after `initialize`: its session and negotiated version. */
  #legacyHeaders(/** @type {unknown} */ method = undefined) {
    if (method === "initialize") return {};
    const headers = this.#versionHeader();
    return this.#session === undefined ? headers : { "mcp-session-id": this.#session, ...headers };
  }

  /** @returns {Record<string, string>} */
  #versionHeader() {
    return this.#legacyVersion === undefined ? {} : { "mcp-protocol-version": this.#legacyVersion };
  }

  /** What the relay keeps from answers: the negotiated version, tool header marks. */
  #observe(/** @type {Message} */ request, /** @type {Message} */ answer) {
    const result = answer["result"];
    if (request["method"] === "initialize" && isObject(result) && typeof result["protocolVersion"] === "string")
      this.#legacyVersion = result["protocolVersion"];
    this.#tools.observe(request, answer);
  }

  /** @param {string} method @param {Record<string, string>} headers @param {string | undefined} body @param {AbortSignal} [signal] */
  #send(method, headers, body, signal) {
    /** @type {RelayRequestInit} */
    const init = { method, headers: { ...(method === "POST" ? JSON_HEADERS : {}), ...this.#options.headers, ...headers } };
    if (body !== undefined) init.body = body;
    if (signal !== undefined) init.signal = signal;
    return this.#options.dispatch(this.#options.endpoint, init);
  }

  /** @param {string} json @param {InFlight} [entry] */
  async #emit(json, entry) {
    if (entry?.cancelled) return;
    if (this.#options.debug) this.#options.log(`edge-mcp stdio: out ${clip(json)}`);
    await this.#options.write(json);
  }
}
