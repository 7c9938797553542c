/** One request's exchange: the transport context its handler sees, and the JSON or SSE answer. */

import type { Admission } from "../core/admission.ts";
import type { ProtocolError } from "../core/errors.ts";
import type { RequestId } from "../core/jsonrpc.ts";
import type { JsonObject } from "../core/types.ts";
import type { ChangeFeed } from "../server/notifications/change-hub.ts";
import type { CompiledTool } from "../server/tools/compile-tool.ts";
import type { Era } from "../server/context/handler-context.ts";
import type { InputChannel } from "../server/inputs/input.ts";
import type { MethodResult } from "../server/raw-result.ts";
import type { ObservedCall, TransportContext } from "../server/context/transport.ts";
import type { TaskAccess } from "../server/tasks/task-access.ts";
import type { ToolFilter } from "../server/tools/tool-filter.ts";
import { admitTool } from "./admission/admit.ts";
import { logMessage } from "./debug-log.ts";
import type { Endpoint } from "./endpoint.ts";
import type { ExchangeInit, ResponseStream } from "./exchange-init.ts";
import { errorMessage, jsonResponse, resultMessage, toProtocolError } from "./responses.ts";
import { SSE_HEADERS, SseStream } from "./sse-stream.ts";
import { callerTasks } from "./tasks/task-gateway.ts";
import { DORMANT } from "../core/shape-anchor.ts";

export type { ResponseMode } from "./endpoint.ts";
export type { ExchangeInit, ResponseStream } from "./exchange-init.ts";

type Outcome = { ok: true; json: string } | { ok: false; error: ProtocolError };

const CLIENT_GONE = "The client closed the response stream";

/**
 * Implements the handler's transport context. Its abort signal is created only if the handler
 * reads it (most never do); notifications sent before the result switch the answer to SSE.
 */
export class Exchange implements TransportContext {
  readonly era: Era;
  readonly protocolVersion: string;
  readonly clientCapabilities: JsonObject;
  readonly minLogRank: number | undefined;
  readonly progressToken: RequestId | undefined;
  readonly admission: Admission;
  readonly tool: CompiledTool | undefined;
  readonly changes: ChangeFeed;
  readonly inputs: InputChannel | undefined;
  readonly sessionful: boolean;
  readonly sessionId: string | undefined;
  readonly endpoint: Endpoint;
  /** Set for an observed request only: see TransportContext. */
  observeCall: ((tool: string) => ObservedCall) | undefined;
  readonly #request: Request;
  readonly #openStream: (onCancel: () => void) => ResponseStream;
  readonly #cancelOnDisconnect: boolean;
  #controller: AbortController | undefined;
  #cancelled: unknown;
  #stream: ResponseStream | undefined;
  #buffered: string[] | undefined;
  // The waiting promise's own resolve, never a closure over respond(): a closure would keep the
  // serialised answer reachable, so every answer would survive young-generation GC (measured).
  #wake: ((streamed: boolean) => void) | undefined;
  #disconnectRequested = false;
  #promotion: ReturnType<typeof setTimeout> | undefined;
  // The handler's outcome once respond() ran; `settled` and `finished` are made from it when read
  // (a streamed answer's observer reads them; an unobserved request pays for neither).
  #outcome: Outcome | Promise<Outcome> | undefined;
  /** Whether the handler has settled, and its failure: what an observer reads without waiting. */
  #done = false;
  #failure: ProtocolError | undefined;
  #finished: Promise<void> | undefined;
  #settled: Promise<ProtocolError | undefined> | undefined;
  #bytesOut = 0;
  #toolError = false;

  constructor(request: Request, endpoint: Endpoint, init: ExchangeInit) {
    this.#request = request;
    this.endpoint = endpoint;
    this.era = init.era;
    this.protocolVersion = init.protocolVersion;
    this.clientCapabilities = init.clientCapabilities;
    this.minLogRank = init.minLogRank;
    this.progressToken = init.progressToken;
    this.admission = init.admission;
    this.tool = init.tool;
    this.changes = init.changes ?? endpoint.server.changes;
    this.inputs = init.inputs;
    this.sessionful = init.sessionful ?? false;
    this.sessionId = init.sessionId;
    this.#cancelOnDisconnect = init.cancelOnDisconnect ?? true;
    // Keep-alive writes are how a disconnect is noticed: only where a disconnect cancels.
    this.#openStream = init.openStream ?? ((onCancel) => new SseStream(onCancel, { keepAliveMs: this.#cancelOnDisconnect ? endpoint.keepAliveMs : 0 }));
    // Always set (undefined when unobserved): every exchange has the same shape.
    this.observeCall = init.observeCall;
  }

  /**
   * A dormant exchange, kept for good so that the class's hidden class outlives a major GC
   * (core/shape-anchor.ts). `changes` is given so that the endpoint placeholder is not read.
   */
  static readonly dormant = new Exchange(DORMANT, DORMANT, {
    era: "modern",
    protocolVersion: "",
    clientCapabilities: {},
    minLogRank: undefined,
    progressToken: undefined,
    admission: DORMANT,
    changes: DORMANT,
  });

  get tasks(): TaskAccess | undefined {
    const gateway = this.endpoint.tasks;
    return gateway && callerTasks(gateway, this.admission);
  }

  admitTool(name: string): Promise<CompiledTool> {
    try {
      return Promise.resolve(admitTool(this.endpoint, this.admission, this.#request, name, undefined, undefined, true));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The tools this caller may call (auth endpoints): its scopes and grants, or the public tools for an anonymous caller. */
  get toolFilter(): ToolFilter | undefined {
    return this.endpoint.authorizer?.toolFilter?.(this.admission.principal);
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      const controller = new AbortController();
      this.#controller = controller;
      // In a 2025 session a disconnect is not a cancellation (the client resumes the stream).
      const upstream = this.#cancelOnDisconnect ? (this.#request.signal as AbortSignal | undefined) : undefined;
      if (this.#cancelled !== undefined) controller.abort(this.#cancelled);
      else if (upstream?.aborted) controller.abort(upstream.reason);
      else upstream?.addEventListener("abort", () => controller.abort(upstream.reason), { once: true });
      this.#armPromotion();
    }
    return this.#controller.signal;
  }

  notify(method: string, params: JsonObject): void {
    if (this.endpoint.responseMode === "json") return;
    this.sendMessage(JSON.stringify({ jsonrpc: "2.0", method, params }));
  }

  /** Sends a message related to this request before its result; the answer becomes SSE. */
  sendMessage(message: string): void {
    const json = this.#out(message);
    if (this.#stream) {
      this.#stream.send(json);
      return;
    }
    (this.#buffered ??= []).push(json);
    this.#wake?.(true);
  }

  /**
   * Ends the SSE connection of this request without ending its stream (SEP-1699 polling), when
   * the stream is resumable (a legacy session); the client reconnects with `Last-Event-ID`.
   */
  closeStream(): void {
    if (this.endpoint.responseMode === "json") return;
    if (this.#stream) {
      this.#stream.disconnect?.();
      return;
    }
    this.#disconnectRequested = true;
    this.#buffered ??= [];
    this.#wake?.(true);
  }

  /**
   * Runs the handler and answers: JSON when it finishes without notifying first, else SSE. A
   * handler that answers without a promise is answered at once (no wait: the hot path).
   */
  respond(id: RequestId, run: (ctx: TransportContext) => MethodResult | Promise<MethodResult>): Response | Promise<Response> {
    let result: MethodResult | Promise<MethodResult>;
    try {
      result = run(this);
    } catch (error) {
      return this.#answerNow(id, this.#failed(id, error));
    }
    if (!(result instanceof Promise)) return this.#answerNow(id, this.#succeeded(id, result));
    const outcome = result.then(
      (settled) => this.#succeeded(id, settled),
      (error: unknown) => this.#failed(id, error),
    );
    this.#outcome = outcome;
    return this.#answerLater(id, outcome);
  }

  #succeeded(id: RequestId, result: MethodResult): Outcome {
    // A tool's own failure (a result with isError: true) is what observers count as a tool error.
    if ((result as { isError?: unknown } | null)?.isError === true) this.#toolError = true;
    const json = this.#out(resultMessage(id, result));
    this.#done = true;
    return { ok: true, json };
  }

  #failed(id: RequestId, error: unknown): Outcome {
    const protocolError = toProtocolError(error);
    this.#out(errorMessage(protocolError, id));
    this.#failure = protocolError;
    this.#done = true;
    return { ok: false, error: protocolError };
  }

  /** The answer of a handler that has already finished: JSON unless it notified first (or SSE is the mode). */
  #answerNow(id: RequestId, done: Outcome): Response {
    this.#outcome = done;
    if (this.endpoint.responseMode !== "sse" && this.#buffered === undefined) return this.#json(id, done);
    return this.#streamed(id, done);
  }

  async #answerLater(id: RequestId, outcome: Promise<Outcome>): Promise<Response> {
    if (this.endpoint.responseMode !== "sse") {
      // Only the handler's outcome resolves this with false, and it leaves `done` set.
      let done: Outcome | undefined;
      const streamed = await new Promise<boolean>((resolve) => {
        this.#wake = resolve;
        void outcome.then((settled) => {
          done = settled;
          resolve(this.#buffered !== undefined);
        });
        if (this.#buffered !== undefined) resolve(true);
        else this.#armPromotion();
      });
      this.#wake = undefined;
      if (this.#promotion !== undefined) clearTimeout(this.#promotion);
      if (!streamed && done !== undefined) return this.#json(id, done);
    }
    return this.#streamed(id, outcome);
  }

  #json(id: RequestId, done: Outcome): Response {
    // A request the client cancelled gets no response (2025-11-25 cancellation): an empty stream.
    if (this.#cancelled !== undefined) return new Response(null, { status: 200, headers: SSE_HEADERS });
    // An error's headers go too: a tool admitted by a handler (call_tool) gets the same 403 challenge or Retry-After.
    return done.ok ? jsonResponse(done.json) : jsonResponse(errorMessage(done.error, id), done.error.status, done.error.headers);
  }

  /** The SSE answer: what was sent before the result, then the result once `outcome` is known. */
  #streamed(id: RequestId, outcome: Outcome | Promise<Outcome>): Response {
    const stream = this.#openStream(() => this.#cancel(new DOMException(CLIENT_GONE, "AbortError")));
    this.#stream = stream;
    for (const json of this.#buffered ?? []) stream.send(json);
    this.#buffered = undefined;
    if (this.#disconnectRequested) queueMicrotask(() => stream.disconnect?.());
    const finish = (done: Outcome): void => {
      // A request the client cancelled gets no response (2025-11-25 cancellation).
      if (this.#cancelled === undefined) stream.send(done.ok ? done.json : errorMessage(done.error, id));
      stream.close();
    };
    // After the disconnect asked for above, as when the handler finishes later.
    if (outcome instanceof Promise || this.#disconnectRequested) void Promise.resolve(outcome).then(finish);
    else finish(outcome);
    return stream.response;
  }

  /** Settles when the handler has finished (its result may still be streaming out). */
  get finished(): Promise<void> {
    if (this.#outcome === undefined) return Promise.resolve();
    return (this.#finished ??= this.settled.then(() => undefined));
  }

  /** Settles like {@link finished}, with the handler's error if it failed (what observers record). */
  get settled(): Promise<ProtocolError | undefined> {
    if (this.#outcome === undefined) return Promise.resolve(undefined);
    return (this.#settled ??= Promise.resolve(this.#outcome).then((done) => (done.ok ? undefined : done.error)));
  }

  /** Whether the handler has settled (its result may still be streaming out): then {@link failure} is known. */
  get done(): boolean {
    return this.#done;
  }

  /** The handler's error once {@link done}, if it failed (what observers record). */
  get failure(): ProtocolError | undefined {
    return this.#failure;
  }

  /** Characters of the JSON-RPC messages this exchange wrote (what usage metering counts out). */
  get bytesOut(): number {
    return this.#bytesOut;
  }

  /** Whether the handler answered a tool result with `isError: true`. */
  get toolError(): boolean {
    return this.#toolError;
  }

  /** Aborts the handler's signal (client cancellation). */
  cancel(reason: unknown): void {
    this.#cancel(reason);
  }

  #cancel(reason: unknown): void {
    if (this.#cancelled !== undefined) return;
    this.#cancelled = reason;
    this.#controller?.abort(reason);
  }

  /**
   * In `auto` mode, a handler that reads its signal and is still running after the keep-alive
   * interval gets an SSE answer: only a write reveals a client that went away (workerd aborts
   * request.signal when a write to the connection fails), and a JSON answer writes nothing until
   * the end. Handlers that never read the signal keep their JSON answer and pay for no timer.
   */
  #armPromotion(): void {
    const { responseMode, keepAliveMs } = this.endpoint;
    if (this.#wake === undefined || this.#promotion !== undefined || this.#controller === undefined) return;
    if (!this.#cancelOnDisconnect || responseMode !== "auto" || keepAliveMs <= 0) return;
    this.#promotion = setTimeout(() => this.#wake?.(true), keepAliveMs);
  }

  #out(json: string): string {
    this.#bytesOut += json.length;
    if (this.endpoint.debug) logMessage("out", json);
    return json;
  }
}
