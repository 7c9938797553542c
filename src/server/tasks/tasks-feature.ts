/** The tasks extension as a feature: `tasks/get|update|cancel`, its declaration, and task tools run as tasks. */

import type { Feature } from "../feature.ts";
import { TASKS_EXTENSION } from "./task-access.ts";
import { callAsTask, taskMethods } from "./task-methods.ts";

/**
 * Tasks, when any tool may run as one. The extension is declared where tasks run: a task store on
 * the endpoint (`ctx.tasks`). A task gateway's module brings it (see task-wiring.ts, http/tasks-wiring.ts).
 */
export const tasksFeature: Feature = {
  name: "tasks",
  rank: 50,
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
