/** What one request's exchange is made from (its init) and where it writes an SSE answer. */

import type { Admission } from "../core/admission.ts";
import type { RequestId } from "../core/jsonrpc.ts";
import type { JsonObject } from "../core/types.ts";
import type { ChangeFeed } from "../server/notifications/change-hub.ts";
import type { CompiledTool } from "../server/tools/compile-tool.ts";
import type { Era } from "../server/context/handler-context.ts";
import type { InputChannel } from "../server/inputs/input.ts";
import type { ObservedCall } from "../server/context/transport.ts";

/** Where an exchange writes its SSE answer: a plain stream, or a resumable session stream. */
export interface ResponseStream {
  readonly response: Response;
  /** Writes one JSON-RPC message. */
  send(json: string): void;
  /** Ends the stream once everything written has been delivered. */
  close(): void;
  /** Ends the connection but not the stream (resumable streams only): the client reconnects. */
  disconnect?(): void;
}

/** What is particular to one request; everything shared comes from the {@link Endpoint}. */
export interface ExchangeInit {
  era: Era;
  protocolVersion: string;
  clientCapabilities: JsonObject;
  minLogRank: number | undefined;
  progressToken: RequestId | undefined;
  admission: Admission;
  /** The tool of a `tools/call`, resolved by admission. */
  tool?: CompiledTool | undefined;
  changes?: ChangeFeed | undefined;
  /** A channel for server→client requests (a legacy session); MRTR or a clear error otherwise. */
  inputs?: InputChannel | undefined;
  sessionful?: boolean;
  /** The id of the legacy session the request runs in (set by the session engine only). */
  sessionId?: string | undefined;
  /** Whether the client going away cancels the handler (default true; not in 2025 sessions). */
  cancelOnDisconnect?: boolean;
  /** Opens the SSE answer; `onCancel` runs when the client goes away. A plain SseStream by default. */
  openStream?: (onCancel: () => void) => ResponseStream;
  /** Traces and meters the tools called inside the request, when it is observed (see TransportContext). */
  observeCall?: ((tool: string) => ObservedCall) | undefined;
}
