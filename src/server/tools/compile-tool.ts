/** Compiles a tool declaration once per isolate: listed form, validators, custom header params. */

import { DefinitionError } from "../../core/definition-error.ts";
import { isObject } from "../../core/json.ts";
import { closestName } from "../../core/suggest.ts";
import type { JsonObject } from "../../core/types.ts";
import { compileSchema, type CompiledSchema, type JsonSchemaValidator } from "./schema-validator.ts";
import type { ToolContext } from "../context/handler-context.ts";
import type { TaskSupport, ToolDefinition, ToolReturn } from "./tool.ts";
import { HEADER_PARAM_TYPES, HTTP_TOKEN, TOOL_NAME } from "../../core/names.ts";

/** A tool argument mirrored in an `Mcp-Param-{Name}` header (2026-07-28 `x-mcp-header`). */
export interface HeaderParam {
  /** Lower-cased header name, e.g. `mcp-param-region`. */
  header: string;
  /** Property names from the arguments object down to the value. */
  path: string[];
  type: "string" | "integer" | "boolean";
}

export interface CompiledTool {
  name: string;
  /** The `Tool` object as listed by `tools/list`. */
  listed: JsonObject;
  input: CompiledSchema;
  output: CompiledSchema | undefined;
  headerParams: HeaderParam[];
  handler: (args: never, ctx: ToolContext) => ToolReturn | Promise<ToolReturn>;
  task: TaskSupport;
  beforeTask: ((args: never, ctx: ToolContext) => ToolReturn | undefined | void | Promise<ToolReturn | undefined | void>) | undefined;
}

const TASK_SUPPORT: ReadonlySet<unknown> = new Set(["never", "optional", "required"]);

function collectHeaderParams(schema: JsonObject, toolName: string, path: string[], found: HeaderParam[]): void {
  const properties = schema["properties"];
  if (!isObject(properties)) return;
  for (const [key, child] of Object.entries(properties)) {
    if (!isObject(child)) continue;
    const childPath = [...path, key];
    const name = child["x-mcp-header"];
    if (name !== undefined) {
      const where = `tool ${toolName}: property ${childPath.join(".")}`;
      if (typeof name !== "string" || !HTTP_TOKEN.test(name)) throw new DefinitionError(`${where}: x-mcp-header must be a non-empty HTTP token`);
      const type = child["type"];
      if (typeof type !== "string" || !HEADER_PARAM_TYPES.has(type)) {
        throw new DefinitionError(`${where}: x-mcp-header is allowed only on string, integer or boolean properties`);
      }
      const header = `mcp-param-${name.toLowerCase()}`;
      if (found.some((p) => p.header === header)) throw new DefinitionError(`${where}: x-mcp-header "${name}" is used twice`);
      found.push({ header, path: childPath, type: type as HeaderParam["type"] });
    }
    collectHeaderParams(child, toolName, childPath, found);
  }
}

/**
 * Checks a declaration and compiles it; throws {@link DefinitionError} naming the tool and the
 * problem. Its JSON Schemas are compiled by `validator` (default: the core one).
 */
export function compileTool(definition: ToolDefinition, validator?: JsonSchemaValidator): CompiledTool {
  const { name } = definition;
  if (typeof name !== "string" || !TOOL_NAME.test(name)) {
    throw new DefinitionError(`tool name ${JSON.stringify(name)} must be 1-128 characters of A-Z a-z 0-9 _ - .`);
  }
  if (typeof definition.handler !== "function") {
    // A misspelled key (`handle`, `hanlder`) is the usual cause: name it.
    const meant = definition.handler === undefined ? Object.keys(definition).find((key) => closestName(key, ["handler"]) === "handler") : undefined;
    throw new DefinitionError(`tool ${name}: handler must be a function${meant === undefined ? "" : `; ${meant} is not a tool field: did you mean handler?`}`);
  }
  const task = definition.task ?? "never";
  if (!TASK_SUPPORT.has(task)) throw new DefinitionError(`tool ${name}: task must be "never", "optional" or "required"; got ${JSON.stringify(task)}`);
  if (definition.beforeTask !== undefined && (typeof definition.beforeTask !== "function" || task === "never")) {
    throw new DefinitionError(`tool ${name}: beforeTask must be a function, on a tool whose task is "optional" or "required"`);
  }
  const input = compileSchema(definition.inputSchema, `tool ${name} inputSchema`, validator);
  if (input.json["type"] !== "object") throw new DefinitionError(`tool ${name}: inputSchema must have type "object" at its root`);
  const output = definition.outputSchema === undefined ? undefined : compileSchema(definition.outputSchema, `tool ${name} outputSchema`, validator);

  const headerParams: HeaderParam[] = [];
  collectHeaderParams(input.json, name, [], headerParams);

  const listed: JsonObject = { name };
  if (definition.title !== undefined) listed["title"] = definition.title;
  if (definition.description !== undefined) listed["description"] = definition.description;
  listed["inputSchema"] = input.json;
  if (output) listed["outputSchema"] = output.json;
  if (definition.annotations !== undefined) listed["annotations"] = definition.annotations;
  if (definition.icons !== undefined) listed["icons"] = definition.icons;
  if (definition._meta !== undefined) listed["_meta"] = definition._meta;
  if (definition.securitySchemes !== undefined) listed["securitySchemes"] = definition.securitySchemes;

  return {
    name,
    listed,
    input,
    output,
    headerParams,
    handler: definition.handler,
    task,
    beforeTask: definition.beforeTask,
  };
}
