/** The tasks extension as a feature: `tasks/get|update|cancel`, its declaration, and task tools run as tasks. */

import type { Feature } from "../feature.ts";
import { TASKS_EXTENSION } from "./task-access.ts";
import { callAsTask, taskMethods } from "./task-methods.ts";

/**
 * Tasks, when any tool may run as one. The extension is declared where tasks run: a task store on
 * the endpoint (`ctx.tasks`). A task gateway that serves tasks hands it to its endpoint (`TaskGateway.serving`).
 */
export const tasksFeature: Feature = {
  name: "tasks",
  install: ({ tools, handlerContext }) => {
    if (!tools.taskCapable) return {};
    return {
      extensions: { [TASKS_EXTENSION]: {} },
      declaredFor: (ctx) => ctx.tasks !== undefined,
      modernMethods: taskMethods(),
      // A task tool runs as a task whether it is called directly or through call_tool.
      callTool: (tool, request, ctx) => (tool.task === "never" ? undefined : callAsTask(tool, request, ctx, handlerContext)),
    };
  },
};
