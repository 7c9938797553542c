/** The inner calls of a program: each admitted on the caller's behalf exactly as a `tools/call` of it, then run like one. */

import { ErrorCode, ProtocolError } from "../../core/errors.ts";
import type { CallToolResult, JsonObject } from "../../core/types.ts";
import { runningUnder, type HandlerContextFactory } from "../context/create-handler-context.ts";
import type { TransportContext } from "../context/transport.ts";
import type { InputChannel } from "../inputs/input.ts";
import { callTool, capResult, resolveTool, withDeadline, type ToolLookup } from "../tools/call-tool.ts";
import type { ToolRegistry } from "../tools/tool-registry.ts";
import type { InnerCallResult } from "./sandbox.ts";

/** A program's tools cannot ask the user anything: there is no one to answer inside a run. */
const NO_INPUTS: InputChannel = {
  request() {
    throw new Error("it asks the user for input, which a tool called from a program cannot do; call it directly instead");
  },
};

/** What a tool gives a program: its structuredContent, or else the text of its content. */
function valueOf(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  return result.content
    .filter((block): block is { type: "text"; text: string } => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}

/** Where a run's inner calls go: the registry, the context factory, and the names a program may not call. */
export interface InnerCallHost {
  tools: ToolLookup & Pick<ToolRegistry, "viewFor">;
  handlerContext: HandlerContextFactory;
  /** Code mode's own tools: a program calling them is refused before admission. */
  reserved: ReadonlySet<string>;
}

/**
 * The `callTool` of one run: counts calls against `maxToolCalls`, refuses every call once the run
 * is over (`closed()`), admits each through `transport.admitTool` (scopes 403, rate limits 429,
 * unknown -32602, the caller's tenant and principal), and runs it with the admission's per-tool
 * deadline and result size, in a handler context built on the caller's transport.
 */
export function innerCalls(host: InnerCallHost, transport: TransportContext, maxToolCalls: number, closed: () => boolean) {
  let calls = 0;
  const call = async (name: string, args: unknown): Promise<InnerCallResult> => {
    if (closed()) return { ok: false, message: "the run is over (its time limit passed); this call was not made" };
    if (typeof name !== "string" || name === "") return { ok: false, message: "tools.<name>(args) needs a tool name" };
    if (host.reserved.has(name)) return { ok: false, message: `${name} cannot be called from a program` };
    if (++calls > maxToolCalls) return { ok: false, message: `more than ${maxToolCalls} tool calls in one run (the limit); do fewer, or split the work` };
    if (args !== undefined && (args === null || typeof args !== "object" || Array.isArray(args))) {
      return { ok: false, message: `tools.${name}(args): args must be an object` };
    }
    // Traced and metered as a direct call would be, when the request is observed.
    const observed = transport.observeCall?.(name);
    let admitted = false;
    try {
      const tool = transport.admitTool ? await transport.admitTool(name) : resolveTool(host.tools, { name });
      // A program is the model's: a tool a feature hides from models (an app-only tool) is unknown to it, as to call_tool.
      if (host.tools.viewFor(transport, "model")?.allows(name) === false) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      admitted = true;
      // As a direct call from a client without tasks: a task-only tool is refused, not run in the request.
      if (tool.task === "required") {
        observed?.end(true, undefined, true);
        return { ok: false, message: `Tool ${name} runs only as a task; call it directly, not from a program` };
      }
      const params = { name, arguments: (args ?? {}) as JsonObject };
      const ctx = host.handlerContext(transport, NO_INPUTS);
      // The tool runs under its own span: a tool service it calls joins the trace there, not under execute's.
      const pending = callTool(tool, params, observed?.trace ? runningUnder(ctx, observed.trace) : ctx);
      const limits = transport.admission.limits;
      let result = limits.toolTimeoutMs === undefined ? await pending : await withDeadline(pending, limits.toolTimeoutMs, name);
      if (limits.maxResultBytes !== undefined) result = capResult(result, limits.maxResultBytes, name);
      observed?.end(true, undefined, result.isError === true);
      const text = valueOf(result);
      return result.isError ? { ok: false, message: typeof text === "string" ? text : JSON.stringify(text) } : { ok: true, value: text };
    } catch (error) {
      observed?.end(admitted, error instanceof ProtocolError ? error : new ProtocolError(ErrorCode.InternalError, String(error)), false);
      if (error instanceof ProtocolError) return { ok: false, message: error.message, code: error.code };
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
  };
  return { call, count: () => calls };
}
