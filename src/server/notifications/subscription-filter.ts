/** What a listener asks for: the subscription filter, its parsing and matching, and the table of notification kinds. */

import { invalidParams } from "../../core/errors.ts";
import { isObject, own } from "../../core/json.ts";
import type { JsonObject } from "../../core/types.ts";

/** What a `subscriptions/listen` request may ask for (2026-07-28 `SubscriptionFilter`). */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** `notifications/tasks` for these tasks (tasks extension); the HTTP layer keeps only the caller's own. */
  taskIds?: string[];
}

type FlagField = "toolsListChanged" | "promptsListChanged" | "resourcesListChanged";
type ListField = "resourceSubscriptions" | "taskIds";

/**
 * One kind of change notification. Parsing a filter, matching a notification against it, and
 * coalescing in the hub all read {@link NOTIFICATION_KINDS}; listen streams, session GET streams
 * and the relay never name a kind. To add one (for example `notifications/tasks`, asked for with
 * `taskIds`): add its field to {@link SubscriptionFilter} and one entry to the table.
 */
export type NotificationKind =
  | {
      method: string;
      /** A boolean field: `true` asks for every notification of the kind. */
      field: FlagField;
      /** Notifications of the kind that say the same thing share this key; the hub sends one per window. */
      coalesceKey?: (params: JsonObject) => string | undefined;
    }
  | {
      method: string;
      /** A list of strings: the notification is sent when `matches` finds one that covers it. */
      field: ListField;
      describe: string;
      matches(items: readonly string[], params: JsonObject): boolean;
      coalesceKey?: (params: JsonObject) => string | undefined;
    };

/** Whether a subscription to `subscribed` covers `uri` (the URI itself or a sub-resource of it). */
function covers(subscribed: string, uri: string): boolean {
  return uri === subscribed || uri.startsWith(subscribed.endsWith("/") ? subscribed : `${subscribed}/`);
}

const same = (method: string) => () => method;

/** Every notification kind a listener can ask for. */
export const NOTIFICATION_KINDS: readonly NotificationKind[] = [
  { method: "notifications/tools/list_changed", field: "toolsListChanged", coalesceKey: same("tools") },
  { method: "notifications/prompts/list_changed", field: "promptsListChanged", coalesceKey: same("prompts") },
  { method: "notifications/resources/list_changed", field: "resourcesListChanged", coalesceKey: same("resources") },
  {
    method: "notifications/resources/updated",
    field: "resourceSubscriptions",
    describe: "an array of resource URIs",
    matches: (uris, params) => typeof params["uri"] === "string" && uris.some((s) => covers(s, params["uri"] as string)),
    coalesceKey: (params) => (typeof params["uri"] === "string" ? `updated ${params["uri"]}` : undefined),
  },
  // Each status of a task is news of its own: never coalesced.
  {
    method: "notifications/tasks",
    field: "taskIds",
    describe: "an array of task ids",
    matches: (ids, params) => typeof params["taskId"] === "string" && ids.includes(params["taskId"]),
  },
];

const BY_METHOD: ReadonlyMap<string, NotificationKind> = new Map(NOTIFICATION_KINDS.map((kind) => [kind.method, kind]));

/**
 * Validates a listen filter and returns the part this server honours (unknown kinds are left out,
 * as the acknowledgement must show). Throws -32602 for values of the wrong type.
 */
export function parseSubscriptionFilter(value: unknown): SubscriptionFilter {
  if (!isObject(value)) throw invalidParams(`subscriptions/listen needs params.notifications, an object such as {"toolsListChanged": true}`);
  const honoured: SubscriptionFilter = {};
  for (const kind of NOTIFICATION_KINDS) {
    const given = own(value, kind.field);
    if (given === undefined) continue;
    if (!("matches" in kind)) {
      if (typeof given !== "boolean") throw invalidParams(`params.notifications.${kind.field} must be a boolean`);
      if (given) honoured[kind.field] = true;
      continue;
    }
    if (!Array.isArray(given) || !given.every((item) => typeof item === "string")) {
      throw invalidParams(`params.notifications.${kind.field} must be ${kind.describe}`);
    }
    if (given.length > 0) honoured[kind.field] = [...new Set(given)];
  }
  return honoured;
}

/** Whether a notification is one the filter asked for. */
export function wants(filter: SubscriptionFilter, method: string, params: JsonObject): boolean {
  const kind = BY_METHOD.get(method);
  if (!kind) return false;
  if (!("matches" in kind)) return filter[kind.field] === true;
  const items = filter[kind.field];
  return items !== undefined && kind.matches(items, params);
}

/**
 * The key under which the hub coalesces a notification with others that say the same thing
 * (a list changed; one resource changed), or undefined when each one must be sent.
 */
export function coalesceKey(method: string, params: JsonObject): string | undefined {
  return BY_METHOD.get(method)?.coalesceKey?.(params);
}
