/** Reaching tasks from the Worker: task ids, and the calls to each task's Durable Object. */

import type { Admission } from "../core/admission.ts";
import { randomToken } from "../core/bytes.ts";
import { DefinitionError } from "../core/definition-error.ts";
import type { JsonObject } from "../core/types.ts";
import { resolveTaskSettings, tooManyTasks, type TaskGateway, type TaskSettings } from "../http/task-gateway.ts";
import type { TaskStart } from "../server/tasks/task-access.ts";
import type { CreateOutcome } from "../tasks/task-engine.ts";

/** What the Worker calls on a task object (RPC). */
export interface TaskObjectRpc {
  create(taskId: string, admission: Admission, start: TaskStart, settings: Required<TaskSettings>): Promise<CreateOutcome>;
  get(taskId: string, caller: string): Promise<JsonObject | undefined>;
  update(taskId: string, caller: string, responses: JsonObject): Promise<boolean>;
  cancel(taskId: string, caller: string): Promise<boolean>;
}

/** 192 random bits, base64url: anything else is refused before it can wake an object. */
const TASK_ID = /^[A-Za-z0-9_-]{32}$/;

/**
 * A {@link TaskGateway} over the MCP_TASKS namespace: the task id (192 random bits) names its
 * object. Every call passes the caller key of its admission, which the object compares with the
 * one that created the task.
 */
export function durableTaskGateway(namespace: DurableObjectNamespace, settings?: TaskSettings): TaskGateway {
  if (typeof namespace?.idFromName !== "function")
    throw new DefinitionError("MCP_TASKS must be a Durable Object namespace binding of the class from createTaskObject()");
  const resolved = resolveTaskSettings(settings);
  const stub = (taskId: string) => namespace.get(namespace.idFromName(taskId)) as unknown as TaskObjectRpc;
  return {
    async create(admission, start) {
      const taskId = randomToken(24);
      const outcome = await stub(taskId).create(taskId, admission, start, resolved);
      if (outcome.ok) return outcome.task;
      throw tooManyTasks(outcome.quota);
    },
    get: async (admission, taskId) => (TASK_ID.test(taskId) ? stub(taskId).get(taskId, admission.caller) : undefined),
    update: async (admission, taskId, responses) => TASK_ID.test(taskId) && stub(taskId).update(taskId, admission.caller, responses),
    cancel: async (admission, taskId) => TASK_ID.test(taskId) && stub(taskId).cancel(taskId, admission.caller),
  };
}
