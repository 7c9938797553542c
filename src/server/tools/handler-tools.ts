/** `ctx.tools`: what a handler sees of its server's tools (the model's view) and how it calls one, as a client's call would be admitted. */

import { ToolError } from "../../core/tool-error.ts";
import { ErrorCode, ProtocolError } from "../../core/errors.ts";
import type { CallToolResult, JsonObject } from "../../core/types.ts";
import { runningUnder, type HandlerContextFactory } from "../context/create-handler-context.ts";
import type { TransportContext } from "../context/transport.ts";
import type { InputChannel } from "../inputs/input.ts";
import { callTool, capResult, errorResult, resolveTool, withDeadline, type ToolLookup } from "./call-tool.ts";
import type { ToolFilter } from "./tool-filter.ts";
import type { ToolReader } from "./tool-view.ts";

/** What a handler sees of its server's tools, on its caller's behalf (`ctx.tools`). */
export interface HandlerTools {
  /**
   * Which tools `reader` may see in this request: the caller's own filter narrowed by what features
   * hide from that reader (apps hide app-only tools from a model). Undefined: every tool.
   */
  view(reader: ToolReader): ToolFilter | undefined;
  /**
   * Calls a tool of this server for the model, admitted exactly as a `tools/call` of it would be
   * (scopes 403, rate limits 429, an unknown name or a tool hidden from models -32602: the
   * `ProtocolError` is thrown), under the caller's deadline and result size, traced and metered
   * when the request is. The tool cannot ask the user for input; a task-only tool is refused.
   */
  call(name: string, args?: JsonObject): Promise<CallToolResult>;
}

declare module "../context/handler-context.ts" {
  interface HandlerContext {
    /** This server's tools, on the caller's behalf: present where a feature adds it (`handlerTools(host)`; code mode and tool search do). */
    readonly tools?: HandlerTools;
  }
}

/** What `ctx.tools` is made from: a feature's host (`FeatureHost`) has both. */
export interface HandlerToolsSource {
  readonly tools: ToolLookup & { viewFor(ctx: TransportContext, reader: ToolReader): ToolFilter | undefined };
  readonly handlerContext: HandlerContextFactory;
}

/** A called tool cannot ask the user anything: no one answers inside another call. */
const NO_INPUTS: InputChannel = {
  request() {
    throw new ToolError("it asks the user for input, which a tool called by another cannot do; call it directly instead");
  },
};

/**
 * The `ctx.tools` member a feature adds to every handler's context (`context: { tools: handlerTools(host) }`):
 * computed from the request's transport on first read.
 *
 * @example
 * const feature: Feature = { name: "relay", install: (host) => ({ context: { tools: handlerTools(host) } }) };
 */
export function handlerTools(host: HandlerToolsSource): (transport: TransportContext) => HandlerTools {
  const { tools, handlerContext } = host;
  return (transport) => ({
    view: (reader) => tools.viewFor(transport, reader),
    async call(name, args = {}) {
      // Traced and metered as a direct call would be, when the request is observed.
      const observed = transport.observeCall?.(name);
      let admitted = false;
      try {
        const tool = transport.admitTool ? await transport.admitTool(name) : resolveTool(tools, { name });
        // A model calls through here: a tool a feature hides from models (an app-only tool) is unknown to it.
        if (tools.viewFor(transport, "model")?.allows(name) === false) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
        admitted = true;
        // As a direct call from a client without tasks: a task-only tool is refused, not run in this request.
        if (tool.task === "required") {
          observed?.end(true, undefined, true);
          return errorResult(`Tool ${name} runs only as a task; call it directly, not from another call`);
        }
        const ctx = handlerContext(transport, NO_INPUTS);
        // The tool runs under its own span: a tool service it calls joins the trace there.
        const pending = callTool(tool, { name, arguments: args }, observed?.trace ? runningUnder(ctx, observed.trace) : ctx);
        const limits = transport.admission.limits;
        let result = limits.toolTimeoutMs === undefined ? await pending : await withDeadline(pending, limits.toolTimeoutMs, name);
        if (limits.maxResultBytes !== undefined) result = capResult(result, limits.maxResultBytes, name);
        observed?.end(true, undefined, result.isError === true);
        return result;
      } catch (error) {
        observed?.end(admitted, error instanceof ProtocolError ? error : new ProtocolError(ErrorCode.InternalError, String(error)), false);
        throw error;
      }
    },
  });
}
