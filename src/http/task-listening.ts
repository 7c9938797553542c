/**
 * Where a listen stream's `taskIds` are agreed to: by the tasks' own check (listen-tasks.ts), which
 * comes with tasks (tasks-wiring.ts); an endpoint that runs no tasks leaves them out of the
 * acknowledgement, like any filter it does not honour.
 */

import type { ModernRequestInfo } from "../core/era.ts";
import type { Admission } from "../core/admission.ts";
import { isObject, own } from "../core/json.ts";
import type { InboundRequest } from "../core/jsonrpc.ts";
import type { Endpoint } from "./endpoint.ts";

/** The agreement of a listen request's `taskIds`; returns the request with the agreed ids. */
export type TaskIdAgreement = (message: InboundRequest, info: ModernRequestInfo, admission: Admission, endpoint: Endpoint) => Promise<InboundRequest>;

/** The agreement, once tasks are wired into this isolate (a task gateway's module, or tasks()). */
export const taskListening: { agree?: TaskIdAgreement } = {};

/** A listen request's `taskIds` as an endpoint agrees to them: all checked with tasks, none without. */
export function agreedTaskIds(
  message: InboundRequest,
  info: ModernRequestInfo,
  admission: Admission,
  endpoint: Endpoint,
): Promise<InboundRequest> | InboundRequest {
  if (endpoint.tasks && taskListening.agree) return taskListening.agree(message, info, admission, endpoint);
  const notifications = message.params ? own(message.params, "notifications") : undefined;
  if (!isObject(notifications) || notifications["taskIds"] === undefined) return message;
  return { ...message, params: { ...message.params, notifications: { ...notifications, taskIds: [] } } };
}
