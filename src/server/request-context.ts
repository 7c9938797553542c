/** What the transport knows about one request, and the tool context built from it. */

import type { RequestId } from "../core/jsonrpc.ts";
import { loggingLevelRank, type JsonObject, type LoggingLevel } from "../core/types.ts";
import type { Era, ToolContext } from "./tool-context.ts";

export interface RequestContext {
  era: Era;
  protocolVersion: string;
  clientCapabilities: JsonObject;
  /** Rank of the least severe level the client wants; undefined = send no log messages. */
  minLogRank: number | undefined;
  progressToken: RequestId | undefined;
  signal: AbortSignal;
  /** Sends a notification related to this request (on its SSE stream), or drops it. */
  notify(method: string, params: JsonObject): void;
}

/** Builds the handler's context: progress and log obey the revision's rules here, once. */
export function createToolContext(request: RequestContext): ToolContext {
  let lastProgress = -Infinity;
  return {
    signal: request.signal,
    protocolVersion: request.protocolVersion,
    era: request.era,
    clientCapabilities: request.clientCapabilities,
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
  };
}
