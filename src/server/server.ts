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
import {
  FEATURES,
  type Feature,
  type FeatureHost,
  type FeatureParts,
  type Method,
  type NeedsFeatures,
  type ServerDeclarations,
  type ServiceKey,
  type ToolCallHook,
} from "./feature.ts";
import { createMethods } from "./methods.ts";
import type { TransportContext } from "./context/transport.ts";
import { RawResult, type MethodResult } from "./raw-result.ts";
import { installOrder } from "./install-order.ts";
// The server's one way back up (tools/): it compiles its tools, the one feature every server has.
import { toolsFeature } from "./tools/tools-feature.ts";
import { ToolRegistry, type UnavailableModule } from "./tools/tool-registry.ts";
import type { FeatureToolFilter } from "./tools/tool-view.ts";
import type { ToolSearch } from "./tools/tool-search.ts";
import type { ToolDefinition } from "./tools/tool.ts";
import { checkOptions, type OptionRule } from "../core/option-checks.ts";
import { SERVER_OPTION_RULES } from "./server-option-rules.ts";

/**
 * The options of {@link createServer}. Besides these, each built-in feature reads its own
 * declarations (widened into {@link ServerDeclarations} from its folder): `resources`,
 * `resourceTemplates`, `prompts`, `skills`, `skillLimits`.
 */
export interface ServerOptions extends ServerDeclarations {
  /** `serverInfo` sent to clients: name and version are required. */
  info: Implementation;
  /** Guidance for the model on how to use this server. */
  instructions?: string;
  tools?: readonly ToolDefinition[];
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
  /** The options it was compiled from (a task gateway compiles them again with the tasks feature). */
  readonly options: ServerOptions;
}

/** Options that are not declarations of features (the rest name the features their define function marks). */
const NOT_DECLARATIONS: ReadonlySet<string> = new Set(["tools", "features", "unavailableModules"]);

/**
 * The features a server installs besides tools: those its declarations name (`defineResource`,
 * `definePrompt`, `defineSkill` mark theirs, so a Worker bundles only what it declares), and the
 * extensions it is given, with what they require, in the order of the services they share.
 */
function featuresOf(options: ServerOptions): Feature[] {
  const wanted = new Set<Feature>();
  const add = (feature: Feature): void => {
    if (wanted.has(feature)) return;
    wanted.add(feature);
    for (const required of feature.requires ?? []) add(required);
  };
  const lists = Object.entries(options).filter(([key, value]) => !NOT_DECLARATIONS.has(key) && Array.isArray(value) && value.length > 0);
  for (const [, value] of lists) for (const declaration of value as readonly NeedsFeatures[]) for (const feature of declaration?.[FEATURES] ?? []) add(feature);
  for (const feature of options.features ?? []) add(feature);
  for (const [key] of lists) {
    if ([...wanted].some((feature) => feature.reads?.includes(key))) continue;
    // prompts → definePrompt, resourceTemplates → defineResourceTemplate: every declaration list is named after its define function.
    const define = `define${key[0]?.toUpperCase() ?? ""}${key.slice(1).replace(/s$/, "")}`;
    throw new DefinitionError(`${key} must be declared with ${define}(…): a plain object does not bring the feature that serves ${key} into the server`);
  }
  return installOrder([...wanted]);
}

/**
 * Compiles a server: validates every declaration; validators, list pages and the search index
 * are built on first use. Throws a `DefinitionError` that names the tool, resource, prompt or
 * skill (and file) and the problem. `changes`: the change feed, when the server shares another's
 * (a server compiled again from another's options).
 */
export function createServer(options: ServerOptions, changes: ChangeHub = new ChangeHub()): McpServer {
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

  // The seam: every feature is installed once; the handler context is made once every feature has said what it adds.
  const hooks: ToolCallHook[] = [];
  let handlerContext: HandlerContextFactory = () => {
    throw new Error("a handler context was asked for while the server was being built");
  };
  const services = new Map<ServiceKey<unknown>, unknown[]>();
  const host: FeatureHost = {
    info,
    options,
    lists: listOptions,
    tools,
    changes,
    cacheHints,
    handlerContext: (transport, inputs) => handlerContext(transport, inputs),
    provide: (key, value) => void services.set(key, [...(services.get(key) ?? []), value]),
    use: <T>(key: ServiceKey<T>) => (services.get(key) ?? []) as T[],
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
    options,
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
