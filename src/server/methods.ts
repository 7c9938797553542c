/** The method tables of both eras: which JSON-RPC methods exist and what each does. */

import { unsupportedVersion } from "../core/era.ts";
import { invalidParams } from "../core/errors.ts";
import { own } from "../core/json.ts";
import type { InboundRequest } from "../core/jsonrpc.ts";
import { loggingLevelRank, type Implementation, type JsonObject } from "../core/types.ts";
import { LEGACY_VERSIONS, SUPPORTED_VERSIONS, isLegacyVersion } from "../core/versions.ts";
import { callTool, capResult, resolveTool, withDeadline } from "./call-tool.ts";
import type { ChangeHub } from "./change-hub.ts";
import { complete } from "./completion.ts";
import type { PromptRegistry } from "./prompt-registry.ts";
import { listPage } from "./list-page.ts";
import { createHandlerContext, type TransportContext } from "./request-context.ts";
import type { ResourceRegistry } from "./resource-registry.ts";
import { SKILLS_EXTENSION, type SkillRegistry } from "./skill-registry.ts";
import { RawResult, type MethodResult } from "./raw-result.ts";
import { TASKS_EXTENSION } from "./task-access.ts";
import { callAsTask, taskMethods } from "./task-methods.ts";
import type { ToolRegistry } from "./tool-registry.ts";
import { withInputs } from "./with-inputs.ts";

export type Method = (request: InboundRequest, ctx: TransportContext) => MethodResult | Promise<MethodResult>;

export interface MethodParts {
  info: Implementation;
  instructions: string | undefined;
  tools: ToolRegistry;
  resources: ResourceRegistry;
  prompts: PromptRegistry;
  skills: SkillRegistry;
  changes: ChangeHub;
  cacheHints: { ttlMs: number; cacheScope: string };
  serverInfoMeta: JsonObject;
}

const param = (request: InboundRequest, key: string): unknown => (request.params ? own(request.params, key) : undefined);

/** Builds both tables; a feature with nothing declared has no methods (and no capability). */
export function createMethods(parts: MethodParts): { legacy: Map<string, Method>; modern: Map<string, Method> } {
  const { tools, resources, prompts, skills, changes } = parts;
  const hasCompletions = prompts.size > 0 || resources.size > 0;

  const capabilities = (streams: boolean): JsonObject => {
    // Without a session a 2025 client has no stream for list_changed; 2026 clients use subscriptions/listen.
    const listChanged = streams ? { listChanged: true } : {};
    const caps: JsonObject = { logging: {} };
    if (hasCompletions) caps["completions"] = {};
    if (tools.size > 0) caps["tools"] = { ...listChanged };
    if (prompts.size > 0) caps["prompts"] = { ...listChanged };
    if (resources.size > 0) caps["resources"] = { subscribe: true, ...listChanged };
    // SEP-2640: declared in initialize and server/discover alike; skill files are also resources.
    if (skills.size > 0) caps["extensions"] = { [SKILLS_EXTENSION]: { directoryRead: true } };
    return caps;
  };
  const statelessCapabilities = capabilities(false);
  const sessionCapabilities = capabilities(true);
  const discoverResult = (capabilities: JsonObject): RawResult =>
    new RawResult(
      JSON.stringify({
        resultType: "complete",
        supportedVersions: SUPPORTED_VERSIONS,
        capabilities,
        ...(parts.instructions === undefined ? {} : { instructions: parts.instructions }),
        ...parts.cacheHints,
        _meta: parts.serverInfoMeta,
      }),
    );
  const discover = discoverResult(sessionCapabilities);
  // The tasks extension is listed where tasks run: task tools, and a task store on the endpoint.
  // Extensions merge: a server may declare skills and tasks together.
  const withTasks = { ...sessionCapabilities, extensions: { ...(sessionCapabilities["extensions"] as JsonObject | undefined), [TASKS_EXTENSION]: {} } };
  const discoverWithTasks = tools.taskCapable ? discoverResult(withTasks) : discover;

  const toolsCall: Method = async (request, ctx) => {
    let tool = ctx.tool ?? resolveTool(tools, request.params);
    const binding = { method: "tools/call", target: tool.name, args: param(request, "arguments") };
    let params = request.params;
    if (tool === tools.callTool) {
      // Tool search's call_tool: its target is admitted and run here, as a direct tools/call of it
      // (everything below, and anything added to it, applies to the target).
      const target = await tools.callTarget(tool, params, ctx);
      if (!("tool" in target)) return target as unknown as JsonObject;
      ({ tool, params } = target);
    }
    if (tool.task !== "never") {
      // A task tool runs as a task whether it is called directly or through call_tool.
      const answer = await callAsTask(tool, params === request.params ? request : { ...request, params }, ctx, ctx.changes ?? changes);
      if (answer !== undefined) return answer;
    }
    const run = tool;
    return withInputs(request, ctx, binding, async (inputs) => {
      const call = callTool(run, params, createHandlerContext(ctx, ctx.changes ?? changes, inputs));
      const limits = ctx.admission.limits;
      const result = limits.toolTimeoutMs === undefined ? await call : await withDeadline(call, limits.toolTimeoutMs, run.name);
      return (limits.maxResultBytes === undefined ? result : capResult(result, limits.maxResultBytes, run.name)) as unknown as JsonObject;
    });
  };
  const promptsGet: Method = async (request, ctx) => {
    const prompt = prompts.resolve(param(request, "name"));
    const binding = { method: "prompts/get", target: prompt.name, args: param(request, "arguments") };
    return withInputs(request, ctx, binding, (inputs) => prompts.get(prompt, request.params, createHandlerContext(ctx, ctx.changes ?? changes, inputs)));
  };
  const resourcesRead: Method = async (request, ctx) => {
    const uri = param(request, "uri");
    const binding = { method: "resources/read", target: typeof uri === "string" ? uri : "", args: {} };
    const result = await withInputs(request, ctx, binding, (inputs) => resources.read(uri, createHandlerContext(ctx, ctx.changes ?? changes, inputs)));
    // 2026-07-28 caching: a complete read is cacheable; an input_required one is not.
    return ctx.era === "modern" && result["resultType"] === undefined ? { ...result, ...parts.cacheHints } : result;
  };
  const acceptUri: Method = (request) => {
    if (typeof param(request, "uri") !== "string") throw invalidParams(`params.uri must be a resource URI`);
    return {};
  };

  const shared: [string, Method][] = [];
  if (tools.size > 0) {
    shared.push(["tools/list", (request, ctx) => listPage(request, ctx, (c, era) => tools.page(c, era, ctx.toolFilter))], ["tools/call", toolsCall]);
  }
  if (prompts.size > 0) {
    shared.push(["prompts/list", (request, ctx) => listPage(request, ctx, (c, era) => prompts.page(c, era))], ["prompts/get", promptsGet]);
  }
  if (resources.size > 0) {
    shared.push(
      ["resources/list", (request, ctx) => listPage(request, ctx, (c, era) => resources.resourcesPage(c, era))],
      ["resources/templates/list", (request, ctx) => listPage(request, ctx, (c, era) => resources.templatesPage(c, era))],
      ["resources/read", resourcesRead],
    );
  }
  if (skills.size > 0) {
    shared.push(
      ["skills/list", (request, ctx) => listPage(request, ctx, (cursor, era) => skills.listPage(cursor, era))],
      ["skills/get", async (request, ctx) => new RawResult(await skills.get(param(request, "uri"), ctx.era))],
      ["resources/directory/read", (request, ctx) => listPage(request, ctx, (cursor, era) => skills.directoryPage(param(request, "uri"), cursor, era))],
    );
  }
  if (hasCompletions) shared.push(["completion/complete", (request) => complete(request.params, prompts, resources)]);

  const legacy = new Map<string, Method>([
    [
      "initialize",
      (request, ctx) => {
        const requested = param(request, "protocolVersion");
        if (typeof requested !== "string")
          throw invalidParams(`initialize needs params.protocolVersion (a string such as "2025-11-25")`, { status: 400, requestId: request.id });
        // Answer with the requested version when we speak it, else our newest legacy one (2025-11-25 lifecycle).
        const allowed = ctx.versions === undefined ? LEGACY_VERSIONS : LEGACY_VERSIONS.filter((v) => ctx.versions?.has(v));
        const newest = allowed[0];
        if (newest === undefined) throw unsupportedVersion(requested, request.id, [...(ctx.versions ?? [])]);
        const protocolVersion = isLegacyVersion(requested) && allowed.includes(requested) ? requested : newest;
        const result: JsonObject = { protocolVersion, capabilities: ctx.sessionful ? sessionCapabilities : statelessCapabilities, serverInfo: parts.info };
        if (parts.instructions !== undefined) result["instructions"] = parts.instructions;
        return result;
      },
    ],
    ["ping", () => ({})],
    [
      "logging/setLevel",
      (request) => {
        // A session keeps the level; without one it cannot outlive this request (info and above are sent).
        if (loggingLevelRank(param(request, "level")) === undefined) {
          throw invalidParams(`logging/setLevel needs params.level, one of debug, info, notice, warning, error, critical, alert, emergency`);
        }
        return {};
      },
    ],
    ...shared,
  ]);
  if (resources.size > 0) {
    // Subscriptions are acknowledged; updates reach 2025 clients only through a session's GET stream.
    legacy.set("resources/subscribe", acceptUri);
    legacy.set("resources/unsubscribe", acceptUri);
  }

  const modern = new Map<string, Method>([["server/discover", (_request, ctx) => (ctx.tasks ? discoverWithTasks : discover)], ...shared]);
  if (tools.taskCapable) for (const [name, method] of taskMethods()) modern.set(name, method);
  // Served by the transport (a long-lived stream), listed here so the method exists.
  modern.set("subscriptions/listen", () => {
    throw new Error("subscriptions/listen is answered by the HTTP transport");
  });
  return { legacy, modern };
}
