/** The usage record of one admitted request, and its Analytics Engine data point. */

import { sha256Hex } from "../../core/bytes.ts";
import type { ProtocolError } from "../../core/errors.ts";
import { TOOL_ERROR } from "../span-status.ts";

/** One admitted request, as metering counts it. */
export interface UsageRecord {
  readonly tenant: string;
  /** {@link callerId}: non-reversible, stable per caller. */
  readonly caller: string;
  readonly method: string;
  /** The tool of a `tools/call`, else "". */
  readonly tool: string;
  /** "ok", or the JSON-RPC error code as text ("-32602"). */
  readonly outcome: string;
  readonly errorCode: number;
  readonly durationMs: number;
  readonly bytesIn: number;
  readonly bytesOut: number;
  readonly era: string;
  readonly session: boolean;
  /** When the request arrived (ms since the epoch). */
  readonly at: number;
  /** "code_mode" for a tool called by a code-mode program inside the request; absent for a direct call. */
  readonly via?: "code_mode";
}

/** Where usage records go (Analytics Engine, the usage object, a test). */
export interface UsageSink {
  write(records: readonly UsageRecord[]): Promise<void> | void;
}

const callerIds = new Map<string, Promise<string>>();
const CALLER_ID_CACHE = 1000;

/**
 * A caller's id for traces and usage: the first 16 hex digits of SHA-256 over its caller key
 * (tenant, issuer, subject). It cannot be turned back into the subject; it is the same for every
 * request of the caller, so calls can be counted per caller. Cached per isolate (bounded).
 */
export function callerId(callerKey: string): Promise<string> {
  let id = callerIds.get(callerKey);
  if (!id) {
    if (callerIds.size >= CALLER_ID_CACHE) {
      callerIds.clear();
      knownIds.clear();
    }
    id = sha256Hex(`edge-mcp caller\n${callerKey}`).then((hex) => {
      const short = hex.slice(0, 16);
      knownIds.set(callerKey, short);
      return short;
    });
    callerIds.set(callerKey, id);
  }
  return id;
}

/** The same ids once computed, read without waiting. */
const knownIds = new Map<string, string>();

/** {@link callerId} when this isolate has already computed it, else undefined (then await `callerId`). */
export function knownCallerId(callerKey: string): string | undefined {
  return knownIds.get(callerKey);
}

/** The Analytics Engine data point of a record: the columns docs/observability.md documents (and its SQL reads). */
export function usageDataPoint(record: UsageRecord): AnalyticsEngineDataPoint {
  return {
    // blob1..blob8
    blobs: [
      record.tenant,
      record.caller,
      record.method,
      record.tool,
      record.outcome,
      record.era,
      record.session ? "session" : "stateless",
      record.via ?? "direct",
    ],
    // double1..double5
    doubles: [1, record.durationMs, record.bytesIn, record.bytesOut, record.errorCode],
    // index1: sampling is per tenant, so a small tenant is never sampled away by a large one.
    indexes: [record.tenant],
  };
}

/** A sink writing each record to an Analytics Engine dataset (`writeDataPoint` does not block). */
export function analyticsSink(dataset: AnalyticsEngineDataset): UsageSink {
  return {
    write(records) {
      for (const record of records) dataset.writeDataPoint(usageDataPoint(record));
    },
  };
}

const warn = (error: unknown): void => console.warn(`edge-mcp: usage record not written: ${error instanceof Error ? error.message : String(error)}`);

/** Writes records to every sink; what a sink still does is returned to wait for. A failure is logged, never thrown. */
export function writeUsage(sinks: readonly UsageSink[], records: readonly UsageRecord[]): Promise<void> | undefined {
  let pending: Promise<void>[] | undefined;
  for (const sink of sinks) {
    try {
      const written = sink.write(records);
      if (written) (pending ??= []).push(Promise.resolve(written).catch(warn));
    } catch (error) {
      warn(error);
    }
  }
  return pending && Promise.all(pending).then(() => undefined);
}

/** A tool called inside the request, for its usage record. */
export interface InnerUsage {
  readonly tool: string;
  readonly started: number;
  readonly ended: number;
  readonly failure: ProtocolError | undefined;
  readonly toolError: boolean;
}

/** The usage record of a tool called inside a request: the request's record with the call's own tool, outcome and times. */
export function innerRecord(request: UsageRecord, inner: InnerUsage): UsageRecord {
  return {
    ...request,
    method: "tools/call",
    tool: inner.tool,
    outcome: inner.failure ? String(inner.failure.code) : inner.toolError ? TOOL_ERROR : "ok",
    errorCode: inner.failure ? inner.failure.code : 0,
    durationMs: inner.ended - inner.started,
    bytesIn: 0,
    bytesOut: 0,
    at: inner.started,
    via: "code_mode",
  };
}
