/** What admission learns about a request (its trace, for logs and observers) and what it hands on (the admitted POST). */

import type { Admission } from "../../core/admission.ts";
import type { RequestInfo } from "../../core/era.ts";
import type { InboundMessage, RequestId } from "../../core/jsonrpc.ts";
import type { Principal } from "../../core/principal.ts";
import type { CompiledTool } from "../../server/tools/compile-tool.ts";
import type { SessionOpening } from "../sessions/session-gateway.ts";

/** What admission learnt about a request so far: the access log line, and the id errors echo. */
export interface AdmissionTrace {
  started: number;
  requestId: RequestId | undefined;
  revision: string | undefined;
  method: string | undefined;
  target: string | undefined;
  principal: Principal | undefined;
  /** The message's params once read (observers find its `_meta` trace context there). */
  params: unknown;
  /** The trace id of the request's span, when it is traced (the access log carries it). */
  traceId: string | undefined;
}

export function newTrace(): AdmissionTrace {
  return {
    started: Date.now(),
    requestId: undefined,
    revision: undefined,
    method: undefined,
    target: undefined,
    principal: undefined,
    params: undefined,
    traceId: undefined,
  };
}

/** An admitted POST: who asks, the message, its era, and the tool it calls (resolved once). */
export interface AdmittedPost {
  admission: Admission;
  /** The body as received (forwarded as it is to a session). */
  text: string;
  message: InboundMessage;
  /** Era and version; undefined for a JSON-RPC response (which only a session can take). */
  info: RequestInfo | undefined;
  tool: CompiledTool | undefined;
  /** For an `initialize` that opens a session: its new id, whose quota place is already taken. */
  newSession: string | undefined;
  /** For that `initialize`: the new id's digest and its quota lease, handed to the session. */
  opening: SessionOpening | undefined;
}
