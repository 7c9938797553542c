/** The POST route of the MCP endpoint: admit, then answer here (stateless) or forward to the session. */

import { invalidRequest, type ProtocolError } from "../core/errors.ts";
import { own } from "../core/json.ts";
import type { InboundRequest } from "../core/jsonrpc.ts";
import type { Admission } from "../core/admission.ts";
import type { ModernRequestInfo } from "../core/era.ts";
import type { JsonObject } from "../core/types.ts";
import { relayedChangeFeed } from "../server/notifications/change-relay.ts";
import { admitPost, newTrace, type AdmittedPost } from "./admission/admit.ts";
import { agreedTaskIds } from "./listen/agreed-task-ids.ts";
import { writeAccessLog } from "./access-log.ts";
import { logMessage } from "./debug-log.ts";
import type { Endpoint } from "./endpoint.ts";
import { Exchange } from "./exchange.ts";
import { listen } from "./listen/listen.ts";
import type { RequestObservation } from "./observer.ts";
import type { WaitUntil } from "../core/names.ts";
import { takeStreamPlace } from "./listen/stream-places.ts";
import { errorMessage, errorResponse, toProtocolError } from "./responses.ts";

/**
 * Answers one POST to the MCP endpoint. Never throws nor rejects: every failure is a JSON-RPC error
 * response. A call whose handler answers at once waits for nothing but its body. `headers`: the
 * request's, read once by the caller.
 */
export function handlePost(request: Request, endpoint: Endpoint, waitUntil?: WaitUntil, headers: Headers = request.headers): Promise<Response> {
  const trace = newTrace();
  const observation = endpoint.observer?.begin(request, trace, endpoint.tenant, endpoint.authorizer !== undefined || endpoint.rateLimiter !== undefined);
  const finish = (response: Response, failure: ProtocolError | undefined): Response => {
    try {
      observation?.end(response.status, failure, waitUntil);
      if (endpoint.accessLog) writeAccessLog(endpoint.tenant, trace, response.status);
      return response;
    } catch (error) {
      return errorResponse(error);
    }
  };
  const failed = (error: unknown): Response => {
    const failure = toProtocolError(error);
    if (endpoint.debug) logMessage("out", errorMessage(failure, trace.requestId));
    return finish(errorResponse(failure, trace.requestId), failure);
  };
  const answered = (response: Response): Response => finish(response, undefined);
  const routed = (admitted: AdmittedPost): Response | Promise<Response> => {
    try {
      if (observation) admitted.admission = observation.admitted(admitted);
      const response = route(request, observation ? observation.routed(endpoint) : endpoint, admitted, waitUntil, observation);
      return response instanceof Promise ? response.then(answered, failed) : answered(response);
    } catch (error) {
      return failed(error);
    }
  };
  return admitPost(request, endpoint, trace, headers).then(routed, failed);
}

function route(
  request: Request,
  endpoint: Endpoint,
  admitted: AdmittedPost,
  waitUntil: WaitUntil | undefined,
  observation: RequestObservation | undefined,
): Response | Promise<Response> {
  const { admission, message, info } = admitted;
  // 2025-era traffic with sessions on: the routes that came with the session gateway.
  if (endpoint.sessionRoutes && info?.era !== "modern") return endpoint.sessionRoutes.post(request, endpoint, admitted);
  if (message.kind === "response" || info === undefined) {
    throw invalidRequest(`This server sent no request awaiting a response (no session): JSON-RPC responses are not accepted here`);
  }
  if (message.kind === "notification") return new Response(null, { status: 202 });
  if (info.era === "modern" && message.method === "subscriptions/listen") return listenStream(request, endpoint, message, info, admission, waitUntil);
  const exchange = new Exchange(request, endpoint, {
    era: info.era,
    protocolVersion: info.protocolVersion,
    clientCapabilities: info.era === "modern" ? info.clientCapabilities : {},
    // Legacy stateless requests cannot carry a level set earlier; info and above are sent.
    minLogRank: info.era === "modern" ? info.minLogRank : 1,
    progressToken: progressTokenOf(message),
    admission,
    tool: admitted.tool,
    changes: endpoint.relay ? relayedChangeFeed(endpoint.relay, waitUntil) : undefined,
    observeCall: observation && ((tool) => observation.innerCall(tool)),
  });
  const response = exchange.respond(message.id, (ctx) => endpoint.server.dispatch(message, ctx));
  observation?.handling(exchange);
  return response;
}

/** A 2026-07-28 `subscriptions/listen`: the stream of changes, holding a place in the caller's streams quota while open. */
async function listenStream(
  request: Request,
  endpoint: Endpoint,
  message: InboundRequest,
  info: ModernRequestInfo,
  admission: Admission,
  waitUntil: WaitUntil | undefined,
): Promise<Response> {
  const agreed = await agreedTaskIds(message, info, admission, endpoint);
  const place = await takeStreamPlace(endpoint, admission, message.id, waitUntil);
  try {
    return listen(agreed, endpoint.relay ?? endpoint.server.changes, {
      ...endpoint.listen,
      debug: endpoint.debug,
      signal: request.signal,
      onClose: () => place.release(),
    });
  } catch (error) {
    place.release();
    throw error;
  }
}

function progressTokenOf(message: InboundRequest): string | number | undefined {
  const meta = message.params ? own(message.params, "_meta") : undefined;
  if (typeof meta !== "object" || meta === null) return undefined;
  const token = own(meta as JsonObject, "progressToken");
  return typeof token === "string" || typeof token === "number" ? token : undefined;
}
