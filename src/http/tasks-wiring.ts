/** Tasks in an isolate: the server's tasks feature and the listen agreement of task ids, wired together. */

import type { Feature } from "../server/feature.ts";
import { taskWiring } from "../server/tasks/task-wiring.ts";
import { tasksFeature } from "../server/tasks/tasks-feature.ts";
import { agreeTaskIds } from "./listen-tasks.ts";
import { taskListening } from "./task-listening.ts";

/**
 * Wires tasks into this isolate: servers compiled from now on get the tasks feature, endpoints with
 * a task gateway agree to the task ids of listen streams. A task gateway's module calls it as it
 * loads (`createTaskObject`'s, `createMemoryTaskGateway`'s); with a gateway of your own, pass it to
 * the server: `createServer({ features: [tasks()] })`. Returns the tasks feature.
 */
export function tasks(): Feature {
  taskListening.agree = agreeTaskIds;
  taskWiring.feature = tasksFeature;
  return tasksFeature;
}
