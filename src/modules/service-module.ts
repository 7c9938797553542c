/** Service-bound modules: a tool service's catalogue turned into prefixed tools with timeouts and fault isolation. */

import { ToolError } from "../core/tool-error.ts";
import { DefinitionError } from "../core/definition-error.ts";
import { isObject } from "../core/json.ts";
import type { CallToolResult } from "../core/types.ts";
import type { HandlerContext } from "../server/context/handler-context.ts";
import { defineTool, type ToolDefinition } from "../server/tools/tool.ts";
import type { ServiceCallContext, ServiceCatalog, ToolService } from "./service-contract.ts";

export interface ServiceModuleOptions {
  /** The module's name in the tenant config (named in every error). */
  name: string;
  /** Prefix of the listed names: `<prefix>_<tool>`. */
  prefix: string;
  timeoutMs: number;
}

/** The verified identity of a call, as a service receives it: tenant, subject, scopes — never a token. */
export function callContext(ctx: HandlerContext): ServiceCallContext {
  const context: ServiceCallContext = { tenant: ctx.tenant, scopes: ctx.principal?.scopes ?? [], protocolVersion: ctx.protocolVersion };
  if (ctx.principal) {
    context.subject = ctx.principal.subject;
    context.issuer = ctx.principal.issuer;
  }
  const trace = ctx.trace;
  if (trace) {
    context.traceparent = trace.traceparent;
    if (trace.tracestate !== undefined) context.tracestate = trace.tracestate;
    if (trace.baggage !== undefined) context.baggage = trace.baggage;
  }
  return context;
}

/**
 * A service module failed (threw, timed out, answered nonsense). Its message names the module
 * and is safe to show a client; what the service said, which may hold anything (a connection
 * string, a stack), is only in `cause` and in the log.
 */
export class ModuleFailure extends ToolError {
  override readonly name = "ModuleFailure";
  override readonly code = "ERR_MODULE";
}

/** The text of whatever a service threw, for the log only. */
function detail(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Logs what a service threw, with the module and the operation, and returns the failure a client may see. */
export function serviceFailure(module: string, what: string, error: unknown, shown = `module ${module} failed`): ModuleFailure {
  console.error(`edge-mcp: module ${module}: ${what} failed: ${detail(error)}`);
  return new ModuleFailure(shown, { cause: error });
}

/** Races a call against a timeout; the error names the module. */
export function withTimeout<T>(promise: Promise<T>, ms: number, module: string, what: string): Promise<T> {
  let cancel: () => void = () => {};
  const timeout = new Promise<never>((_resolve, reject) => {
    const timer = setTimeout(() => reject(new ModuleFailure(`module ${module} did not answer ${what} within ${ms} ms`)), ms);
    cancel = () => clearTimeout(timer);
  });
  return Promise.race([promise, timeout]).finally(() => cancel());
}

function checkCatalog(value: unknown, module: string): ServiceCatalog {
  if (!isObject(value) || !Array.isArray(value["tools"])) throw new DefinitionError(`module ${module}: describe() must return {tools: [...]}`);
  if (value["skills"] !== undefined && !Array.isArray(value["skills"]))
    throw new DefinitionError(`module ${module}: describe() returned skills that are not an array`);
  for (const tool of value["tools"] as unknown[]) {
    if (!isObject(tool) || typeof tool["name"] !== "string" || !isObject(tool["inputSchema"])) {
      throw new DefinitionError(`module ${module}: every tool needs a name and an inputSchema object`);
    }
    const task = tool["task"];
    if (task !== undefined && task !== "never" && task !== "optional" && task !== "required") {
      throw new DefinitionError(`module ${module}: tool ${tool["name"]}: task must be "never", "optional" or "required"`);
    }
  }
  return value as unknown as ServiceCatalog;
}

/** Reads a service's catalogue with a timeout; throws an error naming the module. */
export async function describeService(service: ToolService, module: string, timeoutMs: number): Promise<ServiceCatalog> {
  try {
    return checkCatalog(await withTimeout(service.describe(), timeoutMs, module, "describe()"), module);
  } catch (error) {
    if (error instanceof DefinitionError || error instanceof ModuleFailure) throw error;
    throw serviceFailure(module, "describe()", error, `module ${module}: describe() failed`);
  }
}

/**
 * The tools of a service module: each validates its arguments locally (with the listed schema),
 * then calls the service. A service that throws or hangs yields an `isError` result naming the
 * module (what it threw is logged, never relayed); the other tools are untouched.
 */
export function serviceTools(service: ToolService, catalog: ServiceCatalog, options: ServiceModuleOptions): ToolDefinition[] {
  return catalog.tools.map((tool) =>
    defineTool({
      name: `${options.prefix}_${tool.name}`,
      ...(tool.title === undefined ? {} : { title: tool.title }),
      ...(tool.description === undefined ? {} : { description: tool.description }),
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
      ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
      ...(tool.task === undefined ? {} : { task: tool.task }),
      handler: async (args, ctx): Promise<CallToolResult> => {
        try {
          const call = service.callTool(tool.name, args, callContext(ctx));
          // Inside a task the call may take as long as the task lives; elsewhere the module's timeout applies.
          return await (ctx.taskId === undefined ? withTimeout(call, options.timeoutMs, options.name, `tool ${tool.name}`) : call);
        } catch (error) {
          if (error instanceof ModuleFailure) throw error;
          throw serviceFailure(options.name, `tool ${tool.name}`, error);
        }
      },
    }),
  );
}
