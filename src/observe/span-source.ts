/** Where an observation's spans come from: a registered OpenTelemetry provider's tracer, or edge-mcp's recording tracer. */

import { ROOT_CONTEXT, trace, type Span, type SpanOptions, type Tracer } from "@opentelemetry/api";
import type { TraceCarrier } from "../core/admission.ts";
import { remoteContext } from "./span-status.ts";

/** Starts an observation's spans. */
export interface SpanSource {
  /**
   * Starts a span under `parent` (a span of this source), or, without one, under the client's
   * trace context `remote` (a new trace when it is undefined). `options.attributes` may be kept as they are.
   */
  start(name: string, options: SpanOptions, parent: Span | undefined, remote?: TraceCarrier): Span;
}

/** The spans of an OpenTelemetry tracer (the registered provider's), parented through contexts. */
export function tracerSource(tracer: Tracer): SpanSource {
  return {
    start: (name, options, parent, remote) => tracer.startSpan(name, options, parent ? trace.setSpan(ROOT_CONTEXT, parent) : remoteContext(remote)),
  };
}
