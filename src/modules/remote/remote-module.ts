/**
 * A remote module: another MCP server over Streamable HTTP mounted under a prefix. Its tool list is
 * cached per isolate (for the list's `ttlMs`, else a default, or until the upstream says
 * `list_changed`); every request is bounded in time and size and goes through a circuit breaker.
 */

import { isObject } from "../../core/json.ts";
import type { JsonObject } from "../../core/types.ts";
import type { HandlerContext } from "../../server/context/handler-context.ts";
import { ModuleFailure } from "../service-module.ts";
import { UpstreamAnswerError, UpstreamErrorAnswer, type UpstreamMessage } from "./remote-answer.ts";
import { CircuitBreaker, type CircuitBreakerOptions } from "./circuit-breaker.ts";
import { RemoteConnection, type RemoteProtocol } from "./remote-connection.ts";
import { exposed } from "./remote-target.ts";

/** How long a list without `ttlMs` (a 2025-11-25 upstream) is used before it is read again. */
export const DEFAULT_LIST_TTL_MS = 300_000;
/** The largest answer read from an upstream unless its module says otherwise (4 MiB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** Pages of `tools/list` followed at most. */
const MAX_PAGES = 20;
/** Upstream error messages are passed on cut to this many characters. */
const MAX_MESSAGE_CHARS = 500;

/** The caller's capabilities an upstream may use through us: asking for input (not extensions such as tasks, which are not relayed). */
function inputCapabilities(capabilities: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const key of ["elicitation", "sampling", "roots"]) if (isObject(capabilities[key])) out[key] = capabilities[key];
  return out;
}

export interface RemoteModuleSettings {
  /** Named in every error and log line. */
  name: string;
  /** Listed names are `<prefix>_<tool>`. */
  prefix: string;
  url: URL;
  protocol: RemoteProtocol;
  /** Resolved headers (credentials from secrets): never logged or relayed. */
  headers: Readonly<Record<string, string>>;
  /** Patterns (`*` wildcard) of the upstream's tool names to expose; all when absent. */
  allow?: readonly string[] | undefined;
  /** Patterns of the upstream's tool names to hide; these win over `allow`. */
  deny?: readonly string[] | undefined;
  timeoutMs: number;
  maxResponseBytes: number;
  breaker?: CircuitBreakerOptions;
  /** Refuses to call the URL when it is the Worker itself or another tenant's endpoint (checked on every request). */
  refuse?: (url: URL) => string | undefined;
  fetch?: typeof fetch;
  now?: () => number;
}

/** One tool as the upstream lists it, without prefix (checked later by the tool compiler). */
export type UpstreamTool = JsonObject & { name: string; inputSchema: JsonObject };

interface Listing {
  tools: UpstreamTool[];
  expiresAt: number;
  /** The list as text, to tell a changed list from the same one read again. */
  text: string;
}

/**
 * Told when a call learned that the upstream's list changed and the new list differs: the owner
 * builds its server again and announces `tools/list_changed`. `waitUntil` keeps the announcement
 * alive past the call (the call waits for the returned promise).
 */
export type ListChangeListener = (waitUntil: (promise: Promise<unknown>) => void) => Promise<void>;

export class RemoteModule {
  readonly settings: RemoteModuleSettings;
  readonly #connection: RemoteConnection;
  readonly #breaker: CircuitBreaker;
  readonly #now: () => number;
  #listing: Listing | undefined;
  #changed = false;
  #generation = 0;
  readonly #listeners = new Set<ListChangeListener>();

  constructor(settings: RemoteModuleSettings) {
    this.settings = settings;
    this.#now = settings.now ?? Date.now;
    this.#breaker = new CircuitBreaker({ ...settings.breaker, now: this.#now });
    this.#connection = new RemoteConnection({
      url: settings.url,
      protocol: settings.protocol,
      headers: settings.headers,
      maxResponseBytes: settings.maxResponseBytes,
      ...(settings.fetch ? { fetch: settings.fetch } : {}),
    });
  }

  /** The circuit's state (for tests and logs). */
  get circuit(): "closed" | "open" | "half-open" {
    return this.#breaker.state;
  }

  /** Counts the lists read that differ from the one before: a server built from an older one is out of date. */
  get generation(): number {
    return this.#generation;
  }

  /** Calls `listener` each time a call brings a `list_changed` after which the list differs; returns the way to stop. */
  onListChanged(listener: ListChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The upstream's capabilities, once it said them (`server/discover` or `initialize`). */
  get serverCapabilities(): JsonObject | undefined {
    return this.#connection.capabilities;
  }

  /** One request of this module (a list, a read, a prompt) under its breaker and time limit, for a caller when `ctx` is given. */
  send(method: string, params: JsonObject, what: string, ctx?: HandlerContext): Promise<JsonObject> {
    return this.#request(method, params, what, ctx);
  }

  /** Whether the cached list is past its TTL or the upstream said its tools changed. */
  stale(): boolean {
    return this.#changed || this.#listing === undefined || this.#now() >= this.#listing.expiresAt;
  }

  /** The upstream's tools that are exposed (allow/deny), from the cache while it is fresh. */
  async tools(): Promise<UpstreamTool[]> {
    if (this.#listing && !this.stale()) return this.#listing.tools;
    this.#changed = false;
    const tools: UpstreamTool[] = [];
    let ttlMs: number | undefined;
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await this.#request("tools/list", cursor === undefined ? {} : { cursor }, "tools/list");
      if (!Array.isArray(result["tools"])) throw this.#failure("tools/list", "its tools/list result has no tools array");
      for (const tool of result["tools"] as unknown[]) {
        if (!isObject(tool) || typeof tool["name"] !== "string" || !isObject(tool["inputSchema"])) {
          console.error(`edge-mcp: module ${this.settings.name}: a listed tool without a name or an inputSchema object is left out`);
          continue;
        }
        if (exposed(tool["name"], this.settings.allow, this.settings.deny)) tools.push(tool as UpstreamTool);
      }
      if (typeof result["ttlMs"] === "number" && result["ttlMs"] >= 0) ttlMs = Math.min(ttlMs ?? Infinity, result["ttlMs"]);
      cursor = typeof result["nextCursor"] === "string" ? result["nextCursor"] : undefined;
      if (cursor === undefined) break;
    }
    const text = JSON.stringify(tools);
    if (this.#listing !== undefined && this.#listing.text !== text) this.#generation++;
    this.#listing = { tools, expiresAt: this.#now() + (ttlMs ?? DEFAULT_LIST_TTL_MS), text };
    return tools;
  }

  /**
   * Calls an upstream tool for a caller: its progress and log notifications relayed to the caller,
   * the upstream's requests for input (elicitation, sampling, roots) asked of the caller and
   * answered, the result passed back as the upstream gave it.
   */
  async call(name: string, args: Record<string, unknown>, ctx: HandlerContext): Promise<JsonObject> {
    const meta: JsonObject = { progressToken: `edge-mcp-${name}` };
    if (ctx.trace) {
      meta["traceparent"] = ctx.trace.traceparent;
      if (ctx.trace.tracestate !== undefined) meta["tracestate"] = ctx.trace.tracestate;
      if (ctx.trace.baggage !== undefined) meta["baggage"] = ctx.trace.baggage;
    }
    const params: JsonObject = { name, arguments: args, _meta: meta };
    let asked = 0;
    let listChanged = false;
    const onMessage: UpstreamMessage = async (message) => {
      const method = message["method"];
      const body = isObject(message["params"]) ? message["params"] : {};
      if (message["id"] !== undefined && typeof method === "string") {
        // A 2025-11-25 upstream asks its client (us) for input on the call's stream: ask our caller.
        const id = message["id"] as string | number;
        try {
          const answers = await ctx.input({ [`upstream-${asked++}`]: { method, params: body } as never });
          await this.#connection.reply({ jsonrpc: "2.0", id, result: Object.values(answers)[0] }, ctx.signal);
        } catch (error) {
          await this.#connection.reply({ jsonrpc: "2.0", id, error: { code: -32603, message: "the client could not answer" } }, ctx.signal).catch(() => {});
          throw error;
        }
        return;
      }
      if (method === "notifications/progress" && typeof body["progress"] === "number") {
        ctx.progress(
          body["progress"],
          typeof body["total"] === "number" ? body["total"] : undefined,
          typeof body["message"] === "string" ? body["message"] : undefined,
        );
      } else if (method === "notifications/message" && typeof body["level"] === "string") {
        ctx.log(body["level"] as never, body["data"], typeof body["logger"] === "string" ? body["logger"] : undefined);
      } else if (method === "notifications/tools/list_changed") {
        this.#changed = true;
        listChanged = true;
      }
    };
    // A 2026-07-28 upstream asks for input with an input_required result: ask our caller, then call again with the answers.
    for (let round = 0; ; round++) {
      const result = await this.#request("tools/call", params, `tool ${name}`, ctx, onMessage);
      if (listChanged) await this.#relist();
      if (result["resultType"] !== "input_required" || round >= 8) return this.#callResult(result, name);
      const requests = isObject(result["inputRequests"]) ? result["inputRequests"] : {};
      params["inputResponses"] = Object.keys(requests).length > 0 ? await ctx.input(requests as never) : {};
      if (typeof result["requestState"] === "string") params["requestState"] = result["requestState"];
      else delete params["requestState"];
    }
  }

  /**
   * After a call's stream said `list_changed`: reads the list again at once and, when it differs,
   * tells the listeners (the server is built again and our clients are told before the call
   * returns). A list that cannot be read stays stale and is tried on the next request.
   */
  async #relist(): Promise<void> {
    const before = this.#generation;
    try {
      await this.tools();
    } catch {
      return;
    }
    if (this.#generation === before || this.#listeners.size === 0) return;
    const pending: Promise<unknown>[] = [];
    const waitUntil = (promise: Promise<unknown>) => void pending.push(promise);
    for (const listener of this.#listeners) {
      try {
        await listener(waitUntil);
      } catch (error) {
        console.error(`edge-mcp: module ${this.settings.name}: announcing its changed tools failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    await Promise.allSettled(pending);
  }

  #callResult(result: JsonObject, name: string): JsonObject {
    if (result["resultType"] === "input_required") throw this.#failure(`tool ${name}`, "it kept asking for input");
    if (!Array.isArray(result["content"])) throw this.#failure(`tool ${name}`, "its result has no content array");
    const { resultType: _type, _meta: _resultMeta, ...rest } = result;
    return rest;
  }

  /** One request under the breaker and the time limit; returns its result, throws a ModuleFailure naming the module. */
  async #request(method: string, params: JsonObject, what: string, ctx?: HandlerContext, onMessage?: UpstreamMessage): Promise<JsonObject> {
    const { name, timeoutMs } = this.settings;
    const refused = this.settings.refuse?.(this.settings.url);
    if (refused !== undefined) throw this.#failure(what, refused, false);
    if (!this.#breaker.admit()) {
      const seconds = Math.ceil(this.#breaker.retryInMs() / 1000);
      throw new ModuleFailure(`module ${name} is unavailable: its upstream failed repeatedly; it is tried again in ${seconds} s`);
    }
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new ModuleFailure(`module ${name} did not answer ${what} within ${timeoutMs} ms`)), timeoutMs);
    const signal = ctx ? AbortSignal.any([ctx.signal, timeout.signal]) : timeout.signal;
    try {
      const answer = await this.#connection.request(method, params, {
        signal,
        ...(onMessage ? { onMessage } : {}),
        ...(ctx ? { capabilities: inputCapabilities(ctx.clientCapabilities) } : {}),
      });
      this.#breaker.success();
      const error = answer["error"];
      if (isObject(error)) {
        const text = typeof error["message"] === "string" ? error["message"].slice(0, MAX_MESSAGE_CHARS) : "no message";
        throw new UpstreamErrorAnswer(`module ${name}: the upstream answered ${what} with error ${String(error["code"])}: ${text}`, error["code"]);
      }
      const result = answer["result"];
      if (!isObject(result)) throw this.#failure(what, "its response has no result object");
      return result;
    } catch (error) {
      if (error instanceof ModuleFailure) {
        if (timeout.signal.aborted && error === timeout.signal.reason) this.#breaker.failure();
        throw error;
      }
      if (timeout.signal.aborted) {
        this.#breaker.failure();
        throw timeout.signal.reason as ModuleFailure;
      }
      if (error instanceof UpstreamAnswerError) throw this.#failure(what, error.message);
      // The caller went away (cancellation), or a handler-side signal (input required): not the upstream's fault.
      this.#breaker.release();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** A failure of the upstream (counted by the breaker unless `counted` is false), logged and named. */
  #failure(what: string, reason: string, counted = true): ModuleFailure {
    if (counted) this.#breaker.failure();
    console.error(`edge-mcp: module ${this.settings.name}: ${what} failed: ${reason}`);
    return new ModuleFailure(`module ${this.settings.name}: ${what} failed: ${reason}`);
  }
}
