/** Change notifications across isolates: a relay (a Durable Object hub on Workers) that every listener reads. */

import type { JsonObject } from "../core/types.ts";
import type { ChangeFeed, ChangeListener, SubscriptionFilter } from "./change-hub.ts";

/** Carries one tenant's change notifications between isolates. */
export interface ChangeRelay {
  /** Sends a notification to every listener of the tenant, on every isolate. */
  publish(method: string, params: JsonObject): Promise<void>;
  /** Receives the tenant's notifications that match the filter; returns the function that stops it. */
  subscribe(filter: SubscriptionFilter, send: ChangeListener): () => void;
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
    default:
      return false;
  }
}

/**
 * The change feed of one request when a relay exists: each announcement is published through
 * the relay, kept alive past the response with `waitUntil` when the platform offers it.
 */
export function relayedChangeFeed(relay: ChangeRelay, waitUntil: ((promise: Promise<unknown>) => void) | undefined): ChangeFeed {
  const publish = (method: string, params: JsonObject): void => {
    const sent = relay.publish(method, params).catch((error: unknown) => {
      console.error("edge-mcp: a change notification could not be relayed:", error instanceof Error ? error.message : error);
    });
    waitUntil?.(sent);
  };
  return {
    toolsListChanged: () => publish("notifications/tools/list_changed", {}),
    promptsListChanged: () => publish("notifications/prompts/list_changed", {}),
    resourcesListChanged: () => publish("notifications/resources/list_changed", {}),
    resourceUpdated: (uri) => publish("notifications/resources/updated", { uri }),
  };
}
