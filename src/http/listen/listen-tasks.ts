/** `subscriptions/listen` with `taskIds` (tasks extension): only the caller's own tasks are agreed to. */

import type { Admission } from "../../core/admission.ts";
import type { ModernRequestInfo } from "../../core/era.ts";
import { invalidParams } from "../../core/errors.ts";
import { isObject, own } from "../../core/json.ts";
import type { InboundRequest } from "../../core/jsonrpc.ts";
import { declaresTasks, tasksExtensionRequired } from "../../server/tasks/task-access.ts";
import { chargeRateLimits } from "../admission/admit.ts";
import type { Endpoint } from "../endpoint.ts";

/** The most task ids one listen stream may ask for (each is checked against its task). */
export const MAX_LISTEN_TASK_IDS = 100;

/**
 * Checks the `taskIds` of a listen request and keeps those the caller owns: a task of another
 * caller, tenant or principal, or an unknown id, is left out of the acknowledgement like any
 * filter the server does not honour, so its notifications never reach this stream. Asking for
 * task notifications without declaring the extension is -32021 (extension "Task Status
 * Notifications"). Returns the request with the agreed ids (the same object when it names none).
 */
export async function agreeTaskIds(message: InboundRequest, info: ModernRequestInfo, admission: Admission, endpoint: Endpoint): Promise<InboundRequest> {
  const notifications = message.params ? own(message.params, "notifications") : undefined;
  const taskIds = isObject(notifications) ? own(notifications, "taskIds") : undefined;
  if (taskIds === undefined) return message;
  if (!declaresTasks(info.clientCapabilities)) throw tasksExtensionRequired("Task notifications (notifications.taskIds)");
  if (!Array.isArray(taskIds) || !taskIds.every((id) => typeof id === "string"))
    throw invalidParams(`params.notifications.taskIds must be an array of task ids`);
  const unique = [...new Set(taskIds)];
  if (unique.length > MAX_LISTEN_TASK_IDS)
    throw invalidParams(`params.notifications.taskIds names ${unique.length} tasks; one stream may follow at most ${MAX_LISTEN_TASK_IDS}`);
  // Each id is looked up (a task object each, for ids that prove themselves): each counts as a request.
  await chargeRateLimits(endpoint, admission, unique.length, message.id);
  const gateway = endpoint.tasks;
  const owned = gateway ? await Promise.all(unique.map(async (id) => ((await gateway.get(admission, id)) === undefined ? undefined : id))) : [];
  const agreed = owned.filter((id): id is string => id !== undefined);
  return { ...message, params: { ...message.params, notifications: { ...(notifications as object), taskIds: agreed } } };
}
