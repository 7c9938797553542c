/** Converts a Standard Schema to JSON Schema once, at startup; a failure names the field, the reason and the fix. */

import { DefinitionError } from "../../core/definition-error.ts";
import { isObject } from "../../core/json.ts";
import { isStandardSchema, type StandardSchema } from "../../core/standard-schema.ts";
import type { JsonSchema } from "../../core/types.ts";

const TARGET = { target: "draft-2020-12" };
const MAX_DEPTH = 16;

function convert(schema: StandardSchema): JsonSchema {
  const converter = schema["~standard"].jsonSchema;
  if (!converter) throw new Error("this schema cannot convert itself to JSON Schema");
  return converter.input(TARGET);
}

/**
 * The children of a schema by field, as the common libraries expose them (zod's `shape` and
 * `element`, valibot's `entries` and `item`), or none. Used only to point at the failing field.
 */
function childrenOf(schema: object): [string, unknown][] {
  const record = schema as Record<string, unknown>;
  const fields = isObject(record["shape"]) ? record["shape"] : isObject(record["entries"]) ? record["entries"] : undefined;
  const children: [string, unknown][] = fields ? Object.entries(fields) : [];
  for (const key of ["element", "item"]) if (isStandardSchema(record[key])) children.push(["[]", record[key]]);
  return children;
}

/** The path of the deepest field whose own conversion fails the same way, e.g. `when` or `events[].at`. */
function failingField(schema: StandardSchema, depth: number): string | undefined {
  if (depth >= MAX_DEPTH) return undefined;
  for (const [name, child] of childrenOf(schema)) {
    if (!isStandardSchema(child)) continue;
    try {
      convert(child);
    } catch {
      const below = failingField(child, depth + 1);
      if (below === undefined) return name;
      return below.startsWith("[]") ? `${name}${below}` : name === "[]" ? `[].${below}` : `${name}.${below}`;
    }
  }
  return undefined;
}

/**
 * The JSON Schema of a Standard Schema (Standard JSON Schema). `what` names it in errors ("tool add
 * inputSchema"). A type JSON cannot carry (a date, a bigint, a map) fails with its field and what
 * to use instead; the library's own stack is left out.
 */
export function standardToJsonSchema(schema: StandardSchema, what: string): JsonSchema {
  const vendor = schema["~standard"].vendor;
  if (!schema["~standard"].jsonSchema) {
    throw new DefinitionError(`${what}: this Standard Schema (${vendor}) cannot convert itself to JSON Schema; pass a JSON Schema instead`);
  }
  try {
    return convert(schema);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const field = failingField(schema, 0);
    throw new DefinitionError(
      `${what}: ${field === undefined ? "" : `field ${field}: `}the ${vendor} schema cannot be converted to JSON Schema (${reason}). ` +
        `Tool arguments and results travel as JSON: use a JSON type instead (for a date, a string with format date-time: in zod, z.iso.datetime()), or pass a JSON Schema as the schema.`,
    );
  }
}
