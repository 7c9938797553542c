/**
 * One observed request: its span (parented by the client's trace context) with child spans for
 * admission, the tool handler, inner calls and hops, and its usage records. Finished after the
 * answer: at once when the handler has already settled (the common case: no `waitUntil` of its
 * own), else under `waitUntil`.
 */

import { SpanKind, SpanStatusCode, type Attributes, type Span } from "@opentelemetry/api";
import type { Admission, TraceCarrier } from "../core/admission.ts";
import type { ProtocolError } from "../core/errors.ts";
import type { AdmissionTrace, AdmittedPost } from "../http/admission/admitted.ts";
import type { Hops, ObservedCall, ObservedExchange, RequestObservation } from "../http/observer.ts";
import type { WaitUntil } from "../core/names.ts";
import { DORMANT, anchorShape } from "../core/shape-anchor.ts";
import { telemetryText } from "../core/telemetry-text.ts";
import { DORMANT_ADMISSIONS } from "../http/admission/admit.ts";
import { rootAttributes } from "./observation-shapes.ts";
import { NOTHING_TO_WAIT, type SpanBatch } from "./otlp/otlp-batch.ts";
import type { RecordingTracer } from "./recording-tracer.ts";
import type { SpanSource } from "./span-source.ts";
import { setError, setToolError, toFailure, TOOL_ERROR } from "./span-status.ts";
import { tracedHops, type Hop } from "./traced-hops.ts";
import { parseTraceparent, readTraceCarrier } from "./trace-context.ts";
import { carrierOf, endInner } from "./span-parts.ts";
import { callerId, innerRecord, knownCallerId, writeUsage, type InnerUsage, type UsageRecord, type UsageSink } from "./usage/usage-record.ts";

/** Where an observation's spans go: the source (none: usage only), and the OTLP batch when edge-mcp records them itself. */
export interface SpanTarget {
  readonly source: SpanSource | undefined;
  readonly recorder?: { readonly tracer: RecordingTracer; readonly batch: SpanBatch } | undefined;
  /** Head sampling, parent-based (see OtlpSettings.sampleRatio); undefined: every request is recorded. */
  readonly sampleRatio?: number | undefined;
}

const toolError = (exchange: ObservedExchange | undefined) => exchange?.toolError === true;

/** Head sampling, parent-based: the client's sampled flag when it sent a trace context, else a draw at `ratio`. */
const sampled = (carrier: TraceCarrier | undefined, ratio: number): boolean =>
  carrier ? parseTraceparent(carrier.traceparent)?.sampled === true : ratio >= 1 || Math.random() < ratio;

/** The admission a traced request runs with: the admitted one, given the trace context of the span it runs in. */
const withTrace = (admission: Admission, trace: TraceCarrier): Admission => ({ ...admission, trace });

/**
 * Dormant samples of a traced request's objects, kept for good so that their hidden classes outlive
 * a major GC (core/shape-anchor.ts): each admission shape of admit.ts given its trace context by
 * {@link withTrace}, and (beside `#record`, below) the request span's attributes.
 */
export const DORMANT_TRACED_ADMISSIONS: readonly Admission[] = anchorShape(DORMANT_ADMISSIONS.map((admission) => withTrace(admission, DORMANT)));

export class Observation implements RequestObservation {
  readonly #request: Request;
  readonly #trace: AdmissionTrace;
  readonly #tenant: string;
  readonly #spans: SpanTarget;
  readonly #usage: readonly UsageSink[];
  #carrier: TraceCarrier | undefined;
  #root: Span | undefined;
  #handler: Span | undefined;
  #admitted: AdmittedPost | undefined;
  #admission: Admission | undefined;
  /** Hops still running (session, task, hub): an OTLP export waits for their spans. */
  #hops: Promise<void>[] | undefined;
  #exchange: ObservedExchange | undefined;
  /** Whether this request writes usage records (decided when it ends). */
  #isMetered = false;
  /** Whether admission did work worth a span of its own (an authorizer or a rate limiter ran). */
  readonly #costlyAdmission: boolean;
  /** Usage of the tools called inside the request (code mode), written with the request's own. */
  #innerUsage: InnerUsage[] | undefined;
  /**
   * Inner calls still running: a program's call can outlive its run (code mode's wall time answers
   * the request first). The request's records wait for them (under `waitUntil`), so each is metered.
   */
  #innerRunning: Promise<void>[] | undefined;
  #innerOpen = 0;
  /** When admission ended (the admission span's end, the tool span's start). */
  #admittedAt = 0;
  /** Head sampling left this request out: it records no span and passes no trace context on. */
  #unsampled = false;

  constructor(request: Request, trace_: AdmissionTrace, tenant: string, spans: SpanTarget, usage: readonly UsageSink[], costlyAdmission = true) {
    this.#costlyAdmission = costlyAdmission;
    this.#request = request;
    this.#trace = trace_;
    this.#tenant = tenant;
    this.#spans = spans;
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
    // No span recorded (metering alone): no trace context is read or passed on.
    // A POST is known to be one: its method is not read from the request again.
    const root = this.#startRoot("admitted", undefined, undefined, post ? "POST" : undefined);
    if (!root?.isRecording()) return admission;
    const { method, target } = this.#trace;
    if (post && method === "tools/call" && this.#admitted?.tool) {
      this.#handler = this.#spans.source?.start(
        `execute_tool ${target ?? ""}`.trim(),
        {
          kind: SpanKind.INTERNAL,
          startTime: this.#admittedAt,
          attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": target ?? "" },
        },
        root,
      );
    }
    // Services, session and task objects join the trace under the span the call runs in.
    return withTrace(admission, carrierOf(this.#handler ?? root, this.#carrier));
  }

  innerCall(name: string): ObservedCall {
    // A program's tool name is client-chosen: bounded for the span and the usage record.
    const tool = telemetryText(name);
    const started = Date.now();
    const parent = this.#handler ?? this.#root;
    const span = parent?.isRecording()
      ? this.#spans.source?.start(
          `execute_tool ${tool}`,
          { kind: SpanKind.INTERNAL, attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": tool, "edge_mcp.via": "code_mode" } },
          parent,
        )
      : undefined;
    let done = false;
    let settle: () => void = () => {};
    if (this.#usage.length > 0 || span) {
      this.#innerOpen++;
      (this.#innerRunning ??= []).push(new Promise<void>((resolve) => (settle = resolve)));
    }
    return {
      ...(span ? { trace: carrierOf(span, this.#carrier) } : {}),
      end: (admitted, failure, toolError_) => {
        if (done) return;
        done = true;
        if (this.#usage.length > 0 || span) this.#innerOpen--;
        settle();
        if (span) endInner(span, admitted, failure, toolError_);
        // Metered like a direct call: only once admitted.
        if (admitted && this.#usage.length > 0) (this.#innerUsage ??= []).push({ tool, started, ended: Date.now(), failure, toolError: toolError_ });
      },
    };
  }

  /** A hop into another object: a client span under the span the request runs in. */
  #hop(name: string, attributes: Attributes): Hop {
    const span = (this.#spans.source as SpanSource).start(name, { kind: SpanKind.CLIENT, attributes }, this.#handler ?? this.#root);
    let ended: () => void = () => {};
    (this.#hops ??= []).push(new Promise<void>((resolve) => (ended = resolve)));
    return {
      trace: carrierOf(span, this.#carrier),
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
    // Read when the request ends: a plain JSON answer knows its outcome then, without waiting.
    this.#exchange = exchange;
  }

  end(status: number, error: ProtocolError | undefined, waitUntil: WaitUntil | undefined): void {
    const answered = Date.now();
    const root = this.#root ?? this.#startRoot("refused", error, answered);
    const exchange = this.#exchange;
    const metered = this.#metered();
    this.#isMetered = metered;
    const callerKey = metered || root?.isRecording() ? this.#admission?.caller : undefined;
    const caller = callerKey === undefined ? undefined : knownCallerId(callerKey);
    const sessionKey = root?.isRecording() ? this.#sessionKey() : undefined;
    const sessionDigest = sessionKey === undefined ? undefined : knownCallerId(sessionKey);
    // The common case: everything is known now (the handler settled, no hop running, the digests computed).
    const known = (callerKey === undefined || caller !== undefined) && (sessionKey === undefined || sessionDigest !== undefined);
    if ((!exchange || exchange.done) && this.#hops === undefined && this.#innerOpen === 0 && known) {
      const pending = this.#record(root, answered, status, exchange ? exchange.failure : error, caller, sessionDigest);
      if (pending && waitUntil) waitUntil(pending);
      return;
    }
    const done = this.#finish(root, answered, status, error, callerKey, sessionKey);
    if (waitUntil) waitUntil(done);
    else void done;
  }

  /** Usage counts MCP messages (an admitted POST): a GET stream or a DELETE is traced, not metered. */
  #metered(): boolean {
    return this.#admitted !== undefined && this.#usage.length > 0;
  }

  /** Whether the request is a 2026 (modern) message: no session, whatever headers it carries. */
  #modern(): boolean {
    return this.#admitted?.info?.era === "modern";
  }

  /** The key of the session's digest (spans carry a digest of the session id, a credential, never the id). */
  #sessionKey(): string | undefined {
    const opened = this.#admitted?.newSession;
    if (opened !== undefined) return `session\n${opened}`;
    if (this.#modern()) return undefined;
    const id = this.#request.headers.get("mcp-session-id");
    return id === null ? undefined : `session\n${id}`;
  }

  /** The request's span and its finished admission span; the parent is the client's context. None without a span source. */
  #startRoot(outcome: "admitted" | "refused", error?: ProtocolError, admissionEnd?: number, knownVerb?: string): Span | undefined {
    const source = this.#spans.source;
    if (!source || this.#unsampled) return undefined;
    const { method, target, started } = this.#trace;
    this.#carrier = readTraceCarrier(this.#trace.params, this.#request.headers);
    const ratio = this.#spans.sampleRatio;
    if (ratio !== undefined && !sampled(this.#carrier, ratio)) {
      this.#unsampled = true;
      return undefined;
    }
    this.#admittedAt = admissionEnd ?? Date.now();
    const verb = knownVerb ?? this.#request.method;
    // GET and DELETE carry no MCP method: their spans are named after the HTTP request.
    const stream = verb !== "POST";
    const name =
      method === undefined || stream ? `${verb} ${telemetryText(new URL(this.#request.url).pathname)}` : target === undefined ? method : `${method} ${target}`;
    const attributes = rootAttributes(outcome, stream, verb, method);
    const root = source.start(name, { kind: SpanKind.SERVER, startTime: started, attributes }, undefined, this.#carrier);
    this.#root = root;
    // Admission gets a span of its own when it refused the request or did work (authentication, a
    // rate limit, a session's quota place); otherwise its outcome is the request span's
    // `edge_mcp.admission` attribute.
    if (!root.isRecording()) return root;
    this.#trace.traceId = root.spanContext().traceId;
    if (error !== undefined || this.#costlyAdmission || this.#admitted?.opening !== undefined) {
      const admission = source.start("edge_mcp.admission", { startTime: started, attributes: { "edge_mcp.admission": outcome } }, root);
      if (error) setError(admission, error);
      admission.end(this.#admittedAt);
    }
    return root;
  }

  /** The slow path: waits for the handler, the hops and the digests, then records. */
  async #finish(
    root: Span | undefined,
    answered: number,
    status: number,
    refusal: ProtocolError | undefined,
    callerKey?: string,
    sessionKey?: string,
  ): Promise<void> {
    const exchange = this.#exchange;
    const failure = exchange ? (exchange.done ? exchange.failure : await exchange.settled) : refusal;
    const ended = Math.max(answered, Date.now());
    const caller = callerKey === undefined ? undefined : await callerId(callerKey);
    const session = sessionKey === undefined ? undefined : await callerId(sessionKey);
    if (this.#hops) await Promise.all(this.#hops);
    if (this.#innerRunning) await Promise.all(this.#innerRunning);
    await this.#record(root, ended, status, failure, caller, session);
  }

  /** Ends the spans and writes the usage records; returns what is still being sent, if anything. */
  #record(
    root: Span | undefined,
    ended: number,
    status: number,
    failure: ProtocolError | undefined,
    caller: string | undefined,
    sessionDigest: string | undefined,
  ): Promise<void> | undefined {
    const trace_ = this.#trace;
    const era = this.#admitted?.info?.era;
    const failed = toolError(this.#exchange);
    let exported: Promise<void> | undefined;
    if (root?.isRecording()) {
      // One attribute at a time: no intermediate object merged in. In this order, as DORMANT_REQUEST_ATTRIBUTES has them.
      root.setAttribute("edge_mcp.tenant", this.#tenant);
      root.setAttribute("http.response.status_code", status);
      if (trace_.revision !== undefined) root.setAttribute("mcp.protocol.version", trace_.revision);
      if (trace_.requestId !== undefined) root.setAttribute("jsonrpc.request.id", telemetryText(String(trace_.requestId)));
      if (trace_.method === "tools/call" && trace_.target !== undefined) root.setAttribute("gen_ai.tool.name", trace_.target);
      if (caller !== undefined) root.setAttribute("edge_mcp.caller", caller);
      if (era !== undefined) root.setAttribute("edge_mcp.era", era);
      if (sessionDigest !== undefined) root.setAttribute("mcp.session.id", sessionDigest);
      if (this.#handler) {
        if (failure) setError(this.#handler, failure);
        else if (failed) setToolError(this.#handler);
        this.#handler.end(ended);
      }
      if (failure) setError(root, failure);
      else if (failed) setToolError(root);
      else if (status >= 400) root.setStatus({ code: SpanStatusCode.ERROR });
      root.end(ended);
      const recorder = this.#spans.recorder;
      if (recorder) {
        const sent = recorder.batch.add(recorder.tracer.spans);
        if (sent !== NOTHING_TO_WAIT) exported = sent;
      }
    }
    const admission = this.#admission;
    if (!this.#isMetered || caller === undefined || admission === undefined) return exported;
    const record: UsageRecord = {
      tenant: admission.tenant,
      caller,
      method: trace_.method ?? "",
      tool: trace_.method === "tools/call" ? (trace_.target ?? "") : "",
      outcome: failure ? String(failure.code) : failed ? TOOL_ERROR : "ok",
      errorCode: failure ? failure.code : 0,
      durationMs: ended - trace_.started,
      bytesIn: this.#admitted?.text.length ?? 0,
      bytesOut: this.#exchange?.bytesOut ?? 0,
      era: era ?? "",
      session: this.#admitted?.newSession !== undefined || (!this.#modern() && this.#request.headers.has("mcp-session-id")),
      at: trace_.started,
    };
    const inner = this.#innerUsage;
    const records = inner === undefined ? [record] : [record, ...inner.map((call) => innerRecord(record, call))];
    const written = writeUsage(this.#usage, records);
    return exported && written ? Promise.all([exported, written]).then(() => undefined) : (exported ?? written);
  }
}

/** A 2026-07-28 tools/call's request span attributes, grown as `rootAttributes` and then `#record` grow them. */
export const DORMANT_REQUEST_ATTRIBUTES: Attributes = anchorShape(dormantRequestAttributes());

function dormantRequestAttributes(): Attributes {
  const attributes = rootAttributes("admitted", false, "POST", "tools/call");
  attributes["edge_mcp.tenant"] = "";
  attributes["http.response.status_code"] = 200;
  attributes["mcp.protocol.version"] = "";
  attributes["jsonrpc.request.id"] = "";
  attributes["gen_ai.tool.name"] = "";
  attributes["edge_mcp.caller"] = "";
  attributes["edge_mcp.era"] = "";
  return attributes;
}
