/** Turns a JSON Schema or Standard Schema into a listed JSON Schema and a compiled validator. */

import { Validator, type OutputUnit, type Schema } from "@cfworker/json-schema";
import { DefinitionError } from "../../core/definition-error.ts";
import { isObject } from "../../core/json.ts";
import { isStandardSchema, type StandardIssue } from "../../core/standard-schema.ts";
import type { JsonSchema } from "../../core/types.ts";
import { flatSchemaCheck } from "./flat-schema.ts";
import { jsonSchemaProblems } from "./json-schema-check.ts";
import { standardToJsonSchema } from "./standard-schema-conversion.ts";
import type { ToolSchema } from "./tool.ts";

export type ValidationOutcome = { ok: true; value: unknown } | { ok: false; issues: string[] };

export interface CompiledSchema {
  /** The JSON Schema shown to clients. */
  json: JsonSchema;
  /** Validates a value; synchronous for JSON Schema, possibly async for a Standard Schema. */
  validate(value: unknown): ValidationOutcome | Promise<ValidationOutcome>;
}

// Parent keywords whose failure is only a summary of a more precise child error.
const SUMMARY_KEYWORDS = new Set([
  "properties",
  "patternProperties",
  "items",
  "prefixItems",
  "contains",
  "$ref",
  "$dynamicRef",
  "allOf",
  "false",
  "unevaluatedItems",
]);
const MAX_ISSUES = 8;
/** Longest text of one issue: messages may quote the input (every unknown key, a long value). */
const MAX_ISSUE_CHARS = 200;

function clip(text: string): string {
  return text.length > MAX_ISSUE_CHARS ? `${text.slice(0, MAX_ISSUE_CHARS)}…` : text;
}

function describeUnits(units: readonly OutputUnit[]): string[] {
  const issues: string[] = [];
  for (const unit of units) {
    if (SUMMARY_KEYWORDS.has(unit.keyword)) continue;
    const where = unit.instanceLocation === "#" ? "(root)" : unit.instanceLocation.slice(1);
    issues.push(clip(`${where}: ${unit.error}`));
    if (issues.length === MAX_ISSUES) break;
  }
  return issues.length > 0 ? issues : units.slice(0, MAX_ISSUES).map((u) => clip(`${u.instanceLocation}: ${u.error}`));
}

function describeStandardIssues(issues: ReadonlyArray<StandardIssue>): string[] {
  return issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = (issue.path ?? []).map((p) => String(typeof p === "object" ? p.key : p)).join("/");
    return clip(`${path === "" ? "(root)" : `/${path}`}: ${issue.message}`);
  });
}

/** A validator that stops at the first error: bounded work and output, whatever the value. */
function firstErrorValidator(schema: JsonSchema): (value: unknown) => ValidationOutcome {
  const validator = new Validator(schema as Schema, "2020-12", true);
  return (value) => {
    const result = validator.validate(value);
    return result.valid ? { ok: true, value } : { ok: false, issues: describeUnits(result.errors) };
  };
}

/**
 * Compiles a schema once. `what` names it in definition errors ("tool add inputSchema").
 * A Standard Schema must be able to convert itself to JSON Schema (Standard JSON Schema); it is
 * converted here, since clients list that JSON Schema. A JSON Schema's validator is built on the
 * first value it checks.
 */
export function compileSchema(schema: ToolSchema, what: string): CompiledSchema {
  if (isStandardSchema(schema)) {
    const json = standardToJsonSchema(schema, what);
    const validate = schema["~standard"].validate;
    const toOutcome = (result: Awaited<ReturnType<typeof validate>>): ValidationOutcome =>
      result.issues ? { ok: false, issues: describeStandardIssues(result.issues) } : { ok: true, value: result.value };
    // Like the JSON Schema validator below, a Standard Schema library may overflow the stack while
    // collecting the errors of a huge invalid value; then its JSON Schema names the first problem.
    let firstError: ((value: unknown) => ValidationOutcome) | undefined;
    const overflowed = (error: unknown, value: unknown): ValidationOutcome => {
      if (!(error instanceof RangeError)) throw error;
      firstError ??= firstErrorValidator(json);
      const outcome = firstError(value);
      return outcome.ok ? { ok: false, issues: ["(root): the arguments are too large to check in full"] } : outcome;
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
  const problems = jsonSchemaProblems(schema);
  if (problems.length > 0) throw new DefinitionError(`${what}: ${problems.join("; ")}`);
  // The validator is built on first use, not here: building one (dereferencing the schema) is most
  // of what a tool costs at boot, and most isolates of a large catalogue call few of its tools.
  let validator: Validator | undefined;
  let firstError: ((value: unknown) => ValidationOutcome) | undefined;
  // Flat schemas (most tools' arguments) accept a valid value without the full validator.
  const accepts = flatSchemaCheck(schema);
  return {
    json: schema,
    validate(value) {
      if (accepts?.(value) === true) return { ok: true, value };
      if (validator === undefined) {
        try {
          validator = new Validator(schema as Schema, "2020-12", false);
        } catch (cause) {
          // A schema the validator cannot read (say, a duplicate $id) is a server bug: every value fails, with a log line.
          console.error(`edge-mcp: ${what} is not a valid JSON Schema:`, cause instanceof Error ? cause.message : cause);
          return { ok: false, issues: [`(root): ${what} is not a valid JSON Schema (a server bug)`] };
        }
      }
      let result;
      try {
        result = validator.validate(value);
      } catch (error) {
        // Collecting every error of a large invalid value (say 70,000 bad array items) overflows
        // the stack inside the validator, which spreads each child's errors into its parent's.
        // Then stop at the first error instead: the caller still learns what to fix.
        if (!(error instanceof RangeError)) throw error;
        firstError ??= firstErrorValidator(schema);
        return firstError(value);
      }
      return result.valid ? { ok: true, value } : { ok: false, issues: describeUnits(result.errors) };
    },
  };
}
