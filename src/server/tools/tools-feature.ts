/** The tools feature: `tools/list` and `tools/call`, and the `tools` capability. */

import { own } from "../../core/json.ts";
import type { InboundRequest } from "../../core/jsonrpc.ts";
import type { CallLimits } from "../../core/admission.ts";
import type { CallToolResult, JsonObject } from "../../core/types.ts";
import type { Feature, Method, ToolCallHook } from "../feature.ts";
import { withInputs } from "../inputs/with-inputs.ts";
import { listPage } from "../lists/list-page.ts";
import { capResult, resolveTool, startCall, withDeadline } from "./call-tool.ts";
import type { CompiledTool } from "./compile-tool.ts";
import type { TransportContext } from "../context/transport.ts";
import type { MethodResult } from "../raw-result.ts";

const param = (request: InboundRequest, key: string): unknown => (request.params ? own(request.params, key) : undefined);

/** A call under the caller's limits: its deadline (an isError result when it runs over) and the size of its result. */
async function limited(pending: CallToolResult | Promise<CallToolResult>, limits: CallLimits, name: string): Promise<JsonObject> {
  const result = limits.toolTimeoutMs === undefined ? await pending : await withDeadline(Promise.resolve(pending), limits.toolTimeoutMs, name);
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
 * goes through applies to the target too. A call that waits for nothing answers without a promise.
 */
export function toolsFeature(hooks: () => readonly ToolCallHook[]): Feature {
  return {
    name: "tools",
    install: (host) => {
      const { tools, handlerContext } = host;
      if (tools.size === 0) return {};
      /** Runs the hooks from `from` on, then the tool itself when none answers. */
      const run = (
        request: InboundRequest,
        ctx: TransportContext,
        tool: CompiledTool,
        call: InboundRequest,
        from: number,
      ): MethodResult | Promise<MethodResult> => {
        const all = hooks();
        for (let i = from; i < all.length; i++) {
          const pending = (all[i] as ToolCallHook)(tool, call, ctx);
          if (pending instanceof Promise) return pending.then((answer) => (answer !== undefined ? answer : run(request, ctx, tool, call, i + 1)));
          if (pending !== undefined) return pending;
        }
        // No feature took it: this server runs no tasks (a tasks feature answers every call of a required tool).
        if (tool.task === "required") return taskOnly(tool.name, "and this server runs no tasks");
        const params = call.params;
        const binding = { method: "tools/call", target: tool.name, args: param(call, "arguments") };
        return withInputs(request, ctx, binding, (inputs) => {
          const pending = startCall(tool, params, handlerContext(ctx, inputs));
          const limits = ctx.admission.limits;
          // Without limits the call's own result is the answer (no wait in between).
          if (limits.toolTimeoutMs === undefined && limits.maxResultBytes === undefined) return pending as unknown as JsonObject | Promise<JsonObject>;
          return limited(pending, limits, tool.name);
        });
      };
      const toolsCall: Method = (request, ctx) => {
        const tool = ctx.tool ?? resolveTool(tools, request.params, (name) => tools.viewFor(ctx, "model")?.allows(name) !== false);
        if (tool !== tools.callTool) return run(request, ctx, tool, request, 0);
        return tools.callTarget(tool, request.params, ctx).then((target) => {
          if (!("tool" in target)) return target as unknown as JsonObject;
          return run(request, ctx, target.tool, target.params === request.params ? request : { ...request, params: target.params }, 0);
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
        // Tool search's tools read the model's view through ctx.tools (its engine brings the member).
        ...(tools.searchEngine ? { context: { tools: tools.searchEngine.handlerTools(host) } } : {}),
      };
    },
  };
}
