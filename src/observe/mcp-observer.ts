/**
 * The request observer: one span per MCP message after the OpenTelemetry semantic conventions for
 * MCP (parented by the client's trace context), child spans for admission and the tool handler,
 * and one usage record per admitted request. Everything is finished after the answer (waitUntil).
 */

import {
  ProxyTracerProvider,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  createTraceState,
  trace,
  type Attributes,
  type Context,
  type Span,
  type SpanOptions,
} from "@opentelemetry/api";
import type { Admission, TraceCarrier } from "../core/admission.ts";
import type { ProtocolError } from "../core/errors.ts";
import type { AdmissionTrace, AdmittedPost } from "../http/admitted.ts";
import type { ObservedExchange, RequestObservation, RequestObserver } from "../http/observer.ts";
import type { WaitUntil } from "../core/names.ts";
import { exportSpans, type OtlpSettings } from "./otlp-export.ts";
import { RecordingTracer } from "./recording-tracer.ts";
import { formatTraceparent, parseTraceparent, readTraceCarrier } from "./trace-context.ts";
import { callerId, type UsageRecord, type UsageSink } from "./usage-record.ts";

/** What starts spans: an OpenTelemetry `Tracer`, or edge-mcp's recording tracer. */
interface SpanSource {
  startSpan(name: string, options?: SpanOptions, context?: Context): Span;
}

export interface ObserverOptions {
  /** Export spans over OTLP/HTTP JSON (edge-mcp's own tracer); otherwise the registered OpenTelemetry provider, if any. */
  readonly otlp?: OtlpSettings | undefined;
  /** Where each admitted request's usage record goes. */
  readonly usage?: readonly UsageSink[];
}

const TRACER_NAME = "edge-mcp";

/** Builds the observer of an endpoint (once per isolate). */
export function createObserver(options: ObserverOptions): RequestObserver {
  const usage = options.usage ?? [];
  const otlp = options.otlp;
  // A proxy of the global provider's tracer: it finds a provider registered after this point too.
  const global = trace.getTracer(TRACER_NAME);
  const watching = otlp !== undefined || usage.length > 0;
  return {
    begin(request, trace_, tenant) {
      // Nothing records spans or usage: only the client's trace context is passed on (to tool
      // services, session and task objects), without building spans that nobody reads.
      if (!watching && !tracerRegistered()) return new CarrierOnly(request, trace_);
      return new Observation(request, trace_, tenant, otlp ? new RecordingTracer() : global, otlp, usage);
    },
  };
}

/**
 * Whether an OpenTelemetry tracer provider is registered now (it may be registered after the
 * observer is built). Without one, the API's own proxy answers with no delegate.
 */
function tracerRegistered(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegateTracer(TRACER_NAME) !== undefined;
}

/** A request nobody records: its admission carries the client's trace context on, nothing more. */
class CarrierOnly implements RequestObservation {
  readonly #request: Request;
  readonly #trace: AdmissionTrace;

  constructor(request: Request, trace_: AdmissionTrace) {
    this.#request = request;
    this.#trace = trace_;
  }

  admitted(admitted: AdmittedPost): Admission {
    const carrier = readTraceCarrier(this.#trace.params, this.#request.headers);
    return carrier ? { ...admitted.admission, trace: carrier } : admitted.admission;
  }

  handling(): void {}

  end(): void {}
}

/** The context of the client's trace, when it sent a valid one. */
function remoteContext(carrier: TraceCarrier | undefined): Context {
  const parent = carrier ? parseTraceparent(carrier.traceparent) : undefined;
  if (!carrier || !parent) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: parent.traceId,
    spanId: parent.spanId,
    traceFlags: parent.sampled ? 1 : 0,
    isRemote: true,
    ...(carrier.tracestate === undefined ? {} : { traceState: createTraceState(carrier.tracestate) }),
  });
}

class Observation implements RequestObservation {
  readonly #request: Request;
  readonly #trace: AdmissionTrace;
  readonly #tenant: string;
  readonly #tracer: SpanSource;
  readonly #otlp: OtlpSettings | undefined;
  readonly #usage: readonly UsageSink[];
  #carrier: TraceCarrier | undefined;
  #root: Span | undefined;
  #handler: Span | undefined;
  #admitted: AdmittedPost | undefined;
  #exchange: ObservedExchange | undefined;

  constructor(request: Request, trace_: AdmissionTrace, tenant: string, tracer: SpanSource, otlp: OtlpSettings | undefined, usage: readonly UsageSink[]) {
    this.#request = request;
    this.#trace = trace_;
    this.#tenant = tenant;
    this.#tracer = tracer;
    this.#otlp = otlp;
    this.#usage = usage;
  }

  admitted(admitted: AdmittedPost): Admission {
    this.#admitted = admitted;
    const now = Date.now();
    const root = this.#startRoot(now, "admitted");
    const { method, target } = this.#trace;
    if (method === "tools/call" && admitted.tool) {
      this.#handler = this.#tracer.startSpan(
        `execute_tool ${target ?? ""}`.trim(),
        {
          kind: SpanKind.INTERNAL,
          startTime: now,
          attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": target ?? "" },
        },
        trace.setSpan(ROOT_CONTEXT, root),
      );
    }
    const carrier = this.#carrier;
    if (!root.isRecording()) return carrier ? { ...admitted.admission, trace: carrier } : admitted.admission;
    // Services, session and task objects join the trace under the span the call runs in.
    const running = (this.#handler ?? root).spanContext();
    return {
      ...admitted.admission,
      trace: {
        traceparent: formatTraceparent(running.traceId, running.spanId, (running.traceFlags & 1) === 1),
        ...(carrier?.tracestate === undefined ? {} : { tracestate: carrier.tracestate }),
        ...(carrier?.baggage === undefined ? {} : { baggage: carrier.baggage }),
      },
    };
  }

  handling(exchange: ObservedExchange): void {
    this.#exchange = exchange;
  }

  end(status: number, error: ProtocolError | undefined, waitUntil: WaitUntil | undefined): void {
    const answered = Date.now();
    const root = this.#root ?? this.#startRoot(answered, "refused", error);
    const done = this.#finish(root, answered, status, error);
    if (waitUntil) waitUntil(done);
    else void done;
  }

  /** The request's span and its finished admission span; the parent is the client's context. */
  #startRoot(admissionEnd: number, outcome: "admitted" | "refused", error?: ProtocolError): Span {
    const { method, target, started } = this.#trace;
    this.#carrier = readTraceCarrier(this.#trace.params, this.#request.headers);
    const name = method === undefined ? `POST ${new URL(this.#request.url).pathname}` : target === undefined ? method : `${method} ${target}`;
    const attributes: Attributes = { "edge_mcp.admission": outcome };
    if (method !== undefined) attributes["mcp.method.name"] = method;
    const root = this.#tracer.startSpan(name, { kind: SpanKind.SERVER, startTime: started, attributes }, remoteContext(this.#carrier));
    this.#root = root;
    if (root.isRecording()) {
      this.#trace.traceId = root.spanContext().traceId;
      const admission = this.#tracer.startSpan(
        "edge_mcp.admission",
        { startTime: started, attributes: { "edge_mcp.admission": outcome } },
        trace.setSpan(ROOT_CONTEXT, root),
      );
      if (error) setError(admission, error);
      admission.end(admissionEnd);
    }
    return root;
  }

  async #finish(root: Span, answered: number, status: number, refusal: ProtocolError | undefined): Promise<void> {
    const exchange = this.#exchange;
    const failure = exchange ? await exchange.settled : refusal;
    const ended = Math.max(answered, Date.now());
    const toolError = exchange?.toolError === true;
    const recording = root.isRecording();
    const admission = this.#admitted?.admission;
    if (!recording && (admission === undefined || this.#usage.length === 0)) return;
    const caller = admission ? await callerId(admission.caller) : undefined;
    const trace_ = this.#trace;
    const era = this.#admitted?.info?.era;
    const sessionHeader = this.#request.headers.get("mcp-session-id");
    const session = this.#admitted?.newSession !== undefined || sessionHeader !== null;
    if (recording) {
      const attributes: Attributes = { "edge_mcp.tenant": this.#tenant, "http.response.status_code": status };
      if (trace_.revision !== undefined) attributes["mcp.protocol.version"] = trace_.revision;
      if (trace_.requestId !== undefined) attributes["jsonrpc.request.id"] = String(trace_.requestId);
      if (trace_.method === "tools/call" && trace_.target !== undefined) attributes["gen_ai.tool.name"] = trace_.target;
      if (caller !== undefined) attributes["edge_mcp.caller"] = caller;
      if (era !== undefined) attributes["edge_mcp.era"] = era;
      // The session id is a credential: spans carry a digest of it, never the id.
      if (session) attributes["mcp.session.id"] = await callerId(`session\n${this.#admitted?.newSession ?? sessionHeader ?? ""}`);
      root.setAttributes(attributes);
      if (this.#handler) {
        if (failure) setError(this.#handler, failure);
        else if (toolError) setToolError(this.#handler);
        this.#handler.end(ended);
      }
      if (failure) setError(root, failure);
      else if (toolError) setToolError(root);
      else if (status >= 400) root.setStatus({ code: SpanStatusCode.ERROR });
      root.end(ended);
      if (this.#otlp && this.#tracer instanceof RecordingTracer) await exportSpans(this.#otlp, this.#tracer.spans);
    }
    if (admission && caller !== undefined && this.#usage.length > 0) {
      const record: UsageRecord = {
        tenant: admission.tenant,
        caller,
        method: trace_.method ?? "",
        tool: trace_.method === "tools/call" ? (trace_.target ?? "") : "",
        outcome: failure ? String(failure.code) : toolError ? TOOL_ERROR : "ok",
        errorCode: failure ? failure.code : 0,
        durationMs: ended - trace_.started,
        bytesIn: this.#admitted?.text.length ?? 0,
        bytesOut: exchange?.bytesOut ?? 0,
        era: era ?? "",
        session,
        at: trace_.started,
      };
      await Promise.all(this.#usage.map(async (sink) => sink.write([record]))).catch((error: unknown) => {
        console.warn(`edge-mcp: usage record not written: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
  }
}

/** `error.type` of a tool result with `isError: true` (semantic conventions for MCP). */
const TOOL_ERROR = "tool_error";

function setToolError(span: Span): void {
  span.setAttribute("error.type", TOOL_ERROR);
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/** Marks a span failed with the JSON-RPC error (semantic conventions: error.type is the code as text). */
function setError(span: Span, error: ProtocolError): void {
  span.setAttributes({ "error.type": String(error.code), "rpc.jsonrpc.error_code": error.code });
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
}
