/** List-change and resource-update notifications, fanned out to the listeners of this isolate. */

import type { JsonObject } from "../../core/types.ts";
import { wants, type SubscriptionFilter } from "./subscription-filter.ts";

/** Announces changes; handlers reach it as `ctx.changes`, Workers as `server.changes`. */
export interface ChangeFeed {
  toolsListChanged(): void;
  promptsListChanged(): void;
  resourcesListChanged(): void;
  /** The resource (or a sub-resource of a subscribed URI) changed. */
  resourceUpdated(uri: string): void;
}

/**
 * The receiving end of one subscription (a listen stream, a session's GET stream). A source may
 * call it from another request than the subscriber's: `send`, `ready` and `end` only queue and
 * wake (Workers let one request resolve a promise another request waits on, and run the
 * continuation in the waiter's request; they do not let it write to the other's stream).
 */
export interface ChangeSink {
  /** A notification the filter asked for. */
  send(method: string, params: JsonObject): void;
  /**
   * The subscription is live: every notification published from now on reaches `send`. With
   * `missed`, changes may have been published that this subscriber's client did not get (its
   * previous subscription ended a moment ago, or the hub restarted): the sink tells its client to
   * refresh what it holds (see refreshNotifications).
   */
  ready?(missed?: boolean): void;
  /** The source ended the subscription (its hub went away, or lost notifications): nothing more comes. */
  end?(reason: string): void;
  /**
   * Runs `task` soon inside the subscriber's own request, so that the I/O it starts (a shared hub
   * subscription handed over to this subscriber) belongs to a request that is still open.
   */
  run?(task: () => void): void;
  /**
   * Has the subscriber call `check` now and then from its own request (a listen stream: at its
   * heartbeat timer), so that a source needs no timer of its own per subscriber.
   */
  watch?(check: () => void): void;
}

/** Where listeners subscribe: the in-isolate hub, or a relay across isolates. */
export interface ChangeSource {
  /**
   * Registers a sink; returns the function that removes it (idempotent). Call it inside the
   * subscriber's own request: a source may start I/O there that must belong to that request.
   */
  subscribe(filter: SubscriptionFilter, sink: ChangeSink): () => void;
}

interface Subscription {
  filter: SubscriptionFilter;
  sink: ChangeSink;
}

/** The in-isolate fan-out: delivers each change to the subscriptions of this isolate that ask for it. */
export class ChangeHub implements ChangeFeed, ChangeSource {
  readonly #subscriptions = new Set<Subscription>();

  subscribe(filter: SubscriptionFilter, sink: ChangeSink): () => void {
    const subscription = { filter, sink };
    this.#subscriptions.add(subscription);
    sink.ready?.();
    return () => this.#subscriptions.delete(subscription);
  }

  get listenerCount(): number {
    return this.#subscriptions.size;
  }

  /** Delivers a notification to the listeners whose filter asks for it. */
  emit(method: string, params: JsonObject): void {
    for (const { filter, sink } of this.#subscriptions) {
      if (!wants(filter, method, params)) continue;
      try {
        sink.send(method, params);
      } catch (error) {
        // One broken listener must not stop the others.
        console.error("edge-mcp: a change listener failed", error);
      }
    }
  }

  /** Ends every subscription (their sinks get `end`) and forgets them. */
  endAll(reason: string): void {
    const ended = [...this.#subscriptions];
    this.#subscriptions.clear();
    for (const { sink } of ended) {
      try {
        sink.end?.(reason);
      } catch (error) {
        console.error("edge-mcp: a change listener failed to end", error);
      }
    }
  }

  toolsListChanged(): void {
    this.emit("notifications/tools/list_changed", {});
  }

  promptsListChanged(): void {
    this.emit("notifications/prompts/list_changed", {});
  }

  resourcesListChanged(): void {
    this.emit("notifications/resources/list_changed", {});
  }

  resourceUpdated(uri: string): void {
    this.emit("notifications/resources/updated", { uri });
  }
}
