/** List-change and resource-update notifications, fanned out to the listeners of this isolate. */

import { invalidParams } from "../core/errors.ts";
import { isObject, own } from "../core/json.ts";
import type { JsonObject } from "../core/types.ts";
import { wants } from "./change-relay.ts";

/** What a `subscriptions/listen` request may ask for (2026-07-28 `SubscriptionFilter`). */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** Announces changes; handlers reach it as `ctx.changes`, Workers as `server.changes`. */
export interface ChangeFeed {
  toolsListChanged(): void;
  promptsListChanged(): void;
  resourcesListChanged(): void;
  /** The resource (or a sub-resource of a subscribed URI) changed. */
  resourceUpdated(uri: string): void;
}

export type ChangeListener = (method: string, params: JsonObject) => void;

interface Subscription {
  filter: SubscriptionFilter;
  send: ChangeListener;
}

const BOOLEAN_KEYS = ["toolsListChanged", "promptsListChanged", "resourcesListChanged"] as const;

/**
 * Validates a listen filter and returns the part this server honours (unknown kinds are left out,
 * as the acknowledgement must show). Throws -32602 for values of the wrong type.
 */
export function parseSubscriptionFilter(value: unknown): SubscriptionFilter {
  if (!isObject(value)) throw invalidParams(`subscriptions/listen needs params.notifications, an object such as {"toolsListChanged": true}`);
  const honoured: SubscriptionFilter = {};
  for (const key of BOOLEAN_KEYS) {
    const flag = own(value, key);
    if (flag === undefined) continue;
    if (typeof flag !== "boolean") throw invalidParams(`params.notifications.${key} must be a boolean`);
    if (flag) honoured[key] = true;
  }
  const uris = own(value, "resourceSubscriptions");
  if (uris !== undefined) {
    if (!Array.isArray(uris) || !uris.every((uri) => typeof uri === "string")) {
      throw invalidParams(`params.notifications.resourceSubscriptions must be an array of resource URIs`);
    }
    if (uris.length > 0) honoured.resourceSubscriptions = [...new Set(uris)];
  }
  return honoured;
}

export class ChangeHub implements ChangeFeed {
  readonly #subscriptions = new Set<Subscription>();

  /** Registers a listener; returns the function that removes it. */
  subscribe(filter: SubscriptionFilter, send: ChangeListener): () => void {
    const subscription = { filter, send };
    this.#subscriptions.add(subscription);
    return () => this.#subscriptions.delete(subscription);
  }

  get listenerCount(): number {
    return this.#subscriptions.size;
  }

  /** Delivers a notification to the listeners whose filter asks for it. */
  emit(method: string, params: JsonObject): void {
    for (const subscription of this.#subscriptions) {
      if (!wants(subscription.filter, method, params)) continue;
      try {
        subscription.send(method, params);
      } catch (error) {
        // One broken listener must not stop the others.
        console.error("edge-mcp: a change listener failed", error);
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
