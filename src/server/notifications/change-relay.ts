/** Change notifications across isolates: a relay (a Durable Object hub on Workers) that every listener reads. */

import type { TraceCarrier } from "../../core/admission.ts";
import type { JsonObject } from "../../core/types.ts";
import type { ChangeFeed, ChangeSource } from "./change-hub.ts";

/** The most hub shards a tenant's notifications may be spread over (tenant config, Worker options). */
export const MAX_RELAY_SHARDS = 64;

/** Carries one tenant's change notifications between isolates. */
export interface ChangeRelay extends ChangeSource {
  /** Sends a notification to every listener of the tenant, on every isolate (`trace`: the span the hub's work joins, when traced). */
  publish(method: string, params: JsonObject, trace?: TraceCarrier): Promise<void>;
}

/**
 * The change feed of one request when a relay exists: each announcement is published through
 * the relay, kept alive past the response with `waitUntil` when the platform offers it.
 */
export function relayedChangeFeed(relay: ChangeRelay, waitUntil: ((promise: Promise<unknown>) => void) | undefined): ChangeFeed {
  const publish = (method: string, params: JsonObject): void => {
    const sent = relay.publish(method, params).catch((error: unknown) => {
      // Listeners that reconnect soon are told to refresh what they hold (see SharedSubscription).
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
