/** What the transport knows about one request, and the handler context built from it. */

import type { Admission } from "../core/admission.ts";
import type { RequestId } from "../core/jsonrpc.ts";
import type { Principal } from "../core/principal.ts";
import { loggingLevelRank, type JsonObject, type LoggingLevel } from "../core/types.ts";
import type { ChangeFeed } from "./change-hub.ts";
import type { CompiledTool } from "./compile-tool.ts";
import type { Era, HandlerContext, InputOptions } from "./handler-context.ts";
import type { CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, InputChannel, InputRequest, ListRootsResult } from "./input.ts";
import { createHandles, type HandleStore, type Handles } from "./handles.ts";
import type { QuotaCounter } from "./quotas.ts";
import type { StateSealer } from "./request-state.ts";
import type { TaskAccess } from "./task-access.ts";
import type { ToolFilter } from "./tool-filter.ts";

/** What the transport layer knows about one request. */
export interface TransportContext {
  era: Era;
  protocolVersion: string;
  clientCapabilities: JsonObject;
  /** Rank of the least severe level the client wants; undefined = send no log messages. */
  minLogRank: number | undefined;
  progressToken: RequestId | undefined;
  signal: AbortSignal;
  /** Sends a notification related to this request (on its SSE stream), or drops it. */
  notify(method: string, params: JsonObject): void;
  /** Signs and checks MRTR `requestState`. */
  sealer: StateSealer;
  /** What admission decided: tenant, principal, the caller key that binds state, limits and quotas. */
  admission: Admission;
  /** The tool of a `tools/call`, when admission already resolved it. */
  tool?: CompiledTool | undefined;
  /** The change feed of this request, when notifications travel through a relay (other isolates). */
  changes?: ChangeFeed | undefined;
  /** The revisions this endpoint serves (all when absent): `initialize` negotiates among them. */
  versions?: ReadonlySet<string> | undefined;
  /** A channel for server→client requests, when the transport has one (a legacy session). */
  inputs?: InputChannel | undefined;
  /** Ends the request's SSE connection but not its stream (resumable sessions only). */
  closeStream?(): void;
  /** True inside a legacy session (server→client requests and notification streams exist). */
  sessionful?: boolean | undefined;
  /** Where `ctx.handles` keeps state (a Durable Object namespace on Workers). */
  handleStore?: HandleStore | undefined;
  /** Where live handles are counted against the admission's quotas. */
  quotas?: QuotaCounter | undefined;
  /**
   * Admits a call of another tool by name on this caller's behalf, exactly as a `tools/call` of it
   * would be admitted (scopes 403, rate limits 429, unknown -32602), and returns the tool. For
   * code that calls tools for the model, such as a `call_tool` of tool search.
   */
  admitTool?(name: string): Promise<CompiledTool>;
  /** The caller's tasks, when the endpoint runs tasks (tasks extension). */
  tasks?: TaskAccess | undefined;
  /** The id of the task this request runs in, inside a task. */
  taskId?: string | undefined;
  /** Which tools this caller may see (auth tenants): lists and tool search show only those. */
  readonly toolFilter?: ToolFilter | undefined;
}

/**
 * The transport behind a handler context built by {@link createHandlerContext}, for the runtime's
 * own tools (tool search reads the caller's {@link ToolFilter}); undefined for any other object.
 */
export function transportOf(ctx: HandlerContext): TransportContext | undefined {
  return RequestHandlerContext.transportOf(ctx);
}

/** Builds a handler's context: progress, log and input obey the revision's rules here, once. */
export function createHandlerContext(transport: TransportContext, changes: ChangeFeed, inputs: InputChannel): HandlerContext {
  return new RequestHandlerContext(transport, changes, inputs);
}

// A class rather than an object of closures: one allocation per request on the hot path.
class RequestHandlerContext implements HandlerContext {
  readonly #transport: TransportContext;
  readonly #inputs: InputChannel;
  readonly changes: ChangeFeed;
  #lastProgress = -Infinity;
  #counters: Map<string, number> | undefined;
  #handles: Handles | undefined;

  static transportOf(ctx: object): TransportContext | undefined {
    return #transport in ctx ? ctx.#transport : undefined;
  }

  constructor(transport: TransportContext, changes: ChangeFeed, inputs: InputChannel) {
    this.#transport = transport;
    this.changes = changes;
    this.#inputs = inputs;
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

  get taskId(): string | undefined {
    return this.#transport.taskId;
  }

  get handles(): Handles {
    this.#handles ??= createHandles(this.#transport.handleStore, this.#transport.admission, this.#transport.quotas);
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
