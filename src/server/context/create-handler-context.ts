/** The handler context built from a request's transport: progress, log and input obey the revision's rules here, once. */

import type { Principal } from "../../core/principal.ts";
import type { TraceCarrier } from "../../core/admission.ts";
import { loggingLevelRank, type JsonObject, type LoggingLevel } from "../../core/types.ts";
import type { ChangeFeed } from "../notifications/change-hub.ts";
import type { Era, HandlerContext, HandlerEnv, InputOptions } from "./handler-context.ts";
import type { CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, InputChannel, InputRequest, ListRootsResult } from "../inputs/input.ts";
import { createHandles, type Handles } from "../state/handles.ts";
import { DORMANT } from "../../core/shape-anchor.ts";
import type { TransportContext } from "./transport.ts";

/** Builds a handler's context: progress, log and input obey the revision's rules here, once. */
export function createHandlerContext(transport: TransportContext, inputs: InputChannel): HandlerContext {
  return new RequestHandlerContext(transport, inputs);
}

/** Makes a context just built run under `trace` (a code-mode inner call's own span): what a tool service it calls joins. */
export function runningUnder(ctx: HandlerContext, trace: TraceCarrier): HandlerContext {
  RequestHandlerContext.runUnder(ctx, trace);
  return ctx;
}

/** True when `ctx` runs on an endpoint in development (a tool's thrown message may reach the client). */
export function inDevelopment(ctx: object): boolean {
  return RequestHandlerContext.transportOf(ctx)?.endpoint.development === true;
}

/** Makes handler contexts. */
export type HandlerContextFactory = (transport: TransportContext, inputs: InputChannel) => HandlerContext;

/**
 * A factory of handler contexts with members added by features (see `FeatureParts.context`): a
 * subclass made once per server whose added members are getters computed on first read.
 */
export function handlerContextFactory(members: ReadonlyMap<string, (transport: TransportContext) => unknown>): HandlerContextFactory {
  if (members.size === 0) return createHandlerContext;
  // Its own dormant context: a subclass's instances have hidden classes of their own (core/shape-anchor.ts).
  class FeatureHandlerContext extends RequestHandlerContext {
    static override readonly dormant: RequestHandlerContext = new FeatureHandlerContext(DORMANT, DORMANT);
  }
  for (const [name, compute] of members) {
    if (name in RequestHandlerContext.prototype) throw new Error(`a feature adds ctx.${name}, which the handler context already has`);
    Object.defineProperty(FeatureHandlerContext.prototype, name, {
      configurable: true,
      get(this: RequestHandlerContext) {
        const value = compute(RequestHandlerContext.transportOf(this) as TransportContext);
        Object.defineProperty(this, name, { value, enumerable: false });
        return value;
      },
    });
  }
  return (transport, inputs) => new FeatureHandlerContext(transport, inputs);
}

/** `ctx.env` of an endpoint given no env (an app outside Workers). */
const NO_BINDINGS: object = Object.freeze({});

// A class rather than an object of closures: one allocation per request on the hot path.
class RequestHandlerContext implements HandlerContext {
  readonly #transport: TransportContext;
  readonly #inputs: InputChannel;
  #lastProgress = -Infinity;
  #counters: Map<string, number> | undefined;
  #handles: Handles | undefined;

  /** The trace context the handler runs under when it is not the request's (see {@link runningUnder}). */
  #trace: TraceCarrier | undefined;

  static runUnder(ctx: object, trace: TraceCarrier): void {
    if (#transport in ctx) ctx.#trace = trace;
  }

  static transportOf(ctx: object): TransportContext | undefined {
    return #transport in ctx ? ctx.#transport : undefined;
  }

  constructor(transport: TransportContext, inputs: InputChannel) {
    this.#transport = transport;
    this.#inputs = inputs;
  }

  /** A dormant context, kept for good so that the class's hidden class outlives a major GC (core/shape-anchor.ts). */
  static readonly dormant: RequestHandlerContext = new RequestHandlerContext(DORMANT, DORMANT);

  get changes(): ChangeFeed {
    return this.#transport.changes;
  }

  get env(): HandlerEnv {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- HandlerEnv is empty here; a project's declaration fills it
    return (this.#transport.endpoint.env ?? NO_BINDINGS) as HandlerEnv;
  }

  get signal(): AbortSignal {
    return this.#transport.signal;
  }

  get protocolVersion(): string {
    return this.#transport.protocolVersion;
  }

  get era(): Era {
    return this.#transport.era;
  }

  get clientCapabilities(): JsonObject {
    return this.#transport.clientCapabilities;
  }

  get tenant(): string {
    return this.#transport.admission.tenant;
  }

  get principal(): Principal | undefined {
    return this.#transport.admission.principal;
  }

  get trace(): TraceCarrier | undefined {
    return this.#trace ?? this.#transport.admission.trace;
  }

  get taskId(): string | undefined {
    return this.#transport.taskId;
  }

  get handles(): Handles {
    this.#handles ??= createHandles(this.#transport.endpoint.handleStore, this.#transport.admission, this.#transport.endpoint.quotaCounter);
    return this.#handles;
  }

  progress(progress: number, total?: number, message?: string): void {
    const token = this.#transport.progressToken;
    // Progress MUST increase (2025-11-25 progress); an equal or lower value is not sent.
    if (token === undefined || this.#transport.signal.aborted || !(progress > this.#lastProgress)) return;
    this.#lastProgress = progress;
    const params: JsonObject = { progressToken: token, progress };
    if (total !== undefined) params["total"] = total;
    if (message !== undefined) params["message"] = message;
    this.#transport.notify("notifications/progress", params);
  }

  log(level: LoggingLevel, data: unknown, logger?: string): void {
    const rank = loggingLevelRank(level);
    const min = this.#transport.minLogRank;
    if (min === undefined || rank === undefined || rank < min || this.#transport.signal.aborted) return;
    const params: JsonObject = { level, data };
    if (logger !== undefined) params["logger"] = logger;
    this.#transport.notify("notifications/message", params);
  }

  elicit(params: ElicitParams, options?: InputOptions): Promise<ElicitResult> {
    return this.#ask("elicit", { method: "elicitation/create", params }, options?.key);
  }

  sample(params: CreateMessageParams, options?: InputOptions): Promise<CreateMessageResult> {
    return this.#ask("sample", { method: "sampling/createMessage", params }, options?.key);
  }

  listRoots(options?: InputOptions): Promise<ListRootsResult> {
    return this.#ask("roots", { method: "roots/list", params: {} }, options?.key);
  }

  closeStream(): void {
    this.#transport.closeStream?.();
  }

  input(requests: Readonly<Record<string, InputRequest>>): Promise<Record<string, unknown>> {
    return this.#inputs.request(requests);
  }

  async #ask<T>(prefix: string, input: InputRequest, key: string | undefined): Promise<T> {
    let name = key;
    if (name === undefined) {
      this.#counters ??= new Map();
      const n = (this.#counters.get(prefix) ?? 0) + 1;
      this.#counters.set(prefix, n);
      name = `${prefix}_${n}`;
    }
    const answers = await this.#inputs.request({ [name]: input });
    return answers[name] as T;
  }
}
