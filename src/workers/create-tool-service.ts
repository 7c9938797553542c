/**
 * A tool service from `defineTool` definitions: `export const WeatherTools = createToolService({
 * tools: [forecast] })` is a `WorkerEntrypoint` whose `describe()` and `callTool()` are derived,
 * and whose handlers keep their typed arguments.
 */

import { WorkerEntrypoint } from "cloudflare:workers";
import { isStandardSchema } from "../core/standard-schema.ts";
import type { CallToolResult, JsonObject } from "../core/types.ts";
import type { ServiceCallContext, ServiceCatalog, ServiceTool, ToolService } from "../modules/service-contract.ts";
import type { SkillCatalog } from "../modules/skill-catalog.ts";
import type { HandlerEnv, ToolContext } from "../server/context/handler-context.ts";
import { compileTool, type CompiledTool } from "../server/tools/compile-tool.ts";
import { checkArguments, errorResult, runHandler } from "../server/tools/call-tool.ts";
import type { ToolDefinition } from "../server/tools/tool.ts";
import type { Feature } from "../server/feature.ts";

/** What a tool service serves: its tools, and optionally Agent Skills (`createSkillCatalog`). */
export interface ToolServiceDefinition {
  tools: readonly ToolDefinition[];
  skills?: SkillCatalog;
  /**
   * `fullJsonSchema()` from edge-mcp/json-schema, for tools whose schemas use keywords outside the
   * core validator (the calling Worker, which validates the arguments, needs it too).
   */
  jsonSchema?: Feature;
}

/** The class `createToolService` returns: export it under the name wrangler.toml's `entrypoint` gives. */
export type ToolServiceClass = new (ctx: ExecutionContext, env: never) => WorkerEntrypoint & ToolService;

/** What needs the MCP connection itself, which stays with the calling Worker. */
function unavailable(member: string): never {
  throw new Error(`ctx.${member} is not available in a tool service (the tool runs in another Worker than the MCP connection)`);
}

/** The handler context of a call through a service binding: the verified caller; nothing of the connection. */
function serviceContext(context: ServiceCallContext, env: HandlerEnv): ToolContext {
  const { traceparent, tracestate, baggage } = context;
  return {
    env,
    signal: new AbortController().signal,
    protocolVersion: context.protocolVersion,
    era: context.protocolVersion >= "2026-07-28" ? "modern" : "legacy",
    clientCapabilities: {},
    tenant: context.tenant,
    principal:
      context.subject === undefined
        ? undefined
        : { subject: context.subject, issuer: context.issuer ?? "", scopes: context.scopes, via: context.issuer === "api-key" ? "api-key" : "jwt" },
    trace:
      traceparent === undefined
        ? undefined
        : { traceparent, ...(tracestate === undefined ? {} : { tracestate }), ...(baggage === undefined ? {} : { baggage }) },
    taskId: undefined,
    get changes() {
      return unavailable("changes");
    },
    get handles() {
      return unavailable("handles");
    },
    progress() {},
    log() {},
    elicit: () => unavailable("elicit"),
    sample: () => unavailable("sample"),
    listRoots: () => unavailable("listRoots"),
    closeStream() {},
    input: () => unavailable("input"),
  };
}

/** A tool as its service lists it: the `tools/list` shape (a Standard Schema converted once). */
function listed(tool: CompiledTool): ServiceTool {
  const { title, description, annotations } = tool.listed as JsonObject & Partial<ServiceTool>;
  return {
    name: tool.name,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    inputSchema: tool.input.json,
    ...(tool.output ? { outputSchema: tool.output.json } : {}),
    ...(annotations === undefined ? {} : { annotations }),
    ...(tool.task === "never" ? {} : { task: tool.task }),
  };
}

/**
 * Makes a tool service (a `WorkerEntrypoint`) from `defineTool` definitions, checked when the
 * module loads. `describe()` lists them; `callTool()` runs the named handler and shapes its result
 * as a bundled tool's is (what a handler throws is not turned into a result: the calling Worker logs
 * it and answers that the module failed). The calling Worker validates arguments against the listed schema before
 * it calls, so a JSON Schema's arguments are not checked twice; a Standard Schema still parses
 * them here, so the handler gets its output (defaults, transforms). `ctx.elicit`, `ctx.handles` and
 * the like belong to the MCP connection, in the calling Worker: here they throw.
 *
 * @example
 * export const WeatherTools = createToolService({ tools: [forecast] });
 */
export function createToolService(definition: ToolServiceDefinition): ToolServiceClass {
  const tools = new Map<string, CompiledTool>();
  for (const tool of definition.tools.map((tool) => compileTool(tool, definition.jsonSchema?.jsonSchema))) tools.set(tool.name, tool);
  const catalog: ServiceCatalog = { tools: [...tools.values()].map(listed) };
  const skills = definition.skills;

  return class extends WorkerEntrypoint implements ToolService {
    async describe(): Promise<ServiceCatalog> {
      return skills ? { ...catalog, skills: await skills.describe() } : catalog;
    }

    async callTool(name: string, args: Record<string, unknown>, context: ServiceCallContext): Promise<CallToolResult> {
      const tool = tools.get(name);
      if (!tool) return errorResult(`Unknown tool: ${name}`);
      let value: unknown = args;
      if (isStandardSchema(definition.tools.find((t) => t.name === name)?.inputSchema)) {
        const checked = await checkArguments(tool, { name, arguments: args });
        if (!checked.ok) return checked.result;
        value = checked.args;
      }
      // What the handler throws goes back over RPC: the calling Worker logs it and tells the client only
      // that the module failed (it may hold anything). To tell the model something, return isError.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- HandlerEnv is empty here; a project's declaration fills it
      const result = await tool.handler(value as never, serviceContext(context, this.env as HandlerEnv));
      return runHandler(tool, () => result, undefined);
    }

    async readSkillFile(skill: string, path: string): Promise<string | Uint8Array> {
      if (!skills) throw new Error("this tool service lists no skills");
      return skills.read(skill, path);
    }
  };
}
