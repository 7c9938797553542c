/**
 * The request observer: one span per MCP message after the OpenTelemetry semantic conventions for
 * MCP (parented by the client's trace context), child spans for admission and the tool handler,
 * and one usage record per admitted request (observation.ts). Everything is finished after the answer.
 * What can be decided once per isolate is: the exporter, the sinks, the tracer; per request only
 * whether an OpenTelemetry provider has been registered since (one property read when none is);
 * with nothing to record, no observation at all: the request takes the plain path.
 */

import { ProxyTracerProvider, trace } from "@opentelemetry/api";
import type { RequestObserver } from "../http/observer.ts";
import { SpanBatch } from "./otlp/otlp-batch.ts";
import type { OtlpSettings } from "./otlp/otlp-export.ts";
import { objectInnerCalls, objectSpanStarter, type StartObjectSpan } from "./object-calls.ts";
import { Observation, type SpanTarget } from "./observation.ts";
import { RecordingTracer } from "./recording-tracer.ts";
import { tracerSource } from "./span-source.ts";
import type { UsageSink } from "./usage/usage-record.ts";

export interface ObserverOptions {
  /** Export spans over OTLP/HTTP JSON (edge-mcp's own tracer); otherwise the registered OpenTelemetry provider, if any. */
  readonly otlp?: OtlpSettings | undefined;
  /** Where each admitted request's usage record goes. */
  readonly usage?: readonly UsageSink[];
}

const TRACER_NAME = "edge-mcp";

/** The observer of an endpoint, and the span starter of the objects' own work (see src/workers/observe/object-spans.ts). */
export interface Observer extends RequestObserver {
  /** Starts an object's span under a hop's trace context; undefined when nothing records spans now. */
  readonly objectSpan: StartObjectSpan;
}

/** Builds the observer of an endpoint (once per isolate). */
export function createObserver(options: ObserverOptions): Observer {
  const usage = options.usage ?? [];
  const batch = options.otlp && new SpanBatch(options.otlp);
  const sampleRatio = options.otlp?.sampleRatio;
  // A proxy of the global provider's tracer: it finds a provider registered after this point too.
  const global = tracerSource(trace.getTracer(TRACER_NAME));
  const viaProvider: SpanTarget = { source: global };
  return {
    begin(request, trace_, tenant, costlyAdmission) {
      if (batch) {
        const tracer = new RecordingTracer();
        return new Observation(request, trace_, tenant, { source: tracer, recorder: { tracer, batch }, sampleRatio }, usage, costlyAdmission);
      }
      const source = providerRegistered() ? global : undefined;
      // Nothing records spans or usage (no exporter, no usage sink, no provider registered yet):
      // the request takes the path of a Worker without observability().
      if (!source && usage.length === 0) return undefined;
      return new Observation(request, trace_, tenant, source ? viaProvider : USAGE_ONLY, usage, costlyAdmission);
    },
    objectSpan(name, parent, attributes) {
      const spans = batch ? { batch } : providerRegistered() ? { source: global } : undefined;
      return spans && objectSpanStarter(spans)(name, parent, attributes);
    },
    innerCallsOf(admission, era) {
      const spans = batch ? { batch } : providerRegistered() ? { source: global } : undefined;
      return spans || usage.length > 0 ? objectInnerCalls(spans, usage, admission, era) : undefined;
    },
  };
}

/** Metering alone: no span source. */
const USAGE_ONLY: SpanTarget = { source: undefined };

/** Where every copy of the API (major version 1) registers its globals. */
const API_GLOBAL = Symbol.for("opentelemetry.js.api.1");
/** The API's no-op provider: what the global provider delegates to until one is registered. */
const NO_PROVIDER = new ProxyTracerProvider().getDelegate();

/** Whether an OpenTelemetry provider is registered (a different copy of the API counts as one). */
function providerRegistered(): boolean {
  // Nothing registered a tracer provider in this isolate: one property read (the hot path).
  if ((globalThis as unknown as Record<symbol, { trace?: unknown } | undefined>)[API_GLOBAL]?.trace === undefined) return false;
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== NO_PROVIDER;
}
