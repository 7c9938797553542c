/** Small parts shared by an observation and an object's inner calls: a span's trace context to hand on, an inner call's span ended. */

import type { Span } from "@opentelemetry/api";
import type { TraceCarrier } from "../core/admission.ts";
import type { ProtocolError } from "../core/errors.ts";
import { setError, setToolError } from "./span-status.ts";
import { formatTraceparent } from "./trace-context.ts";

/** The trace context that makes a span the parent of what runs elsewhere. */
export function carrierOf(span: Span, client: TraceCarrier | undefined): TraceCarrier {
  const running = span.spanContext();
  const traceparent = formatTraceparent(running.traceId, running.spanId, (running.traceFlags & 1) === 1);
  if (client === undefined) return { traceparent };
  const carrier: { traceparent: string; tracestate?: string; baggage?: string } = { traceparent };
  if (client.tracestate !== undefined) carrier.tracestate = client.tracestate;
  if (client.baggage !== undefined) carrier.baggage = client.baggage;
  return carrier;
}

/** Ends an inner call's span: refused or admitted, failed or a tool error. */
export function endInner(span: Span, admitted: boolean, failure: ProtocolError | undefined, toolError_: boolean): void {
  span.setAttribute("edge_mcp.admission", admitted ? "admitted" : "refused");
  if (failure) setError(span, failure);
  else if (toolError_) setToolError(span);
  span.end();
}
