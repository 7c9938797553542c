/** Turns a JSON Schema or Standard Schema into a listed JSON Schema and a compiled validator. */

import { DefinitionError } from "../../core/definition-error.ts";
import { isObject } from "../../core/json.ts";
import { isStandardSchema, type StandardIssue } from "../../core/standard-schema.ts";
import type { JsonSchema } from "../../core/types.ts";
import { clip, compileCoreSchema, MAX_ISSUES } from "../schema/core-schema.ts";
import { FULL_VALIDATOR_HINT, jsonSchemaProblems } from "../schema/json-schema-check.ts";
import { standardToJsonSchema } from "./standard-schema-conversion.ts";
import type { ToolSchema } from "./tool.ts";

export type ValidationOutcome = { ok: true; value: unknown } | { ok: false; issues: string[] };

export interface CompiledSchema {
  /** The JSON Schema shown to clients. */
  json: JsonSchema;
  /** Validates a value; synchronous for JSON Schema, possibly async for a Standard Schema. */
  validate(value: unknown): ValidationOutcome | Promise<ValidationOutcome>;
}

/**
 * Compiles the JSON Schemas of a server's tools: the core validator, or the full one a feature
 * brings (`fullJsonSchema()` from edge-mcp/json-schema, as {@link Feature.jsonSchema}).
 */
export interface JsonSchemaValidator {
  /**
   * Compiles a schema `jsonSchemaProblems` passed, at startup; throws a `DefinitionError` that
   * starts with `what` for a schema it cannot check. It may defer its work to the first value.
   * The function it returns never throws for a JSON value, and names at most 8 issues.
   */
  compile(schema: JsonSchema, what: string): (value: unknown) => ValidationOutcome;
}

/** The core validator (core-schema.ts); `compileSchema` refuses, at startup, a schema with a keyword outside it. */
export const coreValidator: JsonSchemaValidator = {
  compile(schema) {
    // Built on first use: most isolates of a large catalogue call few of its tools.
    let check: ReturnType<typeof compileCoreSchema> | undefined;
    return (value) => {
      const issues = (check ??= compileCoreSchema(schema))(value);
      return issues.length === 0 ? { ok: true, value } : { ok: false, issues };
    };
  },
};

function describeStandardIssues(issues: ReadonlyArray<StandardIssue>): string[] {
  return issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = (issue.path ?? []).map((p) => String(typeof p === "object" ? p.key : p)).join("/");
    return clip(`${path === "" ? "(root)" : `/${path}`}: ${issue.message}`);
  });
}

const TOO_LARGE: ValidationOutcome = { ok: false, issues: ["(root): the arguments are too large to check in full"] };

/**
 * Compiles a schema once. `what` names it in definition errors ("tool add inputSchema").
 * A Standard Schema must be able to convert itself to JSON Schema (Standard JSON Schema); it is
 * converted here, since clients list that JSON Schema. A JSON Schema is compiled by `validator`
 * (default: the core one), which refuses here what it cannot check.
 */
export function compileSchema(schema: ToolSchema, what: string, validator: JsonSchemaValidator = coreValidator): CompiledSchema {
  if (isStandardSchema(schema)) {
    const json = standardToJsonSchema(schema, what);
    const validate = schema["~standard"].validate;
    const toOutcome = (result: Awaited<ReturnType<typeof validate>>): ValidationOutcome =>
      result.issues ? { ok: false, issues: describeStandardIssues(result.issues) } : { ok: true, value: result.value };
    // A Standard Schema library may overflow the stack while collecting the errors of a huge
    // invalid value; then its JSON Schema names the first problem, when the validator can read it.
    let firstError: ((value: unknown) => ValidationOutcome) | undefined;
    const overflowed = (error: unknown, value: unknown): ValidationOutcome => {
      if (!(error instanceof RangeError)) throw error;
      try {
        firstError ??= validator.compile(json, what);
      } catch {
        return TOO_LARGE;
      }
      const outcome = firstError(value);
      return outcome.ok ? TOO_LARGE : outcome;
    };
    return {
      json,
      validate(value) {
        let result;
        try {
          result = validate(value);
        } catch (error) {
          return overflowed(error, value);
        }
        return result instanceof Promise ? result.then(toOutcome, (error: unknown) => overflowed(error, value)) : toOutcome(result);
      },
    };
  }
  if (!isObject(schema)) throw new DefinitionError(`${what} must be a JSON Schema object`);
  // One walk checks the schema and, for the core validator, refuses what it does not check.
  const problems = jsonSchemaProblems(schema, validator === coreValidator ? FULL_VALIDATOR_HINT : undefined);
  if (problems.length > 0) throw new DefinitionError(`${what}: ${problems.join("; ")}`);
  return { json: schema, validate: validator.compile(schema, what) };
}
