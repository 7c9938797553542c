/** The tools feature: `tools/list` and `tools/call`, and the `tools` capability. */

import { own } from "../../core/json.ts";
import type { InboundRequest } from "../../core/jsonrpc.ts";
import type { CallLimits } from "../../core/admission.ts";
import type { CallToolResult, JsonObject } from "../../core/types.ts";
import type { Feature, Method, ToolCallHook } from "../feature.ts";
import { withInputs } from "../inputs/with-inputs.ts";
import { listPage } from "../lists/list-page.ts";
import { callTool, capResult, resolveTool, withDeadline } from "./call-tool.ts";

const param = (request: InboundRequest, key: string): unknown => (request.params ? own(request.params, key) : undefined);

/** A call under the caller's limits: its deadline (an isError result when it runs over) and the size of its result. */
async function limited(pending: Promise<CallToolResult>, limits: CallLimits, name: string): Promise<JsonObject> {
  const result = limits.toolTimeoutMs === undefined ? await pending : await withDeadline(pending, limits.toolTimeoutMs, name);
  return (limits.maxResultBytes === undefined ? result : capResult(result, limits.maxResultBytes, name)) as unknown as JsonObject;
}

/** The isError answer to a call of a tool that runs only as a task, where it cannot. */
export function taskOnly(name: string, why: string): JsonObject {
  const result: CallToolResult = { content: [{ type: "text", text: `Tool ${name} runs only as a task, ${why}.` }], isError: true };
  return result as unknown as JsonObject;
}

/**
 * Tools, with the hooks of other features that run some calls their own way (tasks). Tool search's
 * `call_tool` is admitted and run here as a direct call of its target, so everything a direct call
 * goes through applies to the target too.
 */
export function toolsFeature(hooks: () => readonly ToolCallHook[]): Feature {
  return {
    name: "tools",
    install: ({ tools, handlerContext }) => {
      if (tools.size === 0) return {};
      const toolsCall: Method = async (request, ctx) => {
        let tool = ctx.tool ?? resolveTool(tools, request.params);
        let params = request.params;
        if (tool === tools.callTool) {
          const target = await tools.callTarget(tool, params, ctx);
          if (!("tool" in target)) return target as unknown as JsonObject;
          ({ tool, params } = target);
        }
        const call = params === request.params ? request : { ...request, params };
        for (const hook of hooks()) {
          const pending = hook(tool, call, ctx);
          const answer = pending instanceof Promise ? await pending : pending;
          if (answer !== undefined) return answer;
        }
        // No feature took it: this server runs no tasks (a tasks feature answers every call of a required tool).
        if (tool.task === "required") return taskOnly(tool.name, "and this server runs no tasks");
        const run = tool;
        const binding = { method: "tools/call", target: run.name, args: param(call, "arguments") };
        return await withInputs(request, ctx, binding, (inputs) => {
          const pending = callTool(run, params, handlerContext(ctx, inputs));
          const limits = ctx.admission.limits;
          // Without limits the call's own promise is the answer (no wait in between).
          if (limits.toolTimeoutMs === undefined && limits.maxResultBytes === undefined) return pending as unknown as Promise<JsonObject>;
          return limited(pending, limits, run.name);
        });
      };
      return {
        capabilities: (caps, streams) => {
          // Without a session a 2025 client has no stream for list_changed; 2026 clients use subscriptions/listen.
          caps["tools"] = streams ? { listChanged: true } : {};
        },
        methods: [
          ["tools/list", (request, ctx) => listPage(request, ctx, (cursor, era) => tools.page(cursor, era, tools.viewFor(ctx, "client")))],
          ["tools/call", toolsCall],
        ],
      };
    },
  };
}
