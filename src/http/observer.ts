/**
 * The hook through which requests are observed (traces, usage metering): the interface the HTTP
 * layer calls, implemented elsewhere (`src/observe/`) and passed in as an option, so a Worker
 * that does not observe bundles none of it and pays one `undefined` check per request.
 */

import type { Admission } from "../core/admission.ts";
import type { ProtocolError } from "../core/errors.ts";
import type { AdmissionTrace, AdmittedPost } from "./admitted.ts";
import type { WaitUntil } from "../core/names.ts";

/** What an observer reads of a running exchange. */
export interface ObservedExchange {
  /** Resolves when the handler has finished, with its error if it failed. */
  readonly settled: Promise<ProtocolError | undefined>;
  /** Whether the handler answered a tool result with `isError: true` (read once settled). */
  readonly toolError: boolean;
  /** Characters of the JSON-RPC messages written so far (≈ bytes: the JSON is mostly ASCII). */
  readonly bytesOut: number;
}

/** Watches the requests of one endpoint. */
export interface RequestObserver {
  /** A POST arrived; undefined when nothing is watching (no tracer, no usage sink). */
  begin(request: Request, trace: AdmissionTrace, tenant: string): RequestObservation | undefined;
}

/** One request under observation, told of each stage; it never throws and never delays the answer. */
export interface RequestObservation {
  /** Admission succeeded: returns the admission to run with (carrying the trace context when traced). */
  admitted(admitted: AdmittedPost): Admission;
  /** The handler runs in this exchange (its answer may stream after the response is returned). */
  handling(exchange: ObservedExchange): void;
  /** The answer is ready (`error`: a refusal or failure answered before any handler ran). */
  end(status: number, error: ProtocolError | undefined, waitUntil: WaitUntil | undefined): void;
}
