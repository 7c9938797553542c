/** What feeds a session's standalone (GET) stream: list changes and resource updates, followed again when their source goes away. */

import type { JsonObject } from "../core/types.ts";
import type { ChangeSource } from "../server/notifications/change-hub.ts";
import { refreshNotifications } from "../server/notifications/refresh-notifications.ts";
import type { SubscriptionFilter } from "../server/notifications/subscription-filter.ts";

/** A session's subscription to the change source: one at a time, its resource list updated in place. */
export class SessionFeed {
  readonly #send: (method: string, params: JsonObject) => void;
  #unsubscribe: (() => void) | undefined;
  /** Read by the source at each notification: a client's resources/subscribe takes effect at once. */
  #filter: SubscriptionFilter | undefined;

  /** `send` writes one notification to the standalone stream (when one is open). */
  constructor(send: (method: string, params: JsonObject) => void) {
    this.#send = send;
  }

  /**
   * Follows `source` for `subscriptions`. While a subscription is live and `again` is not set, only
   * its resource list changes: re-subscribing could miss what is published meanwhile. When the
   * source ends the subscription (the hub went away: reset, eviction, deploy), `lost` runs after 1
   * to 5 s, spread so that a hub's sessions do not all come back at once; it may follow again.
   */
  follow(source: ChangeSource, subscriptions: string[], lost: () => void, again = false): void {
    if (this.#unsubscribe && this.#filter && !again) {
      this.#filter.resourceSubscriptions = subscriptions;
      return;
    }
    this.stop();
    const filter: SubscriptionFilter = { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: subscriptions };
    this.#filter = filter;
    this.#unsubscribe = source.subscribe(filter, {
      send: this.#send,
      // What the lost hub may have dropped is announced again: list changes and updates are
      // idempotent (the client lists or reads again), and 2025 clients have no other way to learn it.
      ready: (missed) => {
        if (again || missed) for (const { method, params } of refreshNotifications(filter)) this.#send(method, params);
      },
      end: () => {
        this.#unsubscribe = undefined;
        setTimeout(
          () => {
            if (!this.#unsubscribe) lost();
          },
          1000 + Math.floor(Math.random() * 4000),
        );
      },
    });
  }

  /** Ends the subscription, if any. */
  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }
}
