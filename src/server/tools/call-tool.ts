/** `tools/call`: look the tool up, validate its arguments, run it, and shape its result. */

import { ProtocolError, invalidParams } from "../../core/errors.ts";
import { isObject, own } from "../../core/json.ts";
import type { Params } from "../../core/jsonrpc.ts";
import type { CallToolResult } from "../../core/types.ts";
import type { CompiledTool } from "./compile-tool.ts";
import { InputRequired } from "../inputs/input.ts";
import type { ToolContext } from "../context/handler-context.ts";
import type { ToolReturn } from "./tool.ts";
import type { ValidationOutcome } from "./schema-validator.ts";
import { ToolError } from "../../core/tool-error.ts";
import { inDevelopment } from "../context/create-handler-context.ts";
import { randomToken } from "../../core/bytes.ts";

/** A tool result that reports a failure to the model (`isError: true`). */
export function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** Where tools are found by name: a server's tool registry. */
export interface ToolLookup {
  get(name: string): CompiledTool | undefined;
  /** A stand-in whose calls explain why its module is unavailable. */
  unavailable(name: string): CompiledTool | undefined;
  /** The tool name closest to a mistyped one among those `visible` allows, if one is close. */
  closest?(name: string, visible: (name: string) => boolean): string | undefined;
}

/**
 * Finds the tool a `tools/call` names; throws -32602 for a missing or unknown name. `visible` says
 * which tools the caller may see: an unknown name's error suggests the closest of those only, so
 * it names no tool the caller could not list. Without it, nothing is suggested.
 */
export function resolveTool(registry: ToolLookup, params: Params | undefined, visible?: (name: string) => boolean): CompiledTool {
  const name = params ? own(params, "name") : undefined;
  if (typeof name !== "string") throw invalidParams(`tools/call needs params.name, the name of a tool from tools/list`);
  const tool = registry.get(name) ?? registry.unavailable(name);
  if (tool) return tool;
  const meant = visible && registry.closest?.(name, visible);
  throw invalidParams(`Unknown tool: ${name}${meant === undefined ? "" : `; did you mean ${meant}?`}`);
}

function normalise(tool: CompiledTool, value: ToolReturn): CallToolResult {
  if (typeof value === "string") return { content: [{ type: "text", text: value }] };
  if (isObject(value)) {
    if (Array.isArray(value["content"])) return value as unknown as CallToolResult;
    if (Object.hasOwn(value, "structuredContent") && value["content"] === undefined) {
      const structuredContent = value["structuredContent"];
      return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent };
    }
  }
  return serverBug(tool, "returned a value that is not a tool result");
}

/** A result that breaks the tool's own contract: logged with the details, answered in the same words (a server bug). */
function serverBug(tool: CompiledTool, problem: string, details = ""): CallToolResult {
  console.error(`edge-mcp: tool ${tool.name} ${problem}${details}`);
  return errorResult(`Tool ${tool.name} ${problem} (a server bug).`);
}

/** Checks a result against the tool's output schema; synchronous when its validator is (no wait on the hot path). */
function checkOutput(tool: CompiledTool, result: CallToolResult): CallToolResult | Promise<CallToolResult> {
  if (!tool.output || result.isError) return result;
  if (result.structuredContent === undefined) return serverBug(tool, "declares an outputSchema but returned no structuredContent");
  const validated = tool.output.validate(result.structuredContent);
  return validated instanceof Promise ? validated.then((outcome) => checkedOutput(tool, result, outcome)) : checkedOutput(tool, result, validated);
}

function checkedOutput(tool: CompiledTool, result: CallToolResult, outcome: ValidationOutcome): CallToolResult {
  if (outcome.ok) return result;
  return serverBug(tool, "returned structuredContent that does not match its outputSchema", `: ${outcome.issues.join("; ")}`);
}

/**
 * Runs a `tools/call`. Argument failures and thrown errors become `isError` results that tell the
 * model what to fix (2025-11-25 tools "Error Handling"); a thrown {@link ProtocolError} becomes a
 * JSON-RPC error instead.
 */
export function callTool(tool: CompiledTool, params: Params | undefined, ctx: ToolContext): Promise<CallToolResult> {
  // An adapter of startCall for callers that wait anyway (tasks, inner calls); the hot path through it counted within noise (bench:instructions, 2026-12-07).
  try {
    const result = startCall(tool, params, ctx);
    return result instanceof Promise ? result : Promise.resolve(result);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * {@link callTool} without a promise where nothing waits: the result itself when the validators and
 * the handler are synchronous (the hot path), else a promise of it. Throws what `callTool` rejects with.
 */
export function startCall(tool: CompiledTool, params: Params | undefined, ctx: ToolContext): CallToolResult | Promise<CallToolResult> {
  const run = (args: unknown): unknown => tool.handler(args as never, ctx);
  const pending = argumentsOf(tool, params);
  if (pending instanceof Promise) return pending.then((checked) => settledCall(tool, run, checked, ctx));
  return settledCall(tool, run, pending, ctx);
}

/** The handler's result on valid arguments, else the `isError` result that names what to fix. */
function settledCall(tool: CompiledTool, run: (args: unknown) => unknown, checked: CheckedArguments, ctx: object): CallToolResult | Promise<CallToolResult> {
  // Without passUndefined, settleHandler never answers undefined.
  return (checked.ok ? settleHandler(tool, run, checked.args, false, ctx) : checked.result) as CallToolResult | Promise<CallToolResult>;
}

type CheckedArguments = { ok: true; args: unknown } | { ok: false; result: CallToolResult };

/**
 * Validates the arguments of a `tools/call`: the validator's output, or the `isError` result that
 * tells the model what to fix. Throws -32602 when `arguments` is not an object at all.
 */
export async function checkArguments(tool: CompiledTool, params: Params | undefined): Promise<CheckedArguments> {
  return argumentsOf(tool, params);
}

/** {@link checkArguments}, synchronous when the tool's input validator is (the hot path waits for nothing). */
function argumentsOf(tool: CompiledTool, params: Params | undefined): CheckedArguments | Promise<CheckedArguments> {
  const rawArgs = params ? own(params, "arguments") : undefined;
  if (rawArgs !== undefined && !isObject(rawArgs)) throw invalidParams(`tools/call params.arguments must be an object`);
  const validated = tool.input.validate(rawArgs ?? {});
  return validated instanceof Promise ? validated.then((outcome) => checkedArguments(tool, outcome)) : checkedArguments(tool, validated);
}

function checkedArguments(tool: CompiledTool, outcome: ValidationOutcome): CheckedArguments {
  if (outcome.ok) return { ok: true, args: outcome.value };
  const issues = outcome.issues.map((issue) => issue.replace(/\.$/, "")).join("; ");
  return {
    ok: false,
    result: errorResult(`Invalid arguments for tool ${tool.name}: ${issues}. Fix the arguments to match the tool's inputSchema and call it again.`),
  };
}

/**
 * Runs a handler (or a tool's `beforeTask`) on validated arguments and shapes what it returns:
 * thrown errors become `isError` results, except protocol errors and input requests, which the
 * server answers. With `passUndefined`, `undefined` comes back as it is (a `beforeTask` that lets
 * the task go ahead); otherwise it is an invalid result like any other. `ctx` is the handler's
 * context: under development, a thrown error's message reaches the model.
 */
export async function runHandler(
  tool: CompiledTool,
  run: (args: unknown) => unknown,
  args: unknown,
  passUndefined?: false,
  ctx?: object,
): Promise<CallToolResult>;
export async function runHandler(
  tool: CompiledTool,
  run: (args: unknown) => unknown,
  args: unknown,
  passUndefined: true,
  ctx?: object,
): Promise<CallToolResult | undefined>;
export async function runHandler(
  tool: CompiledTool,
  run: (args: unknown) => unknown,
  args: unknown,
  passUndefined = false,
  ctx?: object,
): Promise<CallToolResult | undefined> {
  return settleHandler(tool, run, args, passUndefined, ctx);
}

/** {@link runHandler}'s work: the shaped result itself when the handler returns one (not a promise), else a promise of it. */
function settleHandler(
  tool: CompiledTool,
  run: (args: unknown) => unknown,
  args: unknown,
  passUndefined: boolean,
  ctx: object | undefined,
): CallToolResult | undefined | Promise<CallToolResult | undefined> {
  let value: unknown;
  try {
    value = run(args);
  } catch (error) {
    return handlerFailure(tool, error, ctx);
  }
  // A handler that returns its result (not a promise) is not waited for.
  if (isThenable(value)) {
    return Promise.resolve(value).then(
      (settled) => shaped(tool, settled, passUndefined),
      (error: unknown) => handlerFailure(tool, error, ctx),
    );
  }
  return shaped(tool, value, passUndefined);
}

function shaped(tool: CompiledTool, value: unknown, passUndefined: boolean): CallToolResult | undefined | Promise<CallToolResult> {
  if (value === undefined && passUndefined) return undefined;
  return checkOutput(tool, normalise(tool, value as ToolReturn));
}

/**
 * What a handler's error becomes. Protocol errors and input requests are answered by the server
 * (thrown on). A {@link ToolError} (a tool service's failure is one) was meant for the model: its
 * message is the result. Anything else may hold anything (a connection string, a password): it is
 * logged with a correlation id and its stack, and the model reads only the id, unless the endpoint
 * runs in development. The same rule as a tool service's errors.
 */
function handlerFailure(tool: CompiledTool, error: unknown, ctx: object | undefined): CallToolResult {
  if (error instanceof ProtocolError || error instanceof InputRequired) throw error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ToolError) return errorResult(`Tool ${tool.name} failed: ${message}`);
  const id = randomToken(6);
  console.error(`edge-mcp: tool ${tool.name} failed (id ${id}): ${error instanceof Error && error.stack ? error.stack : message}`);
  if (ctx !== undefined && inDevelopment(ctx)) return errorResult(`Tool ${tool.name} failed (id ${id}): ${message}`);
  return errorResult(`Tool ${tool.name} failed (id ${id}); the server's log has the details.`);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** Answers with an isError result when the call has not finished within `ms` (its late result is dropped). */
export function withDeadline(call: Promise<CallToolResult>, ms: number, name: string): Promise<CallToolResult> {
  let cancel: () => void = () => {};
  const deadline = new Promise<CallToolResult>((resolve) => {
    const timer = setTimeout(() => resolve(errorResult(`Tool ${name} did not finish within ${ms} ms`)), ms);
    cancel = () => clearTimeout(timer);
  });
  return Promise.race([call, deadline]).finally(() => cancel());
}

const utf8 = new TextEncoder();

/** Replaces a result whose JSON is over `maxBytes` with an isError result saying so. */
export function capResult(result: CallToolResult, maxBytes: number, name: string): CallToolResult {
  const json = JSON.stringify(result);
  // UTF-8 takes at most 3 bytes per UTF-16 unit: only long strings need an exact count.
  const bytes = json.length * 3 <= maxBytes ? json.length : utf8.encode(json).length;
  if (bytes <= maxBytes) return result;
  return errorResult(`Tool ${name} returned ${bytes} bytes, more than this server's limit of ${maxBytes}; ask for less data (a narrower query, a page)`);
}
