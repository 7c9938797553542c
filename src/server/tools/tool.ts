/** How a tool is declared: once, for every revision and transport mode. */

import type { StandardSchema, InferOutput } from "../../core/standard-schema.ts";
import type { CallToolResult, Icon, JsonObject, JsonSchema, ToolAnnotations } from "../../core/types.ts";
import type { ToolContext } from "../context/handler-context.ts";
import type { FromJsonSchema } from "./json-schema-type.ts";

/** A schema given as JSON Schema, or as any Standard Schema validator that can convert itself to JSON Schema. */
export type ToolSchema = JsonSchema | StandardSchema;

/**
 * Arguments a handler receives: the validator's output for a Standard Schema; for a JSON Schema
 * that keeps its literal types (written inline, or `as const`), the type it describes
 * ({@link FromJsonSchema}); else a plain object.
 */
export type ToolArgs<S> = S extends StandardSchema ? InferOutput<S> : S extends { readonly type: "object" } ? FromJsonSchema<S> : Record<string, unknown>;

/**
 * What a handler may return: a full `CallToolResult`, a string (sent as one text block), or,
 * for a tool with an `outputSchema`, `{ structuredContent }` alone (its JSON is added as text).
 */
export type ToolReturn = CallToolResult | string | { structuredContent: unknown; content?: undefined };

/**
 * Whether a call may run as a task (the 2026-07-28 tasks extension): `never` (the default) runs
 * every call in its request; `optional` makes a task when the client declares the extension and
 * runs synchronously otherwise; `required` refuses clients without it (-32021).
 */
export type TaskSupport = "never" | "optional" | "required";

/**
 * A tool's handler. Its arguments are checked bivariantly (the method form below), so that tools
 * whose arguments differ can share one `ToolDefinition[]` list; each handler still sees its own type.
 */
export type ToolHandler<Args> = { handle(args: Args, ctx: ToolContext): ToolReturn | Promise<ToolReturn> }["handle"];

export interface ToolDefinition<S extends ToolSchema = ToolSchema, Args = ToolArgs<S>> {
  /** 1–128 characters of `A-Z a-z 0-9 _ - .`, unique within the server. */
  name: string;
  title?: string;
  /** What the tool does, for the model. Conformance clients require one on every tool. */
  description?: string;
  /** The arguments: a JSON Schema whose root is `type: "object"`, or a Standard Schema. */
  inputSchema: S;
  /** The shape of `structuredContent`; results are checked against it. */
  outputSchema?: ToolSchema;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: JsonObject;
  /** What calling the tool requires (SEP-1488: `[{ type: "noauth" }]`, `[{ type: "oauth2", scopes }]`); auth tenants fill it in. */
  securitySchemes?: JsonObject[];
  handler: ToolHandler<Args>;
  /**
   * Run as a task, in its own Durable Object, outliving the request (default `never`). The
   * handler is the same; inside a task `ctx.elicit` and friends wait for `tasks/update`, and
   * `ctx.progress(…, message)` sets the task's status message.
   */
  task?: TaskSupport;
  /**
   * Runs in the request that would create the task, before it exists: input asked here
   * (`ctx.elicit`, …) goes back to the client as an ordinary `input_required` result, and the
   * answers are handed to the task, where the handler asking the same keys gets them at once.
   * Return a result to answer right away without a task (for example when the user declined).
   */
  beforeTask?: { before(args: Args, ctx: ToolContext): ToolReturn | undefined | void | Promise<ToolReturn | undefined | void> }["before"];
}

/**
 * Declares a tool. The identity function, there for type inference of the handler's arguments.
 *
 * @example
 * const echo = defineTool({
 *   name: "echo",
 *   description: "Returns the text it is given.",
 *   inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
 *   handler: (args) => String(args["text"]),
 * });
 */
export function defineTool<const S extends ToolSchema>(definition: ToolDefinition<S>): ToolDefinition<S> {
  return definition;
}
