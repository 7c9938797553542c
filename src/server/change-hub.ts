/** List-change and resource-update notifications, fanned out to the listeners of this isolate. */

import { invalidParams } from "../core/errors.ts";
import { isObject, own } from "../core/json.ts";
import type { JsonObject } from "../core/types.ts";

/** What a `subscriptions/listen` request may ask for (2026-07-28 `SubscriptionFilter`). */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** `notifications/tasks` for these tasks (tasks extension); the HTTP layer keeps only the caller's own. */
  taskIds?: string[];
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
  const taskIds = own(value, "taskIds");
  if (taskIds !== undefined) {
    if (!Array.isArray(taskIds) || !taskIds.every((id) => typeof id === "string")) throw invalidParams(`params.notifications.taskIds must be an array of task ids`);
    if (taskIds.length > 0) honoured.taskIds = [...new Set(taskIds as string[])];
  }
  return honoured;
}

function covers(subscribed: string, uri: string): boolean {
  return uri === subscribed || uri.startsWith(subscribed.endsWith("/") ? subscribed : `${subscribed}/`);
}

/** Whether a notification is one the filter asked for. */
export function wants(filter: SubscriptionFilter, method: string, params: JsonObject): boolean {
  switch (method) {
    case "notifications/tools/list_changed":
      return filter.toolsListChanged === true;
    case "notifications/prompts/list_changed":
      return filter.promptsListChanged === true;
    case "notifications/resources/list_changed":
      return filter.resourcesListChanged === true;
    case "notifications/resources/updated":
      return typeof params["uri"] === "string" && filter.resourceSubscriptions?.some((s) => covers(s, params["uri"] as string)) === true;
    case "notifications/tasks":
      return typeof params["taskId"] === "string" && filter.taskIds?.includes(params["taskId"]) === true;
    default:
      return false;
  }
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
