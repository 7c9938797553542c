/** What the transport knows about one request, and the handler context built from it. */

import type { RequestId } from "../core/jsonrpc.ts";
import { loggingLevelRank, type JsonObject, type LoggingLevel } from "../core/types.ts";
import type { ChangeFeed } from "./change-hub.ts";
import type { Era, HandlerContext } from "./handler-context.ts";
import type { CreateMessageResult, ElicitResult, InputChannel, InputRequest, ListRootsResult } from "./input.ts";
import type { StateSealer } from "./request-state.ts";

/** What the transport layer knows about one request. */
export interface TransportContext {
  era: Era;
  protocolVersion: string;
  clientCapabilities: JsonObject;
  /** Rank of the least severe level the client wants; undefined = send no log messages. */
  minLogRank: number | undefined;
  progressToken: RequestId | undefined;
  signal: AbortSignal;
  /** Sends a notification related to this request (on its SSE stream), or drops it. */
  notify(method: string, params: JsonObject): void;
  /** Signs and checks MRTR `requestState`. */
  sealer: StateSealer;
  /** Who is asking (tenant and principal, once those exist): binds `requestState` to them. */
  scope: string;
  /** A channel for server→client requests, when the transport has one (a legacy session). */
  inputs?: InputChannel;
}

/** The transport's context plus what the server adds: the change feed and the input channel in use. */
export interface RequestContext extends TransportContext {
  changes: ChangeFeed;
  inputs: InputChannel;
}

/** Builds a handler's context: progress, log and input obey the revision's rules here, once. */
export function createHandlerContext(request: RequestContext): HandlerContext {
  let lastProgress = -Infinity;
  const counters = new Map<string, number>();
  const ask = async <T>(prefix: string, input: InputRequest, key: string | undefined): Promise<T> => {
    let name = key;
    if (name === undefined) {
      const n = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, n);
      name = `${prefix}_${n}`;
    }
    const answers = await request.inputs.request({ [name]: input });
    return answers[name] as T;
  };
  return {
    signal: request.signal,
    protocolVersion: request.protocolVersion,
    era: request.era,
    clientCapabilities: request.clientCapabilities,
    changes: request.changes,
    progress(progress, total, message) {
      const token = request.progressToken;
      // Progress MUST increase (2025-11-25 progress); an equal or lower value is not sent.
      if (token === undefined || request.signal.aborted || !(progress > lastProgress)) return;
      lastProgress = progress;
      const params: JsonObject = { progressToken: token, progress };
      if (total !== undefined) params["total"] = total;
      if (message !== undefined) params["message"] = message;
      request.notify("notifications/progress", params);
    },
    log(level: LoggingLevel, data: unknown, logger?: string) {
      const rank = loggingLevelRank(level);
      if (request.minLogRank === undefined || rank === undefined || rank < request.minLogRank || request.signal.aborted) return;
      const params: JsonObject = { level, data };
      if (logger !== undefined) params["logger"] = logger;
      request.notify("notifications/message", params);
    },
    elicit: (params, options) => ask<ElicitResult>("elicit", { method: "elicitation/create", params }, options?.key),
    sample: (params, options) => ask<CreateMessageResult>("sample", { method: "sampling/createMessage", params }, options?.key),
    listRoots: (options) => ask<ListRootsResult>("roots", { method: "roots/list", params: {} }, options?.key),
    input: (requests) => request.inputs.request(requests),
  };
}
