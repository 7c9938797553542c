/** Reaching tasks from the Worker: task ids that prove themselves, and the calls to each task's Durable Object. */

import type { Admission } from "../../core/admission.ts";
import { randomToken } from "../../core/bytes.ts";
import { DefinitionError } from "../../core/definition-error.ts";
import type { JsonObject } from "../../core/types.ts";
import { resolveTaskSettings, tooManyTasks, type TaskGateway, type TaskSettings } from "../../http/tasks/task-gateway.ts";
import type { TaskStart } from "../../server/tasks/task-access.ts";
import type { CreateOutcome } from "../../tasks/task-engine.ts";
import { taskServing } from "../../http/tasks/task-serving.ts";

/** What the Worker calls on a task object (RPC). */
export interface TaskObjectRpc {
  create(taskId: string, admission: Admission, start: TaskStart, settings: Required<TaskSettings>): Promise<CreateOutcome>;
  get(taskId: string, caller: string): Promise<JsonObject | undefined>;
  update(taskId: string, caller: string, responses: JsonObject): Promise<boolean>;
  cancel(taskId: string, caller: string): Promise<boolean>;
}

const SECRET = /^[A-Za-z0-9_-]{32}$/;

/**
 * The object a task id names, or undefined for an id this namespace did not make. A task id is
 * `<object id>.<secret>`, like a session id: `idFromString` checks the object id's keyed tag (the
 * namespace's own MAC, computed in the Worker, no object reached), so a made-up id is refused
 * before any object is touched, in every isolate, with no secret to configure; the 192-bit
 * secret, compared by the object with the id it stored, keeps a leaked object id useless.
 */
export function taskObjectId(namespace: DurableObjectNamespace, taskId: string): DurableObjectId | undefined {
  const dot = taskId.indexOf(".");
  if (dot !== 64 || !SECRET.test(taskId.slice(dot + 1))) return undefined;
  try {
    return namespace.idFromString(taskId.slice(0, dot));
  } catch {
    return undefined;
  }
}

/**
 * A {@link TaskGateway} over the MCP_TASKS namespace: the task id names its object (see
 * {@link taskObjectId}). Every call passes the caller key of its admission, which the object
 * compares with the one that created the task.
 */
export function durableTaskGateway(namespace: DurableObjectNamespace, settings?: TaskSettings): TaskGateway {
  if (typeof namespace?.idFromString !== "function" || typeof namespace.newUniqueId !== "function")
    throw new DefinitionError("MCP_TASKS must be a Durable Object namespace binding of the class from createTaskObject()");
  const resolved = resolveTaskSettings(settings);
  const stub = (id: DurableObjectId) => namespace.get(id) as unknown as TaskObjectRpc;
  return {
    async create(admission, start) {
      const id = namespace.newUniqueId();
      const taskId = `${id.toString()}.${randomToken(24)}`;
      const outcome = await stub(id).create(taskId, admission, start, resolved);
      if (outcome.ok) return outcome.task;
      throw tooManyTasks(outcome.quota);
    },
    async get(admission, taskId) {
      const id = taskObjectId(namespace, taskId);
      return id && stub(id).get(taskId, admission.caller);
    },
    async update(admission, taskId, responses) {
      const id = taskObjectId(namespace, taskId);
      return id !== undefined && stub(id).update(taskId, admission.caller, responses);
    },
    async cancel(admission, taskId) {
      const id = taskObjectId(namespace, taskId);
      return id !== undefined && stub(id).cancel(taskId, admission.caller);
    },
    // A Worker that reaches task objects serves tasks: its endpoints add the tasks feature and agree to task ids.
    serving: taskServing,
  };
}
