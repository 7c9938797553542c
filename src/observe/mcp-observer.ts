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
  trace,
  type Attributes,
  type Context,
  type Span,
  type SpanOptions,
} from "@opentelemetry/api";
import type { Admission, TraceCarrier } from "../core/admission.ts";
import type { ProtocolError } from "../core/errors.ts";
import type { AdmissionTrace, AdmittedPost } from "../http/admitted.ts";
import type { Hops, ObservedCall, ObservedExchange, RequestObservation, RequestObserver } from "../http/observer.ts";
import type { WaitUntil } from "../core/names.ts";
import { SpanBatch } from "./otlp-batch.ts";
import type { OtlpSettings } from "./otlp-export.ts";
import { RecordingTracer } from "./recording-tracer.ts";
import { remoteContext, setError, setToolError, toFailure, TOOL_ERROR } from "./span-status.ts";
import { tracedHops, type Hop } from "./traced-hops.ts";
import { formatTraceparent, readTraceCarrier } from "./trace-context.ts";
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
  const batch = options.otlp && new SpanBatch(options.otlp);
  // A proxy of the global provider's tracer: it finds a provider registered after this point too.
  const global = trace.getTracer(TRACER_NAME);
  return {
    begin(request, trace_, tenant) {
      // Nothing records spans or usage (no exporter, no usage sink, no provider registered yet):
      // only the client's trace context is passed on (to tool services, session and task objects).
      if (!batch && usage.length === 0 && !providerRegistered()) return new CarrierOnly(request, trace_);
      return new Observation(request, trace_, tenant, batch ? new RecordingTracer() : global, batch, usage);
    },
  };
}

/** The API's no-op provider: what the global provider delegates to until one is registered. */
const NO_PROVIDER = new ProxyTracerProvider().getDelegate();

/** Whether an OpenTelemetry provider is registered (a different copy of the API counts as one). */
function providerRegistered(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== NO_PROVIDER;
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
    return this.admittedStream(admitted.admission);
  }

  admittedStream(admission: Admission): Admission {
    const carrier = readTraceCarrier(this.#trace.params, this.#request.headers);
    return carrier ? { ...admission, trace: carrier } : admission;
  }

  routed<E extends Hops>(endpoint: E): E {
    return endpoint;
  }

  innerCall(): ObservedCall {
    return UNRECORDED_CALL;
  }

  handling(): void {}

  end(): void {}
}

const UNRECORDED_CALL: ObservedCall = { end() {} };

class Observation implements RequestObservation {
  readonly #request: Request;
  readonly #trace: AdmissionTrace;
  readonly #tenant: string;
  readonly #tracer: SpanSource;
  readonly #batch: SpanBatch | undefined;
  readonly #usage: readonly UsageSink[];
  #carrier: TraceCarrier | undefined;
  #root: Span | undefined;
  #handler: Span | undefined;
  #admitted: AdmittedPost | undefined;
  #admission: Admission | undefined;
  /** Hops still running (session, task, hub): an OTLP export waits for their spans. */
  readonly #hops: Promise<void>[] = [];
  #exchange: ObservedExchange | undefined;
  /** Usage of the tools called inside the request (code mode), written with the request's own. */
  readonly #innerUsage: InnerUsage[] = [];

  constructor(request: Request, trace_: AdmissionTrace, tenant: string, tracer: SpanSource, batch: SpanBatch | undefined, usage: readonly UsageSink[]) {
    this.#request = request;
    this.#trace = trace_;
    this.#tenant = tenant;
    this.#tracer = tracer;
    this.#batch = batch;
    this.#usage = usage;
  }

  admitted(admitted: AdmittedPost): Admission {
    this.#admitted = admitted;
    return this.#run(admitted.admission, true);
  }

  admittedStream(admission: Admission): Admission {
    return this.#run(admission, false);
  }

  routed<E extends Hops>(endpoint: E): E {
    if (!this.#root?.isRecording() || (!endpoint.sessions && !endpoint.tasks && !endpoint.relay)) return endpoint;
    return tracedHops(endpoint, (name, attributes) => this.#hop(name, attributes));
  }

  /** The admission to run with: the trace context of the span the request runs in (the tool's, for a tool call). */
  #run(admission: Admission, post: boolean): Admission {
    this.#admission = admission;
    const now = Date.now();
    const root = this.#startRoot(now, "admitted");
    const { method, target } = this.#trace;
    if (post && method === "tools/call" && this.#admitted?.tool) {
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
    if (!root.isRecording()) return carrier ? { ...admission, trace: carrier } : admission;
    // Services, session and task objects join the trace under the span the call runs in.
    return { ...admission, trace: this.#carrierOf(this.#handler ?? root) };
  }

  innerCall(tool: string): ObservedCall {
    const started = Date.now();
    const parent = this.#handler ?? this.#root;
    const span = parent?.isRecording()
      ? this.#tracer.startSpan(
          `execute_tool ${tool}`,
          { kind: SpanKind.INTERNAL, attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": tool, "edge_mcp.via": "code_mode" } },
          trace.setSpan(ROOT_CONTEXT, parent),
        )
      : undefined;
    let done = false;
    return {
      end: (admitted, failure, toolError) => {
        if (done) return;
        done = true;
        if (span) {
          span.setAttribute("edge_mcp.admission", admitted ? "admitted" : "refused");
          if (failure) setError(span, failure);
          else if (toolError) setToolError(span);
          span.end();
        }
        // Metered like a direct call: only once admitted.
        if (admitted && this.#usage.length > 0) this.#innerUsage.push({ tool, started, ended: Date.now(), failure, toolError });
      },
    };
  }

  /** The trace context that makes a span the parent of what runs elsewhere. */
  #carrierOf(span: Span): TraceCarrier {
    const running = span.spanContext();
    const carrier = this.#carrier;
    return {
      traceparent: formatTraceparent(running.traceId, running.spanId, (running.traceFlags & 1) === 1),
      ...(carrier?.tracestate === undefined ? {} : { tracestate: carrier.tracestate }),
      ...(carrier?.baggage === undefined ? {} : { baggage: carrier.baggage }),
    };
  }

  /** A hop into another object: a client span under the span the request runs in. */
  #hop(name: string, attributes: Attributes): Hop {
    const parent = (this.#handler ?? this.#root) as Span;
    const span = this.#tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, trace.setSpan(ROOT_CONTEXT, parent));
    let ended: () => void = () => {};
    this.#hops.push(new Promise<void>((resolve) => (ended = resolve)));
    return {
      trace: this.#carrierOf(span),
      end(failure, more) {
        if (more) span.setAttributes(more);
        if (typeof failure === "number") span.setStatus({ code: SpanStatusCode.ERROR });
        else if (failure !== undefined) setError(span, toFailure(failure));
        span.end();
        ended();
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
    const verb = this.#request.method;
    // GET and DELETE carry no MCP method: their spans are named after the HTTP request.
    const stream = verb !== "POST";
    const name = method === undefined || stream ? `${verb} ${new URL(this.#request.url).pathname}` : target === undefined ? method : `${method} ${target}`;
    const attributes: Attributes = { "edge_mcp.admission": outcome };
    if (stream) attributes["http.request.method"] = verb;
    else if (method !== undefined) attributes["mcp.method.name"] = method;
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
    const admission = this.#admission;
    // Usage counts MCP messages: a GET stream or a DELETE is traced, not metered.
    const metered = admission !== undefined && this.#usage.length > 0 && this.#request.method === "POST";
    if (!recording && !metered) return;
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
      if (this.#batch && this.#tracer instanceof RecordingTracer) {
        await Promise.all(this.#hops);
        await this.#batch.add(this.#tracer.spans);
      }
    }
    if (metered && caller !== undefined) {
      const records: UsageRecord[] = [];
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
      records.push(record);
      for (const inner of this.#innerUsage) {
        records.push({
          ...record,
          method: "tools/call",
          tool: inner.tool,
          outcome: inner.failure ? String(inner.failure.code) : inner.toolError ? TOOL_ERROR : "ok",
          errorCode: inner.failure ? inner.failure.code : 0,
          durationMs: inner.ended - inner.started,
          bytesIn: 0,
          bytesOut: 0,
          at: inner.started,
          via: "code_mode",
        });
      }
      await Promise.all(this.#usage.map(async (sink) => sink.write(records))).catch((error: unknown) => {
        console.warn(`edge-mcp: usage record not written: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
  }
}

/** A tool called inside the request, for its usage record. */
interface InnerUsage {
  readonly tool: string;
  readonly started: number;
  readonly ended: number;
  readonly failure: ProtocolError | undefined;
  readonly toolError: boolean;
}
