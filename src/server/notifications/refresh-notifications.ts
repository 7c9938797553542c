/** What a listener is told when it may have missed changes: refresh every list and resource it asked about. */

import type { JsonObject } from "../../core/types.ts";
import type { SubscriptionFilter } from "./subscription-filter.ts";

/**
 * How long after a gap a new listener is told to refresh. Listen streams ended by a hub reset tell
 * their clients to come back within 1 to 5 s; the window leaves room for slower clients.
 */
export const REFRESH_WINDOW_MS = 30_000;

/**
 * The notifications that make a client re-read what the filter covers: a `list_changed` per list
 * it listens to and a `resources/updated` per subscribed URI. Task notifications carry the whole
 * task and cannot be made up: a task's client reads it with `tasks/get`.
 */
export function refreshNotifications(filter: SubscriptionFilter): { method: string; params: JsonObject }[] {
  const notifications: { method: string; params: JsonObject }[] = [];
  if (filter.toolsListChanged) notifications.push({ method: "notifications/tools/list_changed", params: {} });
  if (filter.promptsListChanged) notifications.push({ method: "notifications/prompts/list_changed", params: {} });
  if (filter.resourcesListChanged) notifications.push({ method: "notifications/resources/list_changed", params: {} });
  for (const uri of filter.resourceSubscriptions ?? []) notifications.push({ method: "notifications/resources/updated", params: { uri } });
  return notifications;
}
