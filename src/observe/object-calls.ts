/**
 * The inner calls of a request that runs in another object (a 2025 session's code-mode program,
 * run in the session object): each gets a span under the hop that brought the request there
 * (the admission's trace context) and a usage record of its own, as inner calls of a stateless
 * request do. Nothing waits for them: a span batch sends itself, usage records are written as
 * each call ends.
 */

import { SpanKind } from "@opentelemetry/api";
import type { Admission, TraceCarrier } from "../core/admission.ts";
import { telemetryText } from "../core/telemetry-text.ts";
import type { ObservedCall } from "../http/observer.ts";
import type { SpanBatch } from "./otlp/otlp-batch.ts";
import { carrierOf, endInner } from "./span-parts.ts";
import { innerRecord, writeUsage } from "./usage/usage-record.ts";
import { RecordingTracer } from "./recording-tracer.ts";
import type { SpanSource } from "./span-source.ts";
import { callerId, type UsageRecord, type UsageSink } from "./usage/usage-record.ts";

/** Starts a span of an object's own work under a hop's trace context (the shape src/workers/observe/object-spans.ts registers). */
export type StartObjectSpan = (
  name: string,
  parent: TraceCarrier,
  attributes: Record<string, string | number | boolean>,
) => { end(attributes?: Record<string, string | number | boolean>): void } | undefined;

/** Where the spans of an object's inner calls go: a registered tracer, or edge-mcp's OTLP batch. */
export type CallSpans = { readonly source: SpanSource } | { readonly batch: SpanBatch } | undefined;

/** Observes each tool called inside a request that runs in this object (`era`: its protocol era). */
export function objectInnerCalls(spans: CallSpans, usage: readonly UsageSink[], admission: Admission, era: string): (tool: string) => ObservedCall {
  return (name) => {
    // A program's tool name is client-chosen: bounded for the span and the usage record.
    const tool = telemetryText(name);
    const started = Date.now();
    const recorder = spans && "batch" in spans ? new RecordingTracer() : undefined;
    const source = recorder ?? (spans && "source" in spans ? spans.source : undefined);
    const span = source?.start(
      `execute_tool ${tool}`,
      { kind: SpanKind.INTERNAL, attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": tool, "edge_mcp.via": "code_mode" } },
      undefined,
      admission.trace,
    );
    let done = false;
    return {
      ...(span?.isRecording() ? { trace: carrierOf(span, admission.trace) } : {}),
      end(admitted, failure, toolError) {
        if (done) return;
        done = true;
        const ended = Date.now();
        if (span) endInner(span, admitted, failure, toolError);
        if (recorder && spans && "batch" in spans) void spans.batch.add(recorder.spans);
        if (!admitted || usage.length === 0) return;
        void callerId(admission.caller).then((caller) => {
          const request: UsageRecord = {
            tenant: admission.tenant,
            caller,
            method: "tools/call",
            tool,
            outcome: "ok",
            errorCode: 0,
            durationMs: 0,
            bytesIn: 0,
            bytesOut: 0,
            era,
            session: true,
            at: started,
          };
          return writeUsage(usage, [innerRecord(request, { tool, started, ended, failure, toolError })]);
        });
      },
    };
  };
}

/**
 * Starts the span of an object's own work (the notification hub's fan-out) under the hop that
 * reached it. Internal, not a server span: a trace keeps one server span per request.
 */
export function objectSpanStarter(spans: NonNullable<CallSpans>): StartObjectSpan {
  return (name, parent, attributes) => {
    const recorder = "batch" in spans ? new RecordingTracer() : undefined;
    const span = (recorder ?? (spans as { source: SpanSource }).source).start(
      name,
      { kind: SpanKind.INTERNAL, attributes: { ...attributes } },
      undefined,
      parent,
    );
    return {
      end(more) {
        if (more) span.setAttributes(more);
        span.end();
        if (recorder && "batch" in spans) void spans.batch.add(recorder.spans);
      },
    };
  };
}
