/** The tasks extension's methods (`tasks/get`, `tasks/update`, `tasks/cancel`) and the `tools/call` that creates a task. */

import { ErrorCode, ProtocolError, invalidParams } from "../../core/errors.ts";
import { isObject, own } from "../../core/json.ts";
import type { InboundRequest } from "../../core/jsonrpc.ts";
import type { JsonObject } from "../../core/types.ts";
import { checkArguments, runHandler } from "../tools/call-tool.ts";
import type { CompiledTool } from "../tools/compile-tool.ts";
import type { InputChannel } from "../inputs/input.ts";
import type { HandlerContextFactory } from "../context/create-handler-context.ts";
import type { TransportContext } from "../context/transport.ts";
import { declaresTasks, tasksExtensionRequired, unknownTask, type TaskAccess } from "./task-access.ts";
import { withInputs } from "../inputs/with-inputs.ts";
import { taskOnly } from "../tools/tools-feature.ts";

function notServed(): ProtocolError {
  return new ProtocolError(ErrorCode.MethodNotFound, "Method not found: this server runs no tasks", { status: 404 });
}

/**
 * The task access of a `tasks/*` request, in the order the extension fixes after the header
 * checks: the extension (-32021), then the task id (-32602).
 */
function access(request: InboundRequest, ctx: TransportContext, method: string): { tasks: TaskAccess; taskId: string } {
  const tasks = ctx.tasks;
  if (!tasks) throw notServed();
  if (!declaresTasks(ctx.clientCapabilities)) throw tasksExtensionRequired(method);
  const taskId = request.params ? own(request.params, "taskId") : undefined;
  if (typeof taskId !== "string") throw invalidParams(`${method} needs params.taskId, the taskId of a CreateTaskResult`);
  return { tasks, taskId };
}

/** `tasks/get`, `tasks/update` and `tasks/cancel`: the methods a server with task tools has under 2026-07-28. */
export function taskMethods(): [string, (request: InboundRequest, ctx: TransportContext) => Promise<JsonObject>][] {
  return [
    [
      "tasks/get",
      async (request, ctx) => {
        const { tasks, taskId } = access(request, ctx, "tasks/get");
        const task = await tasks.get(taskId);
        if (!task) throw unknownTask();
        return task;
      },
    ],
    [
      "tasks/update",
      async (request, ctx) => {
        const { tasks, taskId } = access(request, ctx, "tasks/update");
        const responses = request.params ? own(request.params, "inputResponses") : undefined;
        if (!isObject(responses)) throw invalidParams(`tasks/update needs params.inputResponses, an object keyed by the task's inputRequests keys`);
        if (!(await tasks.update(taskId, responses))) throw unknownTask();
        return {};
      },
    ],
    [
      "tasks/cancel",
      async (request, ctx) => {
        const { tasks, taskId } = access(request, ctx, "tasks/cancel");
        if (!(await tasks.cancel(taskId))) throw unknownTask();
        return {};
      },
    ],
  ];
}

/**
 * A `tools/call` of a tool that may run as a task. Resolves with the answer (a CreateTaskResult,
 * an `input_required` result from `beforeTask`, or an `isError` result), or undefined when the call
 * runs synchronously as usual. A client that did not declare the extension never gets a task
 * (extension "Capability Negotiation"): an optional tool runs in the request, a required one is
 * refused with -32021.
 */
export async function callAsTask(
  tool: CompiledTool,
  request: InboundRequest,
  ctx: TransportContext,
  handlerContext: HandlerContextFactory,
): Promise<JsonObject | undefined> {
  if (ctx.era !== "modern") {
    return tool.task === "required" ? taskOnly(tool.name, "which needs a 2026-07-28 client with the tasks extension") : undefined;
  }
  const tasks = ctx.tasks;
  if (!tasks) {
    // Tasks turned off for this server (no task store, or the tenant's "tasks": false).
    return tool.task === "required" ? taskOnly(tool.name, "and this server runs no tasks") : undefined;
  }
  if (!declaresTasks(ctx.clientCapabilities)) {
    if (tool.task === "required") throw tasksExtensionRequired(`Tool ${tool.name}`);
    return undefined;
  }
  const checked = await checkArguments(tool, request.params);
  if (!checked.ok) return checked.result as unknown as JsonObject;
  const rawArgs = request.params ? own(request.params, "arguments") : undefined;
  const binding = { method: "tools/call", target: tool.name, args: rawArgs };
  // Input needed before the task exists is ordinary MRTR on this call; its answers go to the task.
  return withInputs(request, ctx, binding, async (inputs) => {
    const answers: Record<string, unknown> = {};
    if (tool.beforeTask) {
      const before = tool.beforeTask;
      const recording: InputChannel = {
        async request(requests) {
          const found = await inputs.request(requests);
          Object.assign(answers, found);
          return found;
        },
      };
      const beforeCtx = handlerContext(ctx, recording);
      const early = await runHandler(tool, (args) => before(args as never, beforeCtx), checked.args, true, beforeCtx);
      if (early !== undefined) return early as unknown as JsonObject;
    }
    const created = await tasks.create({
      tool: tool.name,
      arguments: isObject(rawArgs) ? rawArgs : undefined,
      protocolVersion: ctx.protocolVersion,
      clientCapabilities: ctx.clientCapabilities,
      answers,
    });
    return { ...created, resultType: "task" };
  });
}
