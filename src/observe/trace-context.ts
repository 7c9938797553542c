/** W3C Trace Context (traceparent, tracestate, baggage) read from a message's `_meta` (SEP-414) or the HTTP headers. */

import { isObject, own } from "../core/json.ts";
import type { TraceCarrier } from "../core/admission.ts";

/** The parts of a `traceparent` (W3C Trace Context, version 00). */
export interface TraceParent {
  readonly traceId: string;
  readonly spanId: string;
  readonly sampled: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);
/** W3C limits tracestate to 32 members (about 512 characters); a longer value is dropped, not cut. */
const MAX_TRACESTATE = 512;
/** W3C Baggage: at most 8192 bytes. */
const MAX_BAGGAGE = 8192;

/**
 * Parses a `traceparent`; undefined when it is malformed, all-zero, or version ff (W3C Trace
 * Context §3.2: a receiver that cannot parse it starts a new trace). Future versions may carry
 * more fields after a dash; version 00 may not.
 */
export function parseTraceparent(value: unknown): TraceParent | undefined {
  if (typeof value !== "string" || value.length > 512) return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  return { traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

/** Formats a `traceparent` (version 00). */
export function formatTraceparent(traceId: string, spanId: string, sampled: boolean): string {
  return `00-${traceId}-${spanId}-${sampled ? "01" : "00"}`;
}

function text(value: unknown, max: number): string | undefined {
  return typeof value === "string" && value.length <= max && value.trim() !== "" ? value : undefined;
}

/**
 * The trace context a client sent: `_meta.traceparent` (with `tracestate` and `baggage`) when it
 * is valid (SEP-414: the message's own context wins over the transport's), else the W3C headers.
 * Undefined when neither carries a valid `traceparent`.
 */
export function readTraceCarrier(params: unknown, headers: Headers): TraceCarrier | undefined {
  const meta = isObject(params) ? own(params, "_meta") : undefined;
  if (isObject(meta) && parseTraceparent(own(meta, "traceparent"))) {
    return carrier(own(meta, "traceparent") as string, own(meta, "tracestate"), own(meta, "baggage"));
  }
  const header = headers.get("traceparent");
  if (header !== null && parseTraceparent(header)) return carrier(header, headers.get("tracestate"), headers.get("baggage"));
  return undefined;
}

function carrier(traceparent: string, tracestate: unknown, baggage: unknown): TraceCarrier {
  const state = text(tracestate, MAX_TRACESTATE);
  const bag = text(baggage, MAX_BAGGAGE);
  return { traceparent: traceparent.trim(), ...(state === undefined ? {} : { tracestate: state }), ...(bag === undefined ? {} : { baggage: bag }) };
}
