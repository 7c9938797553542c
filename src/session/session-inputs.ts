/** Server→client requests in a legacy session: sent on the request's SSE stream, answered by a later POST. */

import { ToolError } from "../core/tool-error.ts";
import type { RequestId } from "../core/jsonrpc.ts";
import { answerProblem } from "../server/inputs/input-answer.ts";
import { clientSupports, type InputChannel, type InputRequest } from "../server/inputs/input.ts";
import type { JsonObject } from "../core/types.ts";
import type { TraceCarrier } from "../core/admission.ts";

interface Waiter {
  resolve(result: unknown): void;
  reject(error: Error): void;
  /** Why a result does not answer the request (then it counts as no answer), or undefined. */
  problem?(result: unknown): string | undefined;
}

/** What became of a client's response: delivered, refused as malformed (the wait failed), or nothing waited on it. */
export type Settled = { ok: true } | { ok: false; malformed?: string };

/** The requests this session sent and still waits on, by JSON-RPC id. */
export class PendingRequests {
  readonly #waiting = new Map<RequestId, Waiter>();
  #next = 0;

  /** A fresh id for a server→client request (never reused within the session's lifetime here). */
  nextId(): string {
    return `srv-${++this.#next}-${crypto.randomUUID().slice(0, 8)}`;
  }

  wait(id: RequestId, waiter: Waiter): void {
    this.#waiting.set(id, waiter);
  }

  forget(id: RequestId): void {
    this.#waiting.delete(id);
  }

  /**
   * Delivers the client's response. A result that does not answer the request (an elicitation
   * answer without a valid action, or whose content does not match `requestedSchema`) counts as
   * no answer: the wait fails as it would on a timeout, and the caller learns why.
   */
  settle(id: RequestId, result: unknown, error: unknown): Settled {
    const waiter = this.#waiting.get(id);
    if (!waiter) return { ok: false };
    this.#waiting.delete(id);
    if (error !== undefined) {
      const message =
        typeof error === "object" && error !== null && typeof (error as JsonObject)["message"] === "string" ? (error as JsonObject)["message"] : "error";
      waiter.reject(new ToolError(`the client answered with an error: ${String(message)}`));
      return { ok: true };
    }
    const malformed = waiter.problem?.(result);
    if (malformed !== undefined) {
      waiter.reject(new ToolError(`the client's answer was malformed (${malformed}); it counts as no answer`));
      return { ok: false, malformed };
    }
    waiter.resolve(result);
    return { ok: true };
  }

  /** Fails every waiter (the session ended). */
  rejectAll(reason: string): void {
    for (const waiter of this.#waiting.values()) waiter.reject(new ToolError(reason));
    this.#waiting.clear();
  }
}

export interface SessionInputOptions {
  pending: PendingRequests;
  clientCapabilities: JsonObject;
  /** Writes a JSON-RPC message on the originating request's stream (forcing it to SSE). */
  send(json: string): void;
  signal: () => AbortSignal;
  timeoutMs: number;
  /** The trace context of the request that asks (when traced): each request carries it in `_meta` (SEP-414). */
  trace?: TraceCarrier | undefined;
}

/** The params of a server→client request, with the asking request's trace context in `_meta`. */
function withTrace(params: JsonObject | undefined, trace: TraceCarrier | undefined): JsonObject {
  if (!trace) return params ?? {};
  const meta = params?.["_meta"];
  return { ...params, _meta: { ...(typeof meta === "object" && meta !== null && !Array.isArray(meta) ? meta : {}), ...trace } };
}

/**
 * The input channel of a request in a 2025 session: each input becomes a JSON-RPC request on
 * the request's own SSE stream (2025-11-25: server→client requests S relate to the request);
 * the client's answer arrives in another POST, which the session routes here. Nothing waits
 * forever: a timeout or the request's cancellation ends the wait.
 */
export function createSessionInputs(options: SessionInputOptions): InputChannel {
  const ask = (input: InputRequest): Promise<unknown> => {
    const id = options.pending.nextId();
    return new Promise<unknown>((resolve, reject) => {
      const signal = options.signal();
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        options.pending.forget(id);
      };
      const onAbort = (): void => {
        done();
        reject(signal.reason instanceof Error ? signal.reason : new ToolError("the request was cancelled"));
      };
      const timer = setTimeout(() => {
        done();
        reject(new ToolError(`the client did not answer ${input.method} within ${Math.round(options.timeoutMs / 1000)} s`));
      }, options.timeoutMs);
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      options.pending.wait(id, {
        resolve: (value) => {
          done();
          resolve(value);
        },
        reject: (error) => {
          done();
          reject(error);
        },
        problem: (result) => answerProblem(input, result),
      });
      options.send(JSON.stringify({ jsonrpc: "2.0", id, method: input.method, params: withTrace(input.params, options.trace) }));
    });
  };

  return {
    async request(requests) {
      const entries = Object.entries(requests);
      const missing = entries.filter(([, input]) => !clientSupports(options.clientCapabilities, input)).map(([, input]) => input.method);
      if (missing.length > 0) {
        throw new ToolError(`it needs the client to answer ${[...new Set(missing)].join(", ")}, which this client did not declare in its capabilities`);
      }
      const answers = await Promise.all(entries.map(([, input]) => ask(input)));
      return Object.fromEntries(entries.map(([key], index) => [key, answers[index]]));
    },
  };
}
