/**
 * A tracer that writes its spans as OTLP JSON for an export: what a Worker uses with no
 * OpenTelemetry SDK. A span becomes its JSON text when it ends (otlp-json.ts), and the export's
 * batch its bytes (otlp-bytes.ts): nothing of a span outlives its request.
 */

import {
  trace,
  SpanStatusCode,
  type Attributes,
  type AttributeValue,
  type Context,
  type Span,
  type SpanContext,
  type SpanKind,
  type SpanOptions,
  type SpanStatus,
  type TimeInput,
} from "@opentelemetry/api";
import type { TraceCarrier } from "../core/admission.ts";
import { attributesJson, jsonText, nanos, statusJson } from "./otlp/otlp-json.ts";
import type { SpanSource } from "./span-source.ts";
import { remoteSpanContext } from "./span-status.ts";

/** Random bytes drawn ahead for ids: one `getRandomValues` call per 4 KiB instead of one per id. */
const POOL = new Uint8Array(4096);
let drawn = POOL.length;
/** The pool as hex, written once per draw: an id is a slice of it, not a string built byte by byte. */
let poolHex = "";

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

function randomHex(bytes: number): string {
  if (drawn + bytes > POOL.length) {
    crypto.getRandomValues(POOL);
    drawn = 0;
    const hex: string[] = [];
    for (const byte of POOL) hex.push(HEX[byte] as string);
    poolHex = hex.join("");
  }
  const start = drawn;
  drawn += bytes;
  return poolHex.slice(2 * start, 2 * drawn);
}

const UNSET: SpanStatus = Object.freeze({ code: SpanStatusCode.UNSET });

function millis(time: TimeInput | undefined): number {
  if (time === undefined) return Date.now();
  if (typeof time === "number") return time;
  if (time instanceof Date) return time.getTime();
  return time[0] * 1000 + time[1] / 1e6;
}

/** A new span's context: a new span id in its parent's trace, or in a new trace. */
function contextUnder(parent: SpanContext | undefined): SpanContext {
  return parent?.traceState
    ? { traceId: parent.traceId, spanId: randomHex(8), traceFlags: 1, traceState: parent.traceState }
    : { traceId: parent?.traceId ?? randomHex(16), spanId: randomHex(8), traceFlags: 1 };
}

/** A span being recorded; when it ends, its OTLP JSON text goes to the tracer's `spans`. */
class RecordedSpan implements Span {
  readonly #sink: string[];
  #name: string;
  readonly #kind: SpanKind;
  readonly #context: SpanContext;
  readonly #parentSpanId: string | undefined;
  readonly #startMs: number;
  readonly #attributes: Attributes;
  #status: SpanStatus = UNSET;
  #ended = false;

  /** `context` is the span's own ({@link contextUnder} its parent); `attributes` become the span's own (not copied). */
  constructor(sink: string[], name: string, options: SpanOptions, parent: SpanContext | undefined, context: SpanContext, attributes: Attributes) {
    this.#sink = sink;
    this.#name = name;
    this.#kind = options.kind ?? 0;
    this.#startMs = millis(options.startTime);
    this.#attributes = attributes;
    this.#parentSpanId = parent?.spanId;
    this.#context = context;
  }

  /**
   * A dormant span, kept for good so that the class's hidden class outlives a major GC
   * (core/shape-anchor.ts): its fields as a request's span holds them (a start time past the
   * small-integer range, as Date.now()'s, is a double). No id is drawn.
   */
  static readonly dormant = new RecordedSpan([], "", { kind: 0, startTime: 0.5 }, undefined, { traceId: "", spanId: "", traceFlags: 1 }, {});

  spanContext(): SpanContext {
    return this.#context;
  }
  setAttribute(key: string, value: AttributeValue): this {
    this.#attributes[key] = value;
    return this;
  }
  setAttributes(attributes: Attributes): this {
    Object.assign(this.#attributes, attributes);
    return this;
  }
  addEvent(): this {
    return this;
  }
  addLink(): this {
    return this;
  }
  addLinks(): this {
    return this;
  }
  setStatus(status: SpanStatus): this {
    this.#status = status;
    return this;
  }
  updateName(name: string): this {
    this.#name = name;
    return this;
  }
  end(endTime?: TimeInput): void {
    if (this.#ended) return;
    this.#ended = true;
    const { traceId, spanId, traceState } = this.#context;
    const parent = this.#parentSpanId === undefined ? "" : `"parentSpanId":"${this.#parentSpanId}",`;
    const state = traceState ? `"traceState":${JSON.stringify(traceState.serialize())},` : "";
    // OTLP numbers kinds from 1 (internal); the API from 0.
    this.#sink.push(
      `{"traceId":"${traceId}","spanId":"${spanId}",${parent}${state}"name":${jsonText(this.#name)},"kind":${this.#kind + 1},` +
        `"startTimeUnixNano":${nanos(this.#startMs)},"endTimeUnixNano":${nanos(millis(endTime))},` +
        `"attributes":[${attributesJson(this.#attributes)}],"status":${statusJson(this.#status)}}`,
    );
  }
  isRecording(): boolean {
    return !this.#ended;
  }
  recordException(): void {}
}

/**
 * Starts spans (the `startSpan` of an OpenTelemetry `Tracer`) and collects the OTLP JSON text of
 * each once ended into `spans`, for an export. Parents come from the context given, never from an
 * ambient one (Workers have no context manager without nodejs_compat).
 */
export class RecordingTracer implements SpanSource {
  /** The OTLP JSON text (a Span object) of each span ended so far, in the order they ended. */
  readonly spans: string[] = [];

  startSpan(name: string, options: SpanOptions = {}, context?: Context): Span {
    const parent = options.root || !context ? undefined : trace.getSpanContext(context);
    return new RecordedSpan(this.spans, name, options, parent, contextUnder(parent), { ...options.attributes });
  }

  /** {@link SpanSource.start}: the parent given directly, no OpenTelemetry `Context`; `options.attributes` become the span's own. */
  start(name: string, options: SpanOptions, parent: Span | undefined, remote?: TraceCarrier): Span {
    const parentContext = parent ? parent.spanContext() : remoteSpanContext(remote);
    return new RecordedSpan(this.spans, name, options, parentContext, contextUnder(parentContext), options.attributes ?? {});
  }
}
