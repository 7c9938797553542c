/**
 * A small Streamable HTTP client for one upstream MCP server: JSON-RPC over POST, answers as JSON
 * or SSE, either revision (2026-07-28 stateless, or 2025-11-25 with `initialize` and a session kept
 * per isolate, opened again when the server forgets it), redirects never followed.
 */

import { isObject } from "../../core/json.ts";
import type { JsonObject } from "../../core/types.ts";
import { readAnswer, UpstreamAnswerError, type UpstreamMessage } from "./remote-answer.ts";

/** The revision a remote module speaks: one of them, or `auto` (2026-07-28 when `server/discover` offers it, else 2025-11-25). */
export type RemoteProtocol = "2025-11-25" | "2026-07-28" | "auto";

export const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const LEGACY_VERSIONS: ReadonlySet<string> = new Set(["2025-11-25", "2025-06-18", "2025-03-26"]);
const CLIENT_INFO = { name: "edge-mcp", version: "0.1.0" };
/**
 * What a 2025-11-25 session declares: it is shared by every caller, so only elicitation, which is
 * passed to the caller (one that cannot answer fails the call). A 2026-07-28 request declares its
 * caller's own capabilities.
 */
const SESSION_CAPABILITIES = { elicitation: {} };

export interface RemoteConnectionOptions {
  url: URL;
  protocol: RemoteProtocol;
  /** Headers sent on every request (credentials from secrets): never logged. */
  headers: Readonly<Record<string, string>>;
  /** The largest answer read, in bytes. */
  maxResponseBytes: number;
  fetch?: typeof fetch;
}

export interface RemoteRequestOptions {
  signal: AbortSignal;
  /** Messages of the upstream before its response: notifications, and (2025-11-25) its requests to us. */
  onMessage?: UpstreamMessage;
  /** The client capabilities a 2026-07-28 request declares (default none): the caller's, for a call. */
  capabilities?: JsonObject;
}

interface Session {
  version: string;
  id: string | undefined;
}

/** How long telling a 2025-11-25 upstream of a cancellation may take, in ms. */
const CANCEL_TIMEOUT_MS = 2_000;

const ignore: UpstreamMessage = () => {};

/** The header value of `Mcp-Name` (2026-07-28 §Standard headers): the tool or prompt name, or the resource URI. */
function nameOf(method: string, params: JsonObject): string | undefined {
  const value = method === "resources/read" ? params["uri"] : method === "tools/call" || method === "prompts/get" ? params["name"] : undefined;
  return typeof value === "string" && /^[\x21-\x7e]+$/.test(value) ? value : undefined;
}

export class RemoteConnection {
  readonly #options: RemoteConnectionOptions;
  #era: Promise<"modern" | "legacy"> | undefined;
  #session: Promise<Session> | undefined;
  #nextId = 1;
  #capabilities: JsonObject | undefined;

  constructor(options: RemoteConnectionOptions) {
    this.#options = options;
  }

  /** The server's capabilities from `server/discover` or `initialize`, once either answered (undefined before, or when neither was sent). */
  get capabilities(): JsonObject | undefined {
    return this.#capabilities;
  }

  /** The revision settled with the upstream, once it is. */
  async era(signal: AbortSignal): Promise<"modern" | "legacy"> {
    const { protocol } = this.#options;
    if (protocol !== "auto") return protocol === MODERN ? "modern" : "legacy";
    this.#era ??= this.#discover(signal);
    // A failed discovery (the upstream is down) is tried again next time.
    this.#era.catch(() => (this.#era = undefined));
    return this.#era;
  }

  /** Sends a request and returns the upstream's JSON-RPC response (with `result` or `error`); transport failures throw. */
  async request(method: string, params: JsonObject, options: RemoteRequestOptions): Promise<JsonObject> {
    const era = await this.era(options.signal);
    const onMessage = options.onMessage ?? ignore;
    if (era === "modern") {
      const id = this.#nextId++;
      const meta = {
        ...(isObject(params["_meta"]) ? params["_meta"] : {}),
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": options.capabilities ?? {},
        "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
      };
      const headers: Record<string, string> = { "mcp-protocol-version": MODERN, "mcp-method": method };
      const name = nameOf(method, params);
      if (name !== undefined) headers["mcp-name"] = name;
      const response = await this.#post({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } }, headers, options.signal);
      return this.#answer(response, id, onMessage);
    }
    for (let attempt = 0; ; attempt++) {
      const session = await this.#openSession(options.signal);
      const id = this.#nextId++;
      // The caller cancelled or the time ran out: a 2025-11-25 server is told first, then the request is closed
      // (closing its stream alone is no cancellation there, and once closed, the server may stop the work unasked).
      const request = new AbortController();
      const cancel = () => void this.#cancel(session, id).finally(() => request.abort(options.signal.reason));
      options.signal.addEventListener("abort", cancel, { once: true });
      try {
        const response = await this.#post({ jsonrpc: "2.0", id, method, params }, this.#sessionHeaders(session), request.signal);
        // 404 on a request with a session id: the server forgot the session (2025-11-25 §Session Management); open a new one once.
        if (response.status === 404 && session.id !== undefined && attempt === 0) {
          await response.body?.cancel().catch(() => {});
          this.#session = undefined;
          continue;
        }
        const answer = await this.#answer(response, id, onMessage);
        if (options.signal.aborted) throw options.signal.reason;
        return answer;
      } catch (error) {
        // Whatever the upstream did after it was told (ended the stream, answered an error), the request was cancelled.
        if (options.signal.aborted) throw options.signal.reason;
        throw error;
      } finally {
        options.signal.removeEventListener("abort", cancel);
      }
    }
  }

  /** Sends `notifications/cancelled` for request `id` of a session; a failure to send it is not reported (the call already failed). */
  async #cancel(session: Session, id: number): Promise<void> {
    const message = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "cancelled by the caller or its time limit" } };
    try {
      const response = await this.#post(message, this.#sessionHeaders(session), AbortSignal.timeout(CANCEL_TIMEOUT_MS));
      await response.body?.cancel().catch(() => {});
    } catch {
      // The upstream is gone or slow: the request ends on its side when its stream closes.
    }
  }

  /** Answers a request the upstream sent on a 2025-11-25 stream (its client is us). */
  async reply(message: JsonObject, signal: AbortSignal): Promise<void> {
    const session = await this.#openSession(signal);
    const response = await this.#post(message, this.#sessionHeaders(session), signal);
    await response.body?.cancel().catch(() => {});
  }

  #sessionHeaders(session: Session): Record<string, string> {
    return { "mcp-protocol-version": session.version, ...(session.id === undefined ? {} : { "mcp-session-id": session.id }) };
  }

  async #discover(signal: AbortSignal): Promise<"modern" | "legacy"> {
    const id = this.#nextId++;
    const meta = {
      "io.modelcontextprotocol/protocolVersion": MODERN,
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
    };
    const response = await this.#post(
      { jsonrpc: "2.0", id, method: "server/discover", params: { _meta: meta } },
      { "mcp-protocol-version": MODERN, "mcp-method": "server/discover" },
      signal,
    );
    // A server of the 2025 revisions refuses the request (400 "not initialized", 404, 405, -32601, -32022): speak 2025-11-25.
    if (response.status >= 400 && response.status < 500) {
      await response.body?.cancel().catch(() => {});
      return "legacy";
    }
    const answer = await this.#answer(response, id, ignore);
    const result = answer["result"];
    const versions = isObject(result) && Array.isArray(result["supportedVersions"]) ? result["supportedVersions"] : [];
    if (isObject(result) && isObject(result["capabilities"])) this.#capabilities = result["capabilities"];
    return versions.includes(MODERN) ? "modern" : "legacy";
  }

  #openSession(signal: AbortSignal): Promise<Session> {
    this.#session ??= this.#initialize(signal);
    this.#session.catch(() => (this.#session = undefined));
    return this.#session;
  }

  async #initialize(signal: AbortSignal): Promise<Session> {
    const id = this.#nextId++;
    const response = await this.#post(
      { jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: LEGACY, capabilities: SESSION_CAPABILITIES, clientInfo: CLIENT_INFO } },
      {},
      signal,
    );
    const sessionId = response.headers.get("mcp-session-id") ?? undefined;
    const answer = await this.#answer(response, id, ignore);
    const result = answer["result"];
    const version = isObject(result) ? result["protocolVersion"] : undefined;
    if (typeof version !== "string" || !LEGACY_VERSIONS.has(version)) {
      throw new UpstreamAnswerError(
        isObject(answer["error"])
          ? "it refused initialize"
          : `it answered initialize with protocol version ${JSON.stringify(version)}, which is not one it may use`,
      );
    }
    if (isObject(result) && isObject(result["capabilities"])) this.#capabilities = result["capabilities"];
    const session = { version, id: sessionId };
    const initialized = await this.#post({ jsonrpc: "2.0", method: "notifications/initialized" }, this.#sessionHeaders(session), signal);
    await initialized.body?.cancel().catch(() => {});
    return session;
  }

  async #post(body: JsonObject, headers: Record<string, string>, signal: AbortSignal): Promise<Response> {
    const send = this.#options.fetch ?? fetch;
    let response: Response;
    try {
      response = await send(this.#options.url, {
        method: "POST",
        headers: { ...this.#options.headers, ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(body),
        // Never follow a redirect: it could lead the credentials to another origin.
        redirect: "manual",
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new UpstreamAnswerError(`it cannot be reached (${error instanceof Error ? error.message : String(error)})`, { cause: error });
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => {});
      const location = response.headers.get("location");
      let to = "";
      try {
        if (location) to = ` to ${new URL(location, this.#options.url).origin}`;
      } catch {
        // An unparseable Location is reported without it.
      }
      throw new UpstreamAnswerError(`it answered with a redirect (HTTP ${response.status}${to}), which is not followed`);
    }
    return response;
  }

  /** The JSON-RPC response in an answer; an HTTP error without one throws (it counts against the circuit). */
  async #answer(response: Response, id: number, onMessage: UpstreamMessage): Promise<JsonObject> {
    if (response.ok) return readAnswer(response, id, this.#options.maxResponseBytes, onMessage);
    if (response.status >= 500 || !(response.headers.get("content-type") ?? "").startsWith("application/json")) {
      await response.body?.cancel().catch(() => {});
      throw new UpstreamAnswerError(`it answered HTTP ${response.status}`);
    }
    // A 4xx with a JSON-RPC error body (such as -32602 or -32022) is the upstream's answer to pass on.
    try {
      return await readAnswer(response, id, this.#options.maxResponseBytes, onMessage);
    } catch (error) {
      throw new UpstreamAnswerError(`it answered HTTP ${response.status}`, { cause: error });
    }
  }
}
