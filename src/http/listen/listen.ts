/** 2026-07-28 `subscriptions/listen`: a long-lived SSE response carrying change notifications. */

import { own } from "../../core/json.ts";
import type { InboundRequest } from "../../core/jsonrpc.ts";
import type { ChangeSource } from "../../server/notifications/change-hub.ts";
import { crossRequestWakeSupported } from "../../server/notifications/doorbell.ts";
import { parseSubscriptionFilter } from "../../server/notifications/subscription-filter.ts";
import { DEFAULT_HEARTBEAT_MS, DEFAULT_MAX_QUEUED_BYTES, ListenStream } from "./listen-stream.ts";

/** Only where the runtime cannot wake a stream from another request: how often such a stream polls its queue. */
const FALLBACK_POLL_MS = 50;

/** Settings of `subscriptions/listen` streams (app options, tenant config `notifications`). */
export interface ListenSettings {
  /**
   * The slow-listener limit: bytes queued for a client that reads more slowly than notifications
   * arrive, past which its stream is ended gracefully (default 64 KiB).
   */
  maxQueuedBytes?: number;
  /**
   * An SSE comment after this long without a write (default 15 s). It keeps idle streams open
   * through proxies, and bounds how long a stream whose client closed its connection quietly
   * (a TCP FIN) is held: workerd notices such a client only when it next writes to it. Shorter
   * releases sooner and costs more idle CPU (a heartbeat is about 60 to 85 µs, measured locally).
   */
  heartbeatMs?: number;
}

export interface ListenOptions extends ListenSettings {
  debug: boolean;
  /** The listen request's signal: the stream and its subscription are released when it aborts. */
  signal?: AbortSignal | undefined;
  /** Called once when the stream has let go of everything (its quota place is freed then). */
  onClose?: () => void;
}

let open = 0;

/** Listen streams open in this isolate (a diagnostic: the notifications bench checks that closed ones are released). */
export function openListenStreams(): number {
  return open;
}

/**
 * Opens the listen stream: the acknowledgement first (with the honoured filter) once the source
 * is live, then every matching notification, each tagged with the subscription id (= the request
 * id). The client ends the subscription by closing the stream; the server ends it gracefully
 * (the listen result) when its source ends or the client reads too slowly (2026-07-28 subscriptions).
 */
export function listen(message: InboundRequest, source: ChangeSource, options: ListenOptions): Response {
  const filter = parseSubscriptionFilter(message.params ? own(message.params, "notifications") : undefined);
  open++;
  const stream = new ListenStream({
    id: message.id,
    filter,
    debug: options.debug,
    signal: options.signal,
    maxQueuedBytes: options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES,
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    pollMs: crossRequestWakeSupported() ? undefined : FALLBACK_POLL_MS,
    onDispose: () => {
      open--;
      options.onClose?.();
    },
  });
  stream.attach(source.subscribe(filter, stream));
  return stream.response;
}
