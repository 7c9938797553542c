/** The context every handler (tool, prompt, resource) receives: cancellation, progress, logs, input, identity. */

import type { JsonObject, LoggingLevel } from "../../core/types.ts";
import type { ChangeFeed } from "../notifications/change-hub.ts";
import type { Handles } from "../state/handles.ts";
import type { Principal } from "../../core/principal.ts";
import type { TraceCarrier } from "../../core/admission.ts";
import type { CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, InputRequest, ListRootsResult } from "../inputs/input.ts";

export type Era = "legacy" | "modern";

export interface InputOptions {
  /**
   * Names this input in `inputRequests` (2026-07-28). It must stay the same when the handler is
   * run again for the client's retry; the default counts calls (`elicit_1`, `sample_1`, …).
   */
  key?: string;
}

/**
 * The type of `ctx.env`: empty until a project names its Worker's bindings, once, by augmenting it
 * (a module-level type, so every handler sees it without a type parameter):
 *
 * ```ts
 * declare module "edge-mcp" {
 *   interface HandlerEnv extends Env {}
 * }
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the project's augmentation
export interface HandlerEnv {}

export interface HandlerContext {
  /**
   * The bindings of the Worker that runs the handler (its `env`: KV, D1, R2, Durable Objects,
   * secrets, vars), typed by {@link HandlerEnv}. In a tool service, the service Worker's own env.
   */
  readonly env: HandlerEnv;
  /** Aborted when the client cancels the request or goes away (in a task: `tasks/cancel`, or its TTL). */
  readonly signal: AbortSignal;
  /** The revision this request speaks (`2026-07-28`, `2025-11-25`, …). */
  readonly protocolVersion: string;
  /** `modern` for 2026-07-28 (stateless), `legacy` for revisions negotiated with `initialize`. */
  readonly era: Era;
  /** What the client declared it supports (empty when unknown, e.g. a stateless legacy request). */
  readonly clientCapabilities: JsonObject;
  /** The tenant serving this request (`default` in a single-tenant Worker). */
  readonly tenant: string;
  /**
   * The verified caller when the tenant requires auth: issuer, subject and scopes, never the
   * token. A principal is its issuer and subject together: key per-user data by both.
   */
  readonly principal: Principal | undefined;
  /** The W3C trace context of the span this call runs under, when the request is traced (pass it on to join the trace). */
  readonly trace: TraceCarrier | undefined;
  /**
   * The id of the task this call runs in (tasks extension), or undefined for a call answered in
   * its own request.
   */
  readonly taskId: string | undefined;
  /** Announces list changes and resource updates to subscribed clients. */
  readonly changes: ChangeFeed;
  /**
   * State kept between calls under an opaque handle the model passes back as a tool argument
   * (2026-07-28 has no sessions). Handles are bound to the caller and expire.
   */
  readonly handles: Handles;
  /**
   * Reports progress when the client asked for it (a `progressToken`); otherwise does nothing.
   * Values must increase; a value that does not is dropped (the spec forbids sending it).
   */
  progress(progress: number, total?: number, message?: string): void;
  /**
   * Sends a log message to the client when the revision's rules allow it: in 2026-07-28 only if
   * the request named a log level and this one is at least as severe.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /**
   * Asks the user for input through the client. Under 2026-07-28 the first call ends this run
   * with an `input_required` result; the client's retry runs the handler again and this call
   * then returns the user's answer. Throws -32021 when the client lacks the capability.
   */
  elicit(params: ElicitParams, options?: InputOptions): Promise<ElicitResult>;
  /** Asks the client's model for a completion (sampling), with the same flow as {@link elicit}. */
  sample(params: CreateMessageParams, options?: InputOptions): Promise<CreateMessageResult>;
  /** Asks the client for its roots, with the same flow as {@link elicit}. */
  listRoots(options?: InputOptions): Promise<ListRootsResult>;
  /**
   * In a legacy session, ends this request's SSE connection without ending its stream: the client
   * reconnects with `Last-Event-ID` and gets everything sent meanwhile (SEP-1699 polling, useful
   * for long calls behind proxies that cut idle connections). Elsewhere it does nothing.
   */
  closeStream(): void;
  /** Asks for several inputs in one round trip; resolves with every answer, by key. */
  input(requests: Readonly<Record<string, InputRequest>>): Promise<Record<string, unknown>>;
}

/** The context of a tool handler. */
export type ToolContext = HandlerContext;
