/** A listen stream's `taskIds` as an endpoint agrees to them: by its task gateway's serving, or none. */

import type { Admission } from "../../core/admission.ts";
import type { ModernRequestInfo } from "../../core/era.ts";
import { isObject, own } from "../../core/json.ts";
import type { InboundRequest } from "../../core/jsonrpc.ts";
import type { Endpoint } from "../endpoint.ts";

/**
 * A listen request's `taskIds` as this endpoint agrees to them: checked by the task gateway's
 * serving (only the caller's own tasks), or left out of the acknowledgement, like any filter it
 * does not honour, by an endpoint that serves no tasks.
 */
export function agreedTaskIds(
  message: InboundRequest,
  info: ModernRequestInfo,
  admission: Admission,
  endpoint: Endpoint,
): Promise<InboundRequest> | InboundRequest {
  const serving = endpoint.tasks?.serving;
  if (serving) return serving.agree(message, info, admission, endpoint);
  const notifications = message.params ? own(message.params, "notifications") : undefined;
  if (!isObject(notifications) || notifications["taskIds"] === undefined) return message;
  return { ...message, params: { ...message.params, notifications: { ...notifications, taskIds: [] } } };
}
