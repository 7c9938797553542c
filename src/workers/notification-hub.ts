/**
 * McpNotificationHub: one Durable Object per tenant that fans change notifications out to every
 * listener, whichever isolate opened it.
 *
 * Storage: none. Listeners are open streams held in memory; when the object is evicted they end,
 * and listeners reconnect (subscriptions/listen clients reconnect by design: no state survives).
 * Lifecycle: a listen stream or legacy GET stream opens `/subscribe` (a long NDJSON response read
 * in the listener's own request); `publish()` (RPC) writes one line to every open subscription.
 */

import { DurableObject } from "cloudflare:workers";
import type { JsonObject } from "../core/types.ts";
import type { ChangeListener, SubscriptionFilter } from "../server/change-hub.ts";
import { wants, type ChangeRelay } from "../server/change-relay.ts";

const encoder = new TextEncoder();
/** A blank line this often keeps idle subscriptions open and lets the hub notice closed ones. */
const HEARTBEAT_MS = 15_000;

export class McpNotificationHub extends DurableObject {
  readonly #listeners = new Set<ReadableStreamDefaultController<Uint8Array>>();
  #heartbeat: ReturnType<typeof setInterval> | undefined;

  override fetch(): Response {
    let self: ReadableStreamDefaultController<Uint8Array> | undefined;
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        self = controller;
        this.#listeners.add(controller);
        this.#heartbeat ??= setInterval(() => this.#write("\n"), HEARTBEAT_MS);
      },
      cancel: () => {
        if (self) this.#listeners.delete(self);
        if (this.#listeners.size === 0 && this.#heartbeat !== undefined) {
          clearInterval(this.#heartbeat);
          this.#heartbeat = undefined;
        }
      },
    });
    return new Response(stream, { headers: { "content-type": "application/x-ndjson" } });
  }

  /** Sends one notification to every open subscription (RPC). */
  publish(method: string, params: JsonObject): void {
    this.#write(`${JSON.stringify({ method, params })}\n`);
  }

  #write(line: string): void {
    const bytes = encoder.encode(line);
    for (const controller of this.#listeners) {
      try {
        controller.enqueue(bytes);
      } catch {
        this.#listeners.delete(controller);
      }
    }
  }
}

/**
 * A {@link ChangeRelay} over the hub of one tenant. A subscription reads the hub's stream inside
 * the listener's own request (Workers forbid writing to one request's stream from another).
 */
export function durableChangeRelay(namespace: DurableObjectNamespace<McpNotificationHub>, tenant: string): ChangeRelay {
  const hub = () => namespace.get(namespace.idFromName(tenant));
  return {
    publish: (method, params) => hub().publish(method, params),
    subscribe(filter: SubscriptionFilter, send: ChangeListener) {
      const controller = new AbortController();
      void (async () => {
        const response = await hub().fetch("https://hub.edge-mcp.internal/subscribe", { signal: controller.signal });
        const reader = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
        controller.signal.addEventListener("abort", () => void reader.cancel().catch(() => {}), { once: true });
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += value;
          let end = buffer.indexOf("\n");
          while (end !== -1) {
            const line = buffer.slice(0, end).trim();
            buffer = buffer.slice(end + 1);
            end = buffer.indexOf("\n");
            if (line === "") continue;
            const { method, params } = JSON.parse(line) as { method: string; params: JsonObject };
            if (wants(filter, method, params)) send(method, params);
          }
        }
      })().catch((error: unknown) => {
        if (!controller.signal.aborted) console.error("edge-mcp: a notification subscription ended:", error instanceof Error ? error.message : error);
      });
      return () => controller.abort();
    },
  };
}
