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
import type { MethodResult } from "./raw-result.ts";
import type { PagedListOptions } from "./lists/paged-list.ts";
// The seam's one way back up (tools/): every server compiles its tools first, and a feature may add, run or hide them.
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

/**
 * What a server declares besides its tools, read by the features that serve it. Each feature widens
 * this interface from its own folder with the options it reads (`declare module`), as hono's
 * middleware widen `ContextVariableMap`: prompts add `prompts`, resources `resources` and
 * `resourceTemplates`, skills `skills` and `skillLimits`. `ServerOptions` extends it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- widened by each feature's folder
export interface ServerDeclarations {}

/**
 * A service that features share through the {@link FeatureHost}, typed by `T` and owned by the
 * feature folder that creates it (`serviceKey<T>(name)`): the resources feature owns the key of
 * resources others add, the completions feature the key of completers others offer.
 */
export interface ServiceKey<T> {
  readonly name: string;
  /** Carries `T` for the type checker; never set. */
  readonly type?: T;
}

/** A new key for a service of type `T`, made once in the folder of the feature that owns it. */
export function serviceKey<T>(name: string): ServiceKey<T> {
  return { name };
}

/** What a server gives its features as it installs them, in the order of the services they use. */
export interface FeatureHost {
  readonly info: Implementation;
  /** The server's options: each feature reads its own part (see {@link ServerDeclarations}). */
  readonly options: ServerDeclarations;
  /** List settings every registry shares (page sizes, the 2026 tail, the cursor scope). */
  readonly lists: PagedListOptions;
  readonly tools: ToolRegistry;
  /** The server's own change feed (a request may carry another: `ctx.changes`). */
  readonly changes: ChangeHub;
  /** 2026-07-28 caching hints of list, read and discover results. */
  readonly cacheHints: { readonly ttlMs: number; readonly cacheScope: string };
  /** Builds a handler's context for a request (with what every feature adds to it). */
  readonly handlerContext: HandlerContextFactory;
  /** Adds a value to a service: a feature that names `key` in `provides` installs before those that name it in `uses`. */
  provide<T>(key: ServiceKey<T>, value: T): void;
  /** Every value provided to a service so far (empty when no installed feature provides it). */
  use<T>(key: ServiceKey<T>): readonly T[];
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
  /** Features it needs installed with it (an app's resources need the resources feature). */
  readonly requires?: readonly Feature[];
  /**
   * The lists of the server's options it serves (`prompts`; see {@link ServerDeclarations}): a
   * server that has such a list but not the feature refuses it at startup, naming the define
   * function that brings the feature (`definePrompt`).
   */
  readonly reads?: readonly string[];
  /** Services it provides to (see {@link FeatureHost.provide}): it installs before every feature that uses them. */
  readonly provides?: readonly ServiceKey<unknown>[];
  /** Services it reads at install (see {@link FeatureHost.use}): it installs after every feature that provides them. */
  readonly uses?: readonly ServiceKey<unknown>[];
  /** Tools it adds to the server, compiled and checked with the server's own. */
  readonly tools?: readonly ToolDefinition[];
  /**
   * The validator of every JSON Schema of the server's tools, in place of the core one
   * (`fullJsonSchema()` from edge-mcp/json-schema). Read when the tools are compiled, before install.
   */
  readonly jsonSchema?: JsonSchemaValidator;
  /** Called once per server (per isolate) after its declarations are compiled. */
  install(host: FeatureHost): FeatureParts;
}
