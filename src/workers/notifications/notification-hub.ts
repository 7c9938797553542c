/**
 * McpNotificationHub: the Durable Object that fans a tenant's change notifications out to every
 * isolate holding listeners (one object per tenant, or per shard of a tenant: see
 * durable-change-relay.ts).
 *
 * Storage: one key, `listening` (true while the object has subscribers; written when the count
 * leaves or reaches zero), so that an instance knows it replaced one that had listeners (a reset,
 * a redeploy) and tells its subscribers to refresh. Subscriptions are open streams held in memory, plus the last RECENT notifications
 * (numbered, for a subscription that resumes after a handover between listeners) under an epoch
 * that is new each time the object starts. When the object is reset, evicted or redeployed, the
 * streams end; relays then end their listen streams gracefully and clients reconnect.
 * Lifecycle: `fetch` opens a subscription (an NDJSON stream read inside the subscriber's request:
 * first `{"hub":{epoch,seq,resumed,restartedAgo?}}` (restartedAgo: ms since this instance started,
 * when it replaced one that had listeners), then `{"seq","method","params"}` lines and a blank heartbeat
 * line every 5 s); `publish()` (RPC) numbers a notification and writes it to every subscription,
 * coalescing list changes; `stats()` (RPC) reports the open subscriptions.
 */

import { DurableObject } from "cloudflare:workers";
import type { TraceCarrier } from "../../core/admission.ts";
import type { JsonObject } from "../../core/types.ts";
import { coalesceKey } from "../../server/notifications/subscription-filter.ts";
import { startObjectSpan } from "../observe/object-spans.ts";

const encoder = new TextEncoder();
/**
 * A blank line this often tells readers the hub is alive, and lets the hub notice that a reader
 * went away (workerd reports a cancelled stream to the object only at its next write). Each one
 * costs every subscribed isolate a wake-up: at 1 s it was about 0.25 ms of CPU per isolate per
 * second, measured locally; at 5 s, about a fifth of that.
 */
const HEARTBEAT_MS = 5_000;
/**
 * Notifications kept for a subscription that resumes: the last 1,024, none older than a minute.
 * A handover between listeners takes milliseconds; a takeover from a holder whose request died
 * without a word, about 15 to 25 s.
 */
const RECENT = 1024;
const RECENT_MS = 60_000;
/**
 * Notifications that say the same thing (a list changed; one resource changed) are sent at most
 * twice per window: the first at once, the last of the rest when the window closes.
 */
export const COALESCE_MS = 100;
/** Storage key: true while the object has subscribers (see the header). */
const LISTENING = "listening";
/** Chunks queued to one subscription whose isolate stopped reading before the hub drops it. */
const MAX_BACKLOG = 4096;

interface Window {
  /** The last notification held back, and the trace of the publish that caused it (when traced). */
  pending: { method: string; params: JsonObject; trace: TraceCarrier | undefined } | undefined;
}

export class McpNotificationHub extends DurableObject {
  readonly #epoch = crypto.randomUUID();
  readonly #startedAt = Date.now();
  /** This instance replaced one that had listeners: what was published while it restarted may be lost. */
  #restarted = false;
  #seq = 0;
  readonly #recent: { seq: number; at: number; bytes: Uint8Array }[] = [];
  readonly #subscribers = new Set<ReadableStreamDefaultController<Uint8Array>>();
  readonly #windows = new Map<string, Window>();
  #heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      this.#restarted = (await ctx.storage.get(LISTENING)) === true;
    });
  }

  /** Opens a subscription; `?epoch=E&after=N` resumes after notification N of epoch E when the hub still holds what followed. */
  override fetch(request: Request): Response {
    this.#forget();
    const url = new URL(request.url);
    const after = Number(url.searchParams.get("after") ?? Number.NaN);
    const oldest = this.#recent[0]?.seq ?? this.#seq + 1;
    const resumed = url.searchParams.get("epoch") === this.#epoch && Number.isSafeInteger(after) && after <= this.#seq && after >= oldest - 1;
    let self: ReadableStreamDefaultController<Uint8Array> | undefined;
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        self = controller;
        const hello = { epoch: this.#epoch, seq: this.#seq, resumed, ...(this.#restarted ? { restartedAgo: Date.now() - this.#startedAt } : {}) };
        controller.enqueue(encoder.encode(`${JSON.stringify({ hub: hello })}\n`));
        if (resumed) for (const line of this.#recent) if (line.seq > after) controller.enqueue(line.bytes);
        if (this.#subscribers.size === 0) void this.ctx.storage.put(LISTENING, true);
        this.#subscribers.add(controller);
        this.#heartbeat ??= setInterval(() => this.#write(encoder.encode("\n")), HEARTBEAT_MS);
      },
      cancel: () => {
        if (self) this.#drop(self);
      },
    });
    return new Response(stream, { headers: { "content-type": "application/x-ndjson" } });
  }

  /**
   * Sends one notification to every open subscription (RPC), coalescing repeats within a window.
   * `trace`: the publishing request's hop, when traced (its fan-out is a span of that trace).
   */
  publish(method: string, params: JsonObject, trace?: TraceCarrier): void {
    const span = startObjectSpan(this.env, "edge_mcp.hub.fanout", trace, { "edge_mcp.hop": "hub", "mcp.method.name": method });
    const coalesced = this.#publish(method, params, trace);
    span?.end({ "edge_mcp.hub.subscribers": this.#subscribers.size, "edge_mcp.hub.coalesced": coalesced, "edge_mcp.hub.seq": this.#seq });
  }

  /** Sends or holds back (coalesced: true) a notification. */
  #publish(method: string, params: JsonObject, trace: TraceCarrier | undefined): boolean {
    const key = coalesceKey(method, params);
    if (key === undefined) {
      this.#send(method, params);
      return false;
    }
    const window = this.#windows.get(key);
    if (window) {
      window.pending = { method, params, trace };
      return true;
    }
    this.#send(method, params);
    this.#open(key);
    return false;
  }

  /** Open subscriptions and the position of the last notification (RPC; diagnostics and tests). */
  stats(): { subscribers: number; seq: number; epoch: string } {
    return { subscribers: this.#subscribers.size, seq: this.#seq, epoch: this.#epoch };
  }

  #open(key: string): void {
    const window: Window = { pending: undefined };
    this.#windows.set(key, window);
    setTimeout(() => {
      const pending = window.pending;
      if (!pending) {
        this.#windows.delete(key);
        return;
      }
      this.#windows.delete(key);
      // Sent for the last publish held back: a span of that publish's trace, under its hop.
      const span = startObjectSpan(this.env, "edge_mcp.hub.coalesced_send", pending.trace, { "edge_mcp.hop": "hub", "mcp.method.name": pending.method });
      this.#send(pending.method, pending.params);
      span?.end({ "edge_mcp.hub.subscribers": this.#subscribers.size, "edge_mcp.hub.seq": this.#seq });
      this.#open(key);
    }, COALESCE_MS);
  }

  #send(method: string, params: JsonObject): void {
    const seq = ++this.#seq;
    const bytes = encoder.encode(`${JSON.stringify({ seq, method, params })}\n`);
    this.#recent.push({ seq, at: Date.now(), bytes });
    this.#forget();
    this.#write(bytes);
  }

  /** Drops what no resuming subscription may still need (see RECENT). */
  #forget(): void {
    const since = Date.now() - RECENT_MS;
    let drop = Math.max(0, this.#recent.length - RECENT);
    while (drop < this.#recent.length && (this.#recent[drop] as { at: number }).at < since) drop++;
    if (drop > 0) this.#recent.splice(0, drop);
  }

  #write(bytes: Uint8Array): void {
    for (const controller of this.#subscribers) {
      // An isolate that stopped reading is dropped rather than buffered without bound; its
      // relay sees the stream fail and ends its listen streams (they reconnect).
      if ((controller.desiredSize ?? 0) < -MAX_BACKLOG) {
        controller.error(new Error("the subscriber did not keep up"));
        this.#drop(controller);
        continue;
      }
      try {
        controller.enqueue(bytes);
      } catch {
        this.#drop(controller);
      }
    }
  }

  #drop(controller: ReadableStreamDefaultController<Uint8Array>): void {
    if (!this.#subscribers.delete(controller) || this.#subscribers.size > 0) return;
    void this.ctx.storage.delete(LISTENING);
    if (this.#heartbeat !== undefined) {
      clearInterval(this.#heartbeat);
      this.#heartbeat = undefined;
    }
  }
}
