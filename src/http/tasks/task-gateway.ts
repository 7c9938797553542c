/** How the stateless edge reaches tasks: the interface a task host implements, and its settings. */

import type { Admission, QuotaLimit } from "../../core/admission.ts";
import { ErrorCode, ProtocolError } from "../../core/errors.ts";
import type { ModernRequestInfo } from "../../core/era.ts";
import type { InboundRequest } from "../../core/jsonrpc.ts";
import type { JsonObject } from "../../core/types.ts";
import type { EndpointServices } from "../../server/context/transport.ts";
import type { McpServer } from "../../server/server.ts";
import type { TaskAccess, TaskStart } from "../../server/tasks/task-access.ts";

/** How long tasks live and how often clients should poll them. */
export interface TaskSettings {
  /** Lifetime from creation, in ms, after which a task and its result are deleted (default 1 hour). */
  ttlMs?: number;
  /** Suggested polling interval, in ms (default 1000). */
  pollIntervalMs?: number;
}

// Written out (not `60 * 60_000`): an unminified bundle keeps a product it does not fold, used or not.
/** A task's default lifetime: an hour. */
export const DEFAULT_TASK_TTL_MS = 3_600_000;
export const DEFAULT_TASK_POLL_INTERVAL_MS = 1000;
/** The longest a task may live: a week. */
export const MAX_TASK_TTL_MS = 604_800_000;

/** Fills in the defaults and bounds of task settings. */
export function resolveTaskSettings(settings: TaskSettings | undefined): Required<TaskSettings> {
  const ttlMs = Math.min(Math.max(Math.floor(settings?.ttlMs ?? DEFAULT_TASK_TTL_MS), 1000), MAX_TASK_TTL_MS);
  const pollIntervalMs = Math.min(Math.max(Math.floor(settings?.pollIntervalMs ?? DEFAULT_TASK_POLL_INTERVAL_MS), 1), ttlMs);
  return { ttlMs, pollIntervalMs };
}

/**
 * Where tasks live (one Durable Object per task on Workers). Every call names the admission of
 * the request; a task belongs to the caller whose admission created it, and reads as unknown to
 * every other caller, tenant or principal.
 */
export interface TaskGateway {
  /**
   * Creates a task bound to the caller and starts it. Resolves with its first state (the Task
   * fields) only once it is stored; throws a ProtocolError (429) when the caller is over its quota.
   */
  create(admission: Admission, start: TaskStart): Promise<JsonObject>;
  get(admission: Admission, taskId: string): Promise<JsonObject | undefined>;
  update(admission: Admission, taskId: string, responses: JsonObject): Promise<boolean>;
  cancel(admission: Admission, taskId: string): Promise<boolean>;
  /**
   * What serving tasks takes besides the gateway, handed to the endpoint with it: the server with
   * the tasks feature and the agreement of a listen stream's task ids. The Workers and memory
   * gateways carry it; give a gateway of your own `serving: taskServing`.
   */
  readonly serving?: TaskServing | undefined;
}

/** The tasks feature and the agreement of listen task ids, as a task gateway hands them to an endpoint. */
export interface TaskServing {
  /** `server` with the tasks feature: itself when it has it or no task tools, else compiled once more from its options. */
  serverFor(server: McpServer): McpServer;
  /**
   * A listen request's `taskIds` as agreed to: only the caller's own tasks, each look-up counted
   * against the caller's rate limits. `endpoint` is the HTTP layer's `Endpoint` (named by its
   * part here, as the endpoint's module names this one).
   */
  agree(
    message: InboundRequest,
    info: ModernRequestInfo,
    admission: Admission,
    endpoint: EndpointServices & { readonly tasks: TaskGateway | undefined },
  ): Promise<InboundRequest>;
}

/** The tasks of one admitted caller, as the method handlers reach them. */
export function callerTasks(gateway: TaskGateway, admission: Admission): TaskAccess {
  return {
    create: (start) => gateway.create(admission, start),
    get: (taskId) => gateway.get(admission, taskId),
    update: (taskId, responses) => gateway.update(admission, taskId, responses),
    cancel: (taskId) => gateway.cancel(admission, taskId),
  };
}

/** 429 for a `tools/call` whose task would put the caller (or the tenant) over its task quota. */
export function tooManyTasks(limit: QuotaLimit): ProtocolError {
  const { perPrincipal, perTenant } = limit;
  return new ProtocolError(
    ErrorCode.RateLimited,
    `Too many live tasks: a caller may hold ${perPrincipal} (and this server ${perTenant}) at once; wait for finished ones to expire (each lives ttlMs after its creation)`,
    { status: 429, data: { quota: "tasks", perPrincipal, perTenant }, headers: { "retry-after": "60" } },
  );
}
