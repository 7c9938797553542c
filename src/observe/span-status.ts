/** The parent of a request's span (the client's trace context) and the statuses spans end with. */

import { ROOT_CONTEXT, SpanStatusCode, createTraceState, trace, type Context, type Span, type SpanContext } from "@opentelemetry/api";
import type { TraceCarrier } from "../core/admission.ts";
import { ErrorCode, ProtocolError } from "../core/errors.ts";
import { telemetryText } from "../core/telemetry-text.ts";
import { parseTraceparent } from "./trace-context.ts";

/** The span context of the client's trace, when it sent a valid one. */
export function remoteSpanContext(carrier: TraceCarrier | undefined): SpanContext | undefined {
  const parent = carrier ? parseTraceparent(carrier.traceparent) : undefined;
  if (!carrier || !parent) return undefined;
  return {
    traceId: parent.traceId,
    spanId: parent.spanId,
    traceFlags: parent.sampled ? 1 : 0,
    isRemote: true,
    ...(carrier.tracestate === undefined ? {} : { traceState: createTraceState(carrier.tracestate) }),
  };
}

/** The context of the client's trace, when it sent a valid one. */
export function remoteContext(carrier: TraceCarrier | undefined): Context {
  const parent = remoteSpanContext(carrier);
  return parent ? trace.setSpanContext(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
}

/** A thrown value as the JSON-RPC error a span records. */
export function toFailure(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  return new ProtocolError(ErrorCode.InternalError, telemetryText(error instanceof Error ? String(error.message) : String(error)));
}

/** `error.type` of a tool result with `isError: true` (semantic conventions for MCP). */
export const TOOL_ERROR = "tool_error";

/** Marks a span failed as a tool error (a result with `isError: true`). */
export function setToolError(span: Span): void {
  span.setAttribute("error.type", TOOL_ERROR);
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/** Marks a span failed with the JSON-RPC error (semantic conventions: error.type is the code as text). */
export function setError(span: Span, error: ProtocolError): void {
  span.setAttributes({ "error.type": String(error.code), "rpc.jsonrpc.error_code": error.code });
  // Messages may quote client input ("Unknown tool: <name>"): the span keeps a bounded copy.
  span.setStatus({ code: SpanStatusCode.ERROR, message: telemetryText(error.message) });
}
