/** The inner calls of a program: each admitted on the caller's behalf exactly as a `tools/call` of it, then run like one. */

import { ProtocolError } from "../../core/errors.ts";
import type { CallToolResult, JsonObject } from "../../core/types.ts";
import { InputRequired } from "../inputs/input.ts";
import type { HandlerTools } from "../tools/handler-tools.ts";
import type { InnerCallResult } from "./sandbox.ts";

/** What a tool gives a program: its structuredContent, or else the text of its content. */
function valueOf(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  return result.content
    .filter((block): block is { type: "text"; text: string } => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}

/** 2025-11-25 "URL Elicitation Required": an inner tool needs the user to visit a URL (connect an account) first. */
const URL_ELICITATION_REQUIRED = -32042;

/** True for an inner call's request that the user visit a URL: -32042, or `input_required` holding only URL elicitations. */
function asksForUrl(error: unknown): error is ProtocolError | InputRequired {
  if (error instanceof ProtocolError) return error.code === URL_ELICITATION_REQUIRED;
  if (!(error instanceof InputRequired)) return false;
  const requests = Object.values(error.requests);
  return requests.length > 0 && requests.every((request) => request.method === "elicitation/create" && request.params.mode === "url");
}

/**
 * The `callTool` of one run: counts calls against `maxToolCalls`, refuses every call once the run
 * is over (`closed()`) and calls of `reserved` tools, and makes each through the handler's
 * `ctx.tools` (admitted as a direct call of the caller's: scopes 403, rate limits 429, unknown
 * -32602; the admission's per-tool deadline and result size). An inner call that asks the user
 * to visit a URL (a connected account to connect) fails in the program with a plain message, and
 * `asked()` keeps the request, so the execute call can pass it on when the program does not finish.
 */
export function innerCalls(tools: HandlerTools, reserved: ReadonlySet<string>, maxToolCalls: number, closed: () => boolean) {
  let calls = 0;
  let asked: ProtocolError | InputRequired | undefined;
  const call = async (name: string, args: unknown): Promise<InnerCallResult> => {
    if (closed()) return { ok: false, message: "the run is over (its time limit passed); this call was not made" };
    if (typeof name !== "string" || name === "") return { ok: false, message: "tools.<name>(args) needs a tool name" };
    if (reserved.has(name)) return { ok: false, message: `${name} cannot be called from a program` };
    if (++calls > maxToolCalls) return { ok: false, message: `more than ${maxToolCalls} tool calls in one run (the limit); do fewer, or split the work` };
    if (args !== undefined && (args === null || typeof args !== "object" || Array.isArray(args))) {
      return { ok: false, message: `tools.${name}(args): args must be an object` };
    }
    try {
      const result = await tools.call(name, (args ?? {}) as JsonObject);
      const text = valueOf(result);
      return result.isError ? { ok: false, message: typeof text === "string" ? text : JSON.stringify(text) } : { ok: true, value: text };
    } catch (error) {
      if (asksForUrl(error)) {
        asked ??= error;
        // The URL stays out of the program: it reaches the user through the execute call's own answer.
        return { ok: false, message: `${name} needs the user to connect an account first (a URL elicitation)`, code: URL_ELICITATION_REQUIRED };
      }
      if (error instanceof ProtocolError) return { ok: false, message: error.message, code: error.code };
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
  };
  return { call, count: () => calls, asked: () => asked };
}
