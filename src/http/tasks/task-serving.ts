/** What serving tasks takes besides a gateway: the server with the tasks feature and the listen agreement of task ids, as one value. */

import type { Feature } from "../../server/feature.ts";
import { createServer, type McpServer } from "../../server/server.ts";
import { tasksFeature } from "../../server/tasks/tasks-feature.ts";
import { agreeTaskIds } from "../listen/listen-tasks.ts";
import type { TaskServing } from "./task-gateway.ts";

// Each server compiled once more with tasks, kept as long as the server it was made from.
const withTasks = new WeakMap<McpServer, McpServer>();

/**
 * Tasks, as a task gateway hands them to its endpoint (the `serving` of a `TaskGateway`): the
 * Workers and memory gateways carry it; a gateway of your own spreads it in:
 * `createMcpApp({ server, tasks: { ...myGateway, serving: taskServing } })`.
 */
export const taskServing: TaskServing = {
  serverFor(server) {
    if (!server.tools.taskCapable || server.hasMethod("tasks/get", "modern")) return server;
    let made = withTasks.get(server);
    if (!made) {
      made = createServer({ ...server.options, features: [...(server.options.features ?? []), tasksFeature] }, server.changes);
      withTasks.set(server, made);
    }
    return made;
  },
  agree: agreeTaskIds,
};

/**
 * The tasks feature, for a server compiled before its endpoint: `createServer({ features: [tasks()] })`.
 * An endpoint whose task gateway serves tasks adds it by itself.
 */
export function tasks(): Feature {
  return tasksFeature;
}
