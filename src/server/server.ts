/** The MCP server: tools, resources and prompts compiled once, and one method table per protocol era. */

import { ErrorCode, ProtocolError } from "../core/errors.ts";
import { isObject } from "../core/json.ts";
import type { InboundRequest } from "../core/jsonrpc.ts";
import type { Implementation, JsonObject } from "../core/types.ts";
import { MetaKey } from "../core/versions.ts";
import { ChangeHub } from "./notifications/change-hub.ts";
import { handlerContextFactory, type HandlerContextFactory } from "./context/create-handler-context.ts";
import type { Era } from "./context/handler-context.ts";
import { DefinitionError } from "../core/definition-error.ts";
import { FEATURES, type Feature, type FeatureHost, type FeatureParts, type Method, type NeedsFeatures, type ToolCallHook } from "./feature.ts";
import { createMethods } from "./methods.ts";
import { taskWiring } from "./tasks/task-wiring.ts";
import { toolsFeature } from "./tools/tools-feature.ts";
import type { TransportContext } from "./context/transport.ts";
import type { PromptDefinition } from "./prompts/prompt.ts";
import { RawResult, type MethodResult } from "./raw-result.ts";
import type { ResourceDefinition, ResourceTemplateDefinition } from "./resources/resource.ts";
import type { Skill, SkillLimits } from "./skills/skill.ts";
import { ToolRegistry, type UnavailableModule } from "./tools/tool-registry.ts";
import type { FeatureToolFilter } from "./tools/tool-view.ts";
import type { ToolSearch } from "./tools/tool-search.ts";
import type { ToolDefinition } from "./tools/tool.ts";
import { checkOptions, type OptionRule } from "../core/option-checks.ts";
import { SERVER_OPTION_RULES } from "./server-option-rules.ts";

export interface ServerOptions {
  /** `serverInfo` sent to clients: name and version are required. */
  info: Implementation;
  /** Guidance for the model on how to use this server. */
  instructions?: string;
  tools?: readonly ToolDefinition[];
  resources?: readonly ResourceDefinition[];
  resourceTemplates?: readonly ResourceTemplateDefinition[];
  prompts?: readonly PromptDefinition[];
  /** Agent Skills (from `defineSkill`) served through the skills extension (SEP-2640); their files are resources too. */
  skills?: readonly Skill[];
  /** Per-skill limits on files and bytes (defaults: 512 files, 4 MiB per file, 16 MiB per skill). */
  skillLimits?: SkillLimits;
  /** Items per list page (default 100). */
  /** Most items on a list page (default: no bound; pages are bounded by `pageBytes`). */
  pageSize?: number;
  /** Most bytes of items on a list page (default 128 KiB). */
  pageBytes?: number;
  /**
   * Most pages of any list (default 32): pages grow past `pageSize` and `pageBytes` when a list
   * would need more, so that clients which follow a bounded number of pages (the official v2
   * client: 64) reach its end.
   */
  maxPages?: number;
  /** 2026-07-28 caching hint on list, read and discover results, in ms (default 300000). */
  listTtlMs?: number;
  /** 2026-07-28 cache scope: "public" unless results depend on who asks (default "public"). */
  cacheScope?: "public" | "private";
  /** Binds list cursors to this server (a tenant id): a cursor minted by another is refused. */
  scope?: string;
  /** Modules that could not be loaded: calls under their prefix get an isError result naming them. */
  unavailableModules?: readonly UnavailableModule[];
  /**
   * Tool search, off by default: `toolSearch(options)` adds `search_tools`, `describe_tools` and
   * `call_tool` (see docs/tool-search.md). Servers without it do not bundle its code.
   */
  toolSearch?: ToolSearch;
  /**
   * Extensions and other opt-in features, each through the feature seam (see {@link Feature}):
   * what they declare, their methods per era, their tools and resources, what they add to a
   * handler's context.
   */
  features?: readonly Feature[];
}

/** A compiled MCP server. Build it once per isolate (at module scope) with {@link createServer}. */
export interface McpServer {
  readonly info: Implementation;
  readonly tools: ToolRegistry;
  /** Announce list changes and resource updates to listening clients. */
  readonly changes: ChangeHub;
  /** Runs one request; throws {@link ProtocolError} for JSON-RPC errors. */
  handle(request: InboundRequest, ctx: TransportContext): Promise<MethodResult>;
  /**
   * {@link handle} without a promise where the method needs none (a synchronous tool): the result
   * itself, or a promise of it; throws (or rejects with) a {@link ProtocolError}.
   */
  dispatch(request: InboundRequest, ctx: TransportContext): MethodResult | Promise<MethodResult>;
  /** The capabilities (with `extensions`) a stateless request sees: what a Server Card describes. */
  readonly capabilities: JsonObject;
  /** True when the era has this method (404 / -32601 otherwise in 2026-07-28). */
  hasMethod(method: string, era: Era): boolean;
  /** Builds a handler's context for a request of this server (with what its features add). */
  readonly handlerContext: HandlerContextFactory;
}

/**
 * The features a server installs besides tools: those its declarations name (`defineResource`,
 * `definePrompt`, `defineSkill` mark theirs, so a Worker bundles only what it declares), the
 * extensions it is given, with what they require, in rank order, and tasks when a task gateway's
 * module registered them (see task-wiring.ts).
 */
function featuresOf(options: ServerOptions): Feature[] {
  const wanted = new Set<Feature>();
  const add = (feature: Feature): void => {
    if (wanted.has(feature)) return;
    wanted.add(feature);
    for (const required of feature.requires ?? []) add(required);
  };
  const kinds: [string, readonly object[] | undefined, string][] = [
    ["resources", options.resources, "defineResource"],
    ["resources", options.resourceTemplates, "defineResourceTemplate"],
    ["prompts", options.prompts, "definePrompt"],
    ["skills", options.skills, "defineSkill"],
  ];
  for (const [, declarations] of kinds)
    for (const declaration of declarations ?? []) for (const feature of (declaration as NeedsFeatures)[FEATURES] ?? []) add(feature);
  for (const feature of options.features ?? []) add(feature);
  const names = new Set([...wanted].map((feature) => feature.name));
  if (!names.has("tasks") && taskWiring.feature) wanted.add(taskWiring.feature);
  for (const [kind, declarations, define] of kinds) {
    if ((declarations?.length ?? 0) > 0 && !names.has(kind)) {
      throw new DefinitionError(`${kind} must be declared with ${define}(…): a plain object does not bring the ${kind} feature into the server`);
    }
  }
  return [...wanted].sort((a, b) => (a.rank ?? 100) - (b.rank ?? 100));
}

/**
 * Compiles a server: validates every declaration; validators, list pages and the search index
 * are built on first use. Throws a `DefinitionError` that names the tool, resource, prompt or
 * skill (and file) and the problem.
 */
export function createServer(options: ServerOptions): McpServer {
  checkOptions(options, SERVER_OPTION_RULES satisfies Record<keyof ServerOptions, OptionRule>, "createServer");
  const info = options.info;
  const serverInfoMeta = { [MetaKey.serverInfo]: info };
  const ttlMs = options.listTtlMs ?? 300_000;
  const cacheScope = options.cacheScope ?? "public";
  const cacheHints = { ttlMs, cacheScope };
  const tail = (scope: string) => `,"resultType":"complete","ttlMs":${ttlMs},"cacheScope":${JSON.stringify(scope)},"_meta":${JSON.stringify(serverInfoMeta)}`;
  const listOptions = {
    pageSize: options.pageSize,
    pageBytes: options.pageBytes,
    maxPages: options.maxPages,
    modernTail: tail(cacheScope),
    scope: options.scope ?? info.name,
  };

  const extra = options.features ?? [];
  // What features hide from a request's view of the tools, filled as they install.
  const filters: FeatureToolFilter[] = [];
  const tools = new ToolRegistry([...(options.tools ?? []), ...extra.flatMap((feature) => feature.tools ?? [])], {
    ...listOptions,
    privateModernTail: tail("private"),
    unavailable: options.unavailableModules ?? [],
    search: options.toolSearch,
    filters,
    validator: extra.find((feature) => feature.jsonSchema)?.jsonSchema,
  });
  const changes = new ChangeHub();

  // The seam: every feature is installed once; the handler context is made once every feature has said what it adds.
  const hooks: ToolCallHook[] = [];
  let handlerContext: HandlerContextFactory = () => {
    throw new Error("a handler context was asked for while the server was being built");
  };
  const host: FeatureHost = {
    info,
    declarations: options,
    addedResources: extra.flatMap((feature) => feature.resources ?? []),
    lists: listOptions,
    tools,
    changes,
    cacheHints,
    handlerContext: (transport, inputs) => handlerContext(transport, inputs),
  };
  const features = [toolsFeature(() => hooks), ...featuresOf(options)];
  const installed: (FeatureParts & { name: string })[] = features.map((feature) => ({ ...feature.install(host), name: feature.name }));
  const members = new Map<string, (transport: TransportContext) => unknown>();
  for (const parts of installed) {
    if (parts.callTool) hooks.push(parts.callTool);
    if (parts.toolFilter) filters.push(parts.toolFilter);
    for (const [name, compute] of Object.entries(parts.context ?? {})) members.set(name, compute);
  }
  handlerContext = handlerContextFactory(members);
  const methods = createMethods({ info, instructions: options.instructions, cacheHints, serverInfoMeta }, installed);

  const table = (era: Era): ReadonlyMap<string, Method> => (era === "modern" ? methods.modern : methods.legacy);
  // 2026-07-28: every result carries resultType, and serverInfo in _meta (basic/index "_meta"). Most
  // results have neither: their JSON gets the same members, serialised once per server, at its end.
  const completeTail = `"resultType":"complete","_meta":${JSON.stringify(serverInfoMeta)}}`;
  const modernResult = (result: MethodResult): MethodResult => {
    if (result instanceof RawResult) return result;
    if (result["resultType"] === undefined && result["_meta"] === undefined && result["toJSON"] === undefined) {
      const json = JSON.stringify(result);
      return new RawResult(json.length === 2 ? `{${completeTail}` : `${json.slice(0, -1)},${completeTail}`, result["isError"] === true);
    }
    const meta = isObject(result["_meta"]) ? { ...result["_meta"], ...serverInfoMeta } : serverInfoMeta;
    return { ...result, resultType: result["resultType"] ?? "complete", _meta: meta };
  };
  const dispatch = (request: InboundRequest, ctx: TransportContext): MethodResult | Promise<MethodResult> => {
    const method = table(ctx.era).get(request.method);
    if (!method) {
      throw new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`, { status: ctx.era === "modern" ? 404 : 200 });
    }
    const result = method(request, ctx);
    if (ctx.era !== "modern") return result;
    return result instanceof Promise ? result.then(modernResult) : modernResult(result);
  };

  return {
    info,
    tools,
    changes,
    capabilities: methods.capabilities,
    hasMethod: (method, era) => table(era).has(method),
    handlerContext: host.handlerContext,
    dispatch,
    // An adapter, not a second path: a POST answered through it counted within noise of dispatch (bench:instructions, 3 x 500 calls, 2026-12-07).
    async handle(request, ctx) {
      return dispatch(request, ctx);
    },
  };
}
