/** Tasks in memory: a task gateway for tests and single-isolate development, running each task in this isolate. */

import { randomToken } from "../core/bytes.ts";
import type { Endpoint } from "../http/endpoint.ts";
import { resolveTaskSettings, tooManyTasks, type TaskGateway, type TaskSettings } from "../http/tasks/task-gateway.ts";
import { TaskEngine } from "./task-engine.ts";
import { createMemoryTaskStorage } from "./task-record.ts";
import { taskServing } from "../http/tasks/task-serving.ts";

/**
 * A {@link TaskGateway} that keeps every task's engine in memory. Tasks are bound to their caller
 * as on Workers, but nothing survives the isolate and no alarm runs: tasks are never deleted.
 * `endpoint` returns the endpoint the tasks run on (the one this gateway is given to).
 *
 * @example
 * const tasks = createMemoryTaskGateway(() => endpoint);
 * const endpoint = createEndpoint({ server, tasks });
 */
export function createMemoryTaskGateway(endpoint: () => Endpoint, settings?: TaskSettings): TaskGateway {
  const resolved = resolveTaskSettings(settings);
  const engines = new Map<string, TaskEngine>();
  return {
    async create(admission, start) {
      const taskId = randomToken(24);
      const engine = new TaskEngine({ endpointFor: async () => endpoint(), storage: createMemoryTaskStorage() });
      const outcome = await engine.create(taskId, admission, start, resolved);
      if (!outcome.ok) throw tooManyTasks(outcome.quota);
      engines.set(taskId, engine);
      return outcome.task;
    },
    get: async (admission, taskId) => engines.get(taskId)?.get(taskId, admission.caller),
    update: async (admission, taskId, responses) => (await engines.get(taskId)?.update(taskId, admission.caller, responses)) ?? false,
    cancel: async (admission, taskId) => (await engines.get(taskId)?.cancel(taskId, admission.caller)) ?? false,
    // Its endpoint adds the tasks feature to its server and agrees to the task ids of listen streams.
    serving: taskServing,
  };
}
