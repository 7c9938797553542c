/**
 * The transport contract: what a transport (an HTTP exchange, a session, a task) tells the server
 * about one request, and what its endpoint shares with every request, by reference.
 */

import type { Admission, TraceCarrier } from "../../core/admission.ts";
import type { ProtocolError } from "../../core/errors.ts";
import type { RequestId } from "../../core/jsonrpc.ts";
import type { JsonObject } from "../../core/types.ts";
import type { ChangeFeed } from "../notifications/change-hub.ts";
import type { HandleStore } from "../state/handles.ts";
import type { QuotaCounter } from "../state/quotas.ts";
import type { StateSealer } from "../state/request-state.ts";
import type { Era } from "./handler-context.ts";
import type { InputChannel } from "../inputs/input.ts";

/** What one endpoint shares with every request it serves; the HTTP layer's Endpoint is one. */
export interface EndpointServices {
  /** Signs and checks MRTR `requestState` and caller-bound cursors. */
  readonly sealer: StateSealer;
  /** The revisions this endpoint serves (all when absent): `initialize` negotiates among them. */
  readonly revisions: ReadonlySet<string> | undefined;
  /** Where `ctx.handles` keeps state (a Durable Object namespace on Workers). */
  readonly handleStore: HandleStore | undefined;
  /** Where live handles are counted against the admission's quotas. */
  readonly quotaCounter: QuotaCounter | undefined;
  /** The Worker's bindings (its `env`), set once per endpoint: what handlers read as `ctx.env`. */
  readonly env?: object | undefined;
  /** Development: a tool's thrown error shows its message to the client (otherwise only a correlation id). */
  readonly development?: boolean | undefined;
}

/**
 * What the transport layer knows about one request. Features widen it from their own folder with
 * what they need of a transport (`declare module`): tools add the tool of a call, the admission of
 * other tools and the caller's tool filter (tools/tool-view.ts); tasks add the caller's tasks.
 */
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
  /** What the endpoint shares with every request of it, by reference. */
  readonly endpoint: EndpointServices;
  /** What admission decided: tenant, principal, the caller key that binds state, limits and quotas. */
  admission: Admission;
  /** Where this request's change announcements go: the endpoint's relay (every isolate) or the server's hub. */
  readonly changes: ChangeFeed;
  /** A channel for server→client requests, when the transport has one (a legacy session). */
  inputs?: InputChannel | undefined;
  /** Ends the request's SSE connection but not its stream (resumable sessions only). */
  closeStream?(): void;
  /** True inside a legacy session (server→client requests and notification streams exist). */
  sessionful?: boolean | undefined;
  /** The id of the legacy session this request runs in (what a server-sent notification of the session is addressed to). */
  sessionId?: string | undefined;
  /** The id of the task this request runs in, inside a task. */
  taskId?: string | undefined;
  /** Traces and meters a tool called inside this request (code mode's inner calls), when the request is observed. */
  observeCall?: ((tool: string) => ObservedCall) | undefined;
}

/** A tool called inside a request (from a code-mode program), as traces and usage see it. */
export interface ObservedCall {
  /** The trace context of the call's own span, when it has one: what the tool runs under (a tool service joins the trace there). */
  readonly trace?: TraceCarrier | undefined;
  /** It ended: refused by admission (`admitted` false) or run, with its error or a tool error (a result with isError). */
  end(admitted: boolean, failure: ProtocolError | undefined, toolError: boolean): void;
}
