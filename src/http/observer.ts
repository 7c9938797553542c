/**
 * The hook through which requests are observed (traces, usage metering): the interface the HTTP
 * layer calls, implemented elsewhere (`src/observe/`) and passed in as an option, so a Worker
 * that does not observe bundles none of it and pays one `undefined` check per request.
 */

import type { Admission } from "../core/admission.ts";
import type { ProtocolError } from "../core/errors.ts";
import type { AdmissionTrace, AdmittedPost } from "./admission/admitted.ts";
import type { WaitUntil } from "../core/names.ts";
import type { ObservedCall } from "../server/context/transport.ts";
import type { ChangeRelay } from "../server/notifications/change-relay.ts";
import type { SessionGateway } from "./sessions/session-gateway.ts";
import type { TaskGateway } from "./tasks/task-gateway.ts";

export type { ObservedCall } from "../server/context/transport.ts";

/** What an observer reads of a running exchange. */
export interface ObservedExchange {
  /** Resolves when the handler has finished, with its error if it failed (read only when not yet {@link done}). */
  readonly settled: Promise<ProtocolError | undefined>;
  /** Whether the handler has finished: known without waiting (a plain JSON answer always has). */
  readonly done: boolean;
  /** The handler's error once {@link done}, if it failed. */
  readonly failure: ProtocolError | undefined;
  /** Whether the handler answered a tool result with `isError: true` (read once settled). */
  readonly toolError: boolean;
  /** Characters of the JSON-RPC messages written so far (≈ bytes: the JSON is mostly ASCII). */
  readonly bytesOut: number;
}

/** The ways out of the Worker an endpoint holds: into session and task objects, and to the notifications hub. */
export interface Hops {
  readonly sessions: SessionGateway | undefined;
  readonly tasks: TaskGateway | undefined;
  readonly relay: ChangeRelay | undefined;
}

/** Watches the requests of one endpoint. */
export interface RequestObserver {
  /**
   * A POST, GET or DELETE arrived; undefined when nothing is watching (no tracer, no usage sink).
   * `costlyAdmission`: whether admission does work here (an authorizer or a rate limiter runs),
   * which then gets a span of its own (default true).
   */
  begin(request: Request, trace: AdmissionTrace, tenant: string, costlyAdmission?: boolean): RequestObservation | undefined;
  /**
   * The tools called inside a request this object runs for a Worker that observed it (a session
   * object's code-mode programs): a span each under the admission's trace context, and a usage
   * record each. Undefined when nothing records them.
   */
  innerCallsOf?(admission: Admission, era: string): ((tool: string) => ObservedCall) | undefined;
}

/** One request under observation, told of each stage; it never throws and never delays the answer. */
export interface RequestObservation {
  /** Admission succeeded: returns the admission to run with (carrying the trace context when traced). */
  admitted(admitted: AdmittedPost): Admission;
  /** A GET or DELETE passed admission: returns the admission to run with, like {@link admitted}. */
  admittedStream(admission: Admission): Admission;
  /**
   * The endpoint this request runs on: the same one, or (when traced) one whose hops into other
   * objects (sessions, tasks, the notifications hub) are child spans carrying the trace across.
   */
  routed<E extends Hops>(endpoint: E): E;
  /** A tool called inside this request (a code-mode program's `tools.x(...)`): a span of its own and a usage record. */
  innerCall(tool: string): ObservedCall;
  /** The handler runs in this exchange (its answer may stream after the response is returned). */
  handling(exchange: ObservedExchange): void;
  /** The answer is ready (`error`: a refusal or failure answered before any handler ran). */
  end(status: number, error: ProtocolError | undefined, waitUntil: WaitUntil | undefined): void;
}
