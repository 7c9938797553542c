/**
 * The seam through which every feature joins a server: what it declares (capabilities, extensions),
 * its methods per era, and what it adds to a handler's context. Tools, resources, prompts,
 * completions, skills and tasks come in through it; so does any opt-in extension
 * (`createServer({ features: [myExtension] })`).
 */

import type { InboundRequest } from "../core/jsonrpc.ts";
import type { Implementation, JsonObject } from "../core/types.ts";
import type { HandlerContextFactory } from "./context/create-handler-context.ts";
import type { TransportContext } from "./context/transport.ts";
import type { ChangeHub } from "./notifications/change-hub.ts";
import type { PromptRegistry } from "./prompts/prompt-registry.ts";
import type { MethodResult } from "./raw-result.ts";
import type { PagedListOptions } from "./lists/paged-list.ts";
import type { PromptDefinition } from "./prompts/prompt.ts";
import type { ResourceDefinition, ResourceTemplateDefinition } from "./resources/resource.ts";
import type { UriTemplate } from "./resources/uri-template.ts";
import type { Skill, SkillLimits } from "./skills/skill.ts";
import type { ResourceRegistry } from "./resources/resource-registry.ts";
import type { SkillRegistry } from "./skills/skill-registry.ts";
import type { CompiledTool } from "./tools/compile-tool.ts";
import type { FeatureToolFilter } from "./tools/tool-view.ts";
import type { ToolRegistry } from "./tools/tool-registry.ts";
import type { ToolDefinition } from "./tools/tool.ts";
import type { JsonSchemaValidator } from "./tools/schema-validator.ts";

/** One JSON-RPC method: the request and what the transport knows of it, to a result. */
export type Method = (request: InboundRequest, ctx: TransportContext) => MethodResult | Promise<MethodResult>;

/** A method table entry: its name and what answers it. */
export type MethodEntry = readonly [name: string, method: Method];

/**
 * Marks a declaration with the features it needs: `defineResource`, `definePrompt` and
 * `defineSkill` mark theirs, so that a server brings the code of resources, prompts and skills
 * into a Worker's bundle only when it declares any.
 */
export const FEATURES: unique symbol = Symbol.for("edge-mcp.features");

/** A declaration that may name the features it needs. */
export interface NeedsFeatures {
  readonly [FEATURES]?: readonly Feature[];
}

/** The declaration with the features it needs named on it (an enumerable symbol key: spreads keep it, JSON leaves it out). */
export function needing<T extends object>(declaration: T, features: readonly Feature[]): T {
  return { ...declaration, [FEATURES]: features };
}

/** The declarations of a server that features compile (see `ServerOptions`). */
export interface Declarations {
  readonly resources?: readonly ResourceDefinition[] | undefined;
  readonly resourceTemplates?: readonly ResourceTemplateDefinition[] | undefined;
  readonly prompts?: readonly PromptDefinition[] | undefined;
  readonly skills?: readonly Skill[] | undefined;
  readonly skillLimits?: SkillLimits | undefined;
}

/** What a server gives its features as it installs them, in rank order. */
export interface FeatureHost {
  readonly info: Implementation;
  readonly declarations: Declarations;
  /** Resources that features add (their own `resources` and skill files), read by the resources feature. */
  readonly addedResources: ResourceDefinition[];
  /** List settings every registry shares (page sizes, the 2026 tail, the cursor scope). */
  readonly lists: PagedListOptions;
  readonly tools: ToolRegistry;
  /** Set by the resources feature, when installed. */
  resources?: ResourceRegistry;
  /** Compiles a resource template's URI template; set by the URI templates feature (what `defineResource*` bring). */
  uriTemplates?: (template: string) => UriTemplate;
  /** Set by the prompts feature, when installed. */
  prompts?: PromptRegistry;
  /** Set by the skills feature, when installed. */
  skills?: SkillRegistry;
  /** The server's own change feed (a request may carry another: `ctx.changes`). */
  readonly changes: ChangeHub;
  /** 2026-07-28 caching hints of list, read and discover results. */
  readonly cacheHints: { readonly ttlMs: number; readonly cacheScope: string };
  /** Builds a handler's context for a request (with what every feature adds to it). */
  readonly handlerContext: HandlerContextFactory;
}

/**
 * Runs a `tools/call` in the feature's own way, or returns undefined to let it run in the request
 * as usual (tasks: a task tool called by a client that declared the extension becomes a task).
 * `params` are the call's (for tool search's `call_tool`: its target's). A hook that declines at
 * once may return undefined itself rather than a promise of it (no wait on every call).
 */
export type ToolCallHook = (tool: CompiledTool, request: InboundRequest, ctx: TransportContext) => Promise<JsonObject | undefined> | JsonObject | undefined;

/** What an installed feature brings. Every member is optional: a feature brings only what it has. */
export interface FeatureParts {
  /** Adds its entries to a capabilities object; `streams`: the client has a stream for `list_changed` (a 2025 session). */
  capabilities?: (capabilities: JsonObject, streams: boolean) => void;
  /** Extensions it declares in `capabilities.extensions` (initialize and server/discover), by id. */
  extensions?: Readonly<Record<string, JsonObject>>;
  /**
   * Declares `extensions` only for requests this says yes to (tasks: where the endpoint has a task
   * store). Checked per `server/discover`; absent means always.
   */
  declaredFor?: (ctx: TransportContext) => boolean;
  /** Methods of both eras. */
  methods?: readonly MethodEntry[];
  /** Methods of the 2025 era only (`initialize`-negotiated revisions). */
  legacyMethods?: readonly MethodEntry[];
  /** Methods of 2026-07-28 only. */
  modernMethods?: readonly MethodEntry[];
  /** Runs some `tools/call`s its own way (see {@link ToolCallHook}). */
  callTool?: ToolCallHook;
  /**
   * Hides tools from this request's view, for one reader: `client` for its `tools/list` (apps:
   * app-only tools from a client that does not render apps), `model` for what a model reads
   * directly: tool search results and `call_tool` (apps: every app-only tool). Undefined hides
   * nothing. Combined with the caller's own filter.
   */
  toolFilter?: FeatureToolFilter;
  /**
   * Members it adds to every handler's context, each computed from the request's transport on
   * first read (a getter on the server's context class: no cost to a handler that does not read it).
   */
  context?: Readonly<Record<string, (transport: TransportContext) => unknown>>;
}

/**
 * A feature of a server. Built-in ones are always installed and bring nothing when the server
 * declares nothing of theirs; an extension is passed in `createServer({ features })`.
 *
 * @example
 * const echo: Feature = {
 *   name: "echo",
 *   install: () => ({ extensions: { "example.com/echo": {} }, modernMethods: [["echo/say", (request) => ({ said: request.params ?? {} })]] }),
 * };
 */
export interface Feature {
  /** Names the feature in errors (a method declared twice) and logs. */
  readonly name: string;
  /** Install order (built-ins: skills 10, resources 20, prompts 30, completions 40, tasks 50; default 100). */
  readonly rank?: number;
  /** Features it needs installed with it (an app's resources need the resources feature). */
  readonly requires?: readonly Feature[];
  /** Tools it adds to the server, compiled and checked with the server's own. */
  readonly tools?: readonly ToolDefinition[];
  /** Resources it adds to the server. */
  readonly resources?: readonly ResourceDefinition[];
  /**
   * The validator of every JSON Schema of the server's tools, in place of the core one
   * (`fullJsonSchema()` from edge-mcp/json-schema). Read when the tools are compiled, before install.
   */
  readonly jsonSchema?: JsonSchemaValidator;
  /** Called once per server (per isolate) after its declarations are compiled. */
  install(host: FeatureHost): FeatureParts;
}
