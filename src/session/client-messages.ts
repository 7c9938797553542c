/** What a session does with a client's POSTed response or notification: answers its waiting request, cancels a handler. */

import { invalidParams, invalidRequest } from "../core/errors.ts";
import { own } from "../core/json.ts";
import type { InboundNotification, InboundResponse, RequestId } from "../core/jsonrpc.ts";
import type { Exchange } from "../http/exchange.ts";
import type { PendingRequests } from "./session-inputs.ts";

/**
 * Takes a client's response (to a server→client request of this session) or notification; 202
 * when taken. A response nobody waits for, or one that does not answer its request, is refused.
 * `notifications/cancelled` cancels the handler of the request it names, if it still runs.
 */
export function takeClientMessage(
  message: InboundResponse | InboundNotification,
  pending: PendingRequests,
  inflight: ReadonlyMap<RequestId, Exchange>,
): Response {
  if (message.kind === "response") {
    const settled = pending.settle(message.id, message.result, message.error);
    if (settled.ok === false && settled.malformed !== undefined) {
      throw invalidParams(`The response to ${JSON.stringify(message.id)} does not answer its request: ${settled.malformed}; it counts as no answer`, {
        status: 400,
      });
    }
    if (!settled.ok) throw invalidRequest(`No request with id ${JSON.stringify(message.id)} is waiting for a response in this session`);
    return new Response(null, { status: 202 });
  }
  if (message.method === "notifications/cancelled") {
    const requestId = message.params ? own(message.params, "requestId") : undefined;
    if (typeof requestId === "string" || typeof requestId === "number") {
      const reason = message.params ? own(message.params, "reason") : undefined;
      inflight.get(requestId)?.cancel(new DOMException(typeof reason === "string" ? reason : "cancelled by the client", "AbortError"));
    }
  }
  return new Response(null, { status: 202 });
}
