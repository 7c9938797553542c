/** The full JSON Schema validator (@cfworker/json-schema, every 2020-12 keyword), for `fullJsonSchema()`. */

import { Validator, type OutputUnit, type Schema } from "@cfworker/json-schema";
import type { JsonSchema } from "../../core/types.ts";
import { clip, MAX_ISSUES } from "../schema/core-schema.ts";
import type { JsonSchemaValidator, ValidationOutcome } from "../tools/schema-validator.ts";

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

/** A validator that stops at the first error: bounded work and output, whatever the value. */
function firstErrorValidator(schema: JsonSchema): (value: unknown) => ValidationOutcome {
  const validator = new Validator(schema as Schema, "2020-12", true);
  return (value) => {
    const result = validator.validate(value);
    return result.valid ? { ok: true, value } : { ok: false, issues: describeUnits(result.errors) };
  };
}

/** Every keyword of 2020-12 (and the draft-07 shapes), built on the first value a schema checks. */
export const fullValidator: JsonSchemaValidator = {
  compile(schema, what) {
    // Built on first use, not here: building one (dereferencing the schema) is most of what a
    // tool costs at boot, and most isolates of a large catalogue call few of its tools.
    let validator: Validator | undefined;
    let firstError: ((value: unknown) => ValidationOutcome) | undefined;
    return (value) => {
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
    };
  },
};
