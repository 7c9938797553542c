/** One `subscriptions/listen` response: an SSE stream that a change source feeds from any request, ended cleanly. */

import type { RequestId } from "../../core/jsonrpc.ts";
import type { JsonObject } from "../../core/types.ts";
import { MetaKey } from "../../core/versions.ts";
import type { ChangeSink } from "../../server/notifications/change-hub.ts";
import { Doorbell } from "../../server/notifications/doorbell.ts";
import { refreshNotifications } from "../../server/notifications/refresh-notifications.ts";
import type { SubscriptionFilter } from "../../server/notifications/subscription-filter.ts";
import { logMessage } from "../debug-log.ts";
import { SSE_HEADERS } from "../sse-stream.ts";

const encoder = new TextEncoder();

/**
 * A heartbeat (an empty SSE comment) after this long without a write, by default. It keeps idle
 * streams open through proxies. It also bounds how long a stream is held after its client closed
 * the connection quietly (a TCP FIN): workerd notices that only when it next writes (a reset
 * connection, or a cancellation by the edge, aborts request.signal at once). See ListenSettings.
 */
export const DEFAULT_HEARTBEAT_MS = 15_000;
const HEARTBEAT = encoder.encode(":\n\n");
/**
 * The slow-listener limit: text queued for a client that reads more slowly than notifications
 * arrive. Past it the stream is ended gracefully (its backlog dropped) rather than buffered
 * without bound; the client reconnects and lists again.
 */
export const DEFAULT_MAX_QUEUED_BYTES = 64 * 1024;
/** Clients are told (SSE `retry`) to reconnect after 1 to 5 s, spread so that they do not all come back at once. */
const RECONNECT_MIN_MS = 1_000;
const RECONNECT_SPREAD_MS = 4_000;

const SLOT = "\u0000subscription\u0000";
const SLOT_JSON = JSON.stringify(SLOT);
let lastFramed: { method: string; params: JsonObject; parts: [string, string] } | undefined;

/**
 * A notification's JSON with `_meta` carrying the subscription id, split where the id goes. A
 * source hands the same params to every listener in turn: it is serialised once, not per listener.
 */
function framed(method: string, params: JsonObject): [string, string] {
  if (lastFramed?.params === params && lastFramed.method === method) return lastFramed.parts;
  const { _meta, ...rest } = params;
  const meta = typeof _meta === "object" && _meta !== null ? (_meta as JsonObject) : {};
  // The slot is the last value of the text (`_meta` last, the id last in it): found from the end.
  const json = JSON.stringify({ jsonrpc: "2.0", method, params: { ...rest, _meta: { ...meta, [MetaKey.subscriptionId]: SLOT } } });
  const at = json.lastIndexOf(SLOT_JSON);
  const parts: [string, string] = [json.slice(0, at), json.slice(at + SLOT_JSON.length)];
  lastFramed = { method, params, parts };
  return parts;
}

export interface ListenStreamOptions {
  /** The listen request's id: the subscription id. */
  id: RequestId;
  /** The filter as honoured (the acknowledgement lists it). */
  filter: SubscriptionFilter;
  debug: boolean;
  /** The request's signal: aborts when the client goes away (workerd: `enable_request_signal`). */
  signal: AbortSignal | undefined;
  maxQueuedBytes: number;
  heartbeatMs: number;
  /** Set only where a wake-up from another request cannot run here (see crossRequestWakeSupported). */
  pollMs: number | undefined;
  /** Called once when the stream lets go of everything (client gone, or ended and cleaned up). */
  onDispose(): void;
}

/**
 * The stream is pull-based and owned by its request: sources (any request) only queue text and
 * ring a doorbell; the stream's `pull`, in this request, writes. A second loop in this request
 * runs tasks sources hand it (`run`) and releases what the stream holds once it ends.
 */
export class ListenStream implements ChangeSink {
  readonly response: Response;
  readonly #options: ListenStreamOptions;
  readonly #bell = new Doorbell();
  readonly #queue: string[] = [];
  readonly #tasks: (() => void)[] = [];
  readonly #checks: (() => void)[] = [];
  readonly #tag: JsonObject;
  readonly #onAbort = () => this.#dispose();
  readonly #heartbeat: ReturnType<typeof setInterval>;
  #queuedBytes = 0;
  #lastWrite = Date.now();
  #beat = false;
  #acked = false;
  #ending = false;
  #disposed = false;
  #unsubscribe: (() => void) | undefined;

  constructor(options: ListenStreamOptions) {
    this.#options = options;
    this.#tag = { [MetaKey.subscriptionId]: options.id };
    const stream = new ReadableStream<Uint8Array>({ pull: (controller) => this.#pull(controller), cancel: () => this.#dispose() }, { highWaterMark: 0 });
    this.response = new Response(stream, { status: 200, headers: SSE_HEADERS });
    // One timer for the stream's life, not one per wait (a timer costs about 7 µs per delivery),
    // ticking twice per heartbeat: a heartbeat goes out 1 to 1.5 heartbeats after the last write.
    // It also runs the source's checks (`watch`), and keeps workerd from seeing the request,
    // which waits for others, as hung.
    this.#heartbeat = setInterval(
      () => {
        for (const check of this.#checks) check();
        if (Date.now() - this.#lastWrite < options.heartbeatMs - 10 || this.#beat) return;
        this.#beat = true;
        this.#bell.ring();
      },
      Math.max(50, options.heartbeatMs / 2),
    );
    options.signal?.addEventListener("abort", this.#onAbort, { once: true });
    // Without cross-request wake-ups nothing hands tasks over (each listener reads its own hub
    // stream), and the pull loop, which polls, releases the stream when it closes.
    if (options.pollMs === undefined) void this.#control();
  }

  /** Writes what is queued (or a due heartbeat), waiting for it in this request. */
  async #pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    for (;;) {
      if (this.#queue.length > 0) {
        const text = this.#queue.join("");
        this.#queue.length = 0;
        this.#queuedBytes = 0;
        this.#beat = false;
        this.#lastWrite = Date.now();
        controller.enqueue(encoder.encode(text));
        return;
      }
      if (this.#ending || this.#disposed) {
        if (!this.#disposed) {
          controller.close();
          this.#dispose();
        }
        return;
      }
      if (this.#beat) {
        this.#beat = false;
        this.#lastWrite = Date.now();
        controller.enqueue(HEARTBEAT.slice());
        return;
      }
      await this.#bell.wait(this.#options.pollMs);
    }
  }

  /** Hands the stream the function that ends its subscription (called when the stream lets go). */
  attach(unsubscribe: () => void): void {
    if (this.#ending || this.#disposed) unsubscribe();
    else this.#unsubscribe = unsubscribe;
  }

  ready(missed = false): void {
    if (this.#acked || this.#ending) return;
    this.#acked = true;
    this.#message("notifications/subscriptions/acknowledged", { notifications: this.#options.filter });
    // After the acknowledgement (nothing may precede it): list again, read again.
    if (missed) for (const { method, params } of refreshNotifications(this.#options.filter)) this.#message(method, params);
  }

  send(method: string, params: JsonObject): void {
    if (!this.#acked || this.#ending) return;
    this.#message(method, params);
  }

  end(reason: string): void {
    if (this.#ending || this.#disposed) return;
    if (this.#acked) {
      this.#finish({ resultType: "complete", _meta: this.#tag });
    } else {
      console.error(`edge-mcp: a listen stream could not start: ${reason}`);
      this.#finish(undefined);
    }
  }

  watch(check: () => void): void {
    this.#checks.push(check);
  }

  run(task: () => void): void {
    if (this.#disposed) return;
    this.#tasks.push(task);
    this.#bell.ring();
  }

  #message(method: string, params: JsonObject): void {
    const [before, after] = framed(method, params);
    const json = `${before}${JSON.stringify(this.#options.id)}${after}`;
    const event = `event: message\ndata: ${json}\n\n`;
    if (this.#queuedBytes + event.length > this.#options.maxQueuedBytes) {
      this.#queue.length = 0;
      this.#queuedBytes = 0;
      console.warn(
        `edge-mcp: ended a listen stream whose client read more slowly than notifications arrived (over ${this.#options.maxQueuedBytes} bytes queued)`,
      );
      this.#finish({ resultType: "complete", _meta: this.#tag });
      return;
    }
    if (this.#options.debug) logMessage("out", json);
    this.#push(event);
  }

  /**
   * Ends the subscription: the final message (the listen request's result, or an error before the
   * acknowledgement) after a `retry` field that spreads reconnections, then the end of the stream.
   */
  #finish(result: JsonObject | undefined): void {
    this.#ending = true;
    // Runs in any request: leaving a source only drops references (a shared subscription's holder
    // leaves from its own request, where this is called from its read loop).
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    const message = result
      ? { jsonrpc: "2.0", id: this.#options.id, result }
      : { jsonrpc: "2.0", id: this.#options.id, error: { code: -32603, message: "Internal error: change notifications are unavailable; retry later" } };
    const json = JSON.stringify(message);
    if (this.#options.debug) logMessage("out", json);
    const retry = RECONNECT_MIN_MS + Math.floor(Math.random() * RECONNECT_SPREAD_MS);
    this.#queue.push(`retry: ${retry}\nevent: message\ndata: ${json}\n\n`);
    this.#bell.ring();
  }

  #push(text: string): void {
    if (this.#ending || this.#disposed) return;
    this.#queue.push(text);
    this.#queuedBytes += text.length;
    this.#bell.ring();
  }

  /** This request's second loop: tasks handed over by sources, and cleanup once the stream ends. */
  async #control(): Promise<void> {
    while (!this.#disposed) {
      await this.#bell.wait(this.#options.pollMs);
      for (const task of this.#tasks.splice(0)) {
        try {
          task();
        } catch (error) {
          console.error("edge-mcp: a listen stream task failed", error);
        }
      }
      if (this.#ending) this.#release();
    }
  }

  /** Lets go of the subscription and the timer (in this request: a timer cannot be cleared from another). */
  #release(): void {
    clearInterval(this.#heartbeat);
    this.#options.signal?.removeEventListener("abort", this.#onAbort);
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  /** The client went away, or the stream was written to its end. */
  #dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#ending = true;
    this.#release();
    this.#queue.length = 0;
    this.#tasks.length = 0;
    this.#checks.length = 0;
    this.#bell.ring();
    this.#options.onDispose();
  }
}
