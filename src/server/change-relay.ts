/** Change notifications across isolates: a relay (a Durable Object hub on Workers) that every listener reads. */

import type { JsonObject } from "../core/types.ts";
import type { ChangeFeed, ChangeListener, SubscriptionFilter } from "./change-hub.ts";

// The filter rule lives with the filter (change-hub.ts); re-exported for the relays that apply it.
export { wants } from "./change-hub.ts";

/** Carries one tenant's change notifications between isolates. */
export interface ChangeRelay {
  /** Sends a notification to every listener of the tenant, on every isolate. */
  publish(method: string, params: JsonObject): Promise<void>;
  /** Receives the tenant's notifications that match the filter; returns the function that stops it. */
  subscribe(filter: SubscriptionFilter, send: ChangeListener): () => void;
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
