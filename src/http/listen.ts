/** 2026-07-28 `subscriptions/listen`: a long-lived SSE response carrying list-change notifications. */

import { own } from "../core/json.ts";
import type { InboundRequest } from "../core/jsonrpc.ts";
import type { JsonObject } from "../core/types.ts";
import { MetaKey } from "../core/versions.ts";
import { parseSubscriptionFilter } from "../server/change-hub.ts";
import type { ChangeRelay } from "../server/change-relay.ts";
import { logMessage } from "./debug-log.ts";
import { SseStream } from "./sse-stream.ts";

/** A comment every 15 s keeps idle listen streams open through proxies and load balancers. */
const KEEP_ALIVE_MS = 15_000;
/** Notifications raised by other requests are picked up this often (see SseStream). */
const CROSS_REQUEST_POLL_MS = 50;

/**
 * Opens the listen stream: the acknowledgement first (with the honoured filter), then every
 * matching notification, each tagged with the subscription id (= the request id). The client
 * ends the subscription by closing the stream (2026-07-28 subscriptions).
 */
export function listen(message: InboundRequest, source: Pick<ChangeRelay, "subscribe">, debug: boolean): Response {
  const filter = parseSubscriptionFilter(message.params ? own(message.params, "notifications") : undefined);
  const tag = { [MetaKey.subscriptionId]: message.id };
  let cleanup: () => void = () => {};
  const stream = new SseStream(() => cleanup(), { crossRequestPollMs: CROSS_REQUEST_POLL_MS });
  const send = (method: string, params: JsonObject): void => {
    const meta = typeof params["_meta"] === "object" && params["_meta"] !== null ? { ...(params["_meta"] as JsonObject), ...tag } : tag;
    const json = JSON.stringify({ jsonrpc: "2.0", method, params: { ...params, _meta: meta } });
    if (debug) logMessage("out", json);
    stream.send(json);
  };
  send("notifications/subscriptions/acknowledged", { notifications: filter });
  const unsubscribe = source.subscribe(filter, send);
  const timer = setInterval(() => stream.comment("keep-alive"), KEEP_ALIVE_MS);
  cleanup = () => {
    unsubscribe();
    clearInterval(timer);
  };
  return stream.response;
}
