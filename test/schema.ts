// Validates wire output against a definition of the official MCP JSON schemas (test/fixtures/schema).
import { Validator } from "@cfworker/json-schema";
import legacy from "./fixtures/schema/schema-2025-11-25.json";
import modern from "./fixtures/schema/schema-2026-07-28.json";

const cache = new Map<string, Validator>();

/** Returns the schema errors of `value` as `#/$defs/<definition>` of the given revision (empty when valid). */
export function schemaErrors(revision: "2025-11-25" | "2026-07-28", definition: string, value: unknown): string[] {
  const key = `${revision}#${definition}`;
  let validator = cache.get(key);
  if (!validator) {
    const root = revision === "2025-11-25" ? legacy : modern;
    validator = new Validator({ ...root, $ref: `#/$defs/${definition}` }, "2020-12", false);
    cache.set(key, validator);
  }
  return validator.validate(value).errors.map((e) => `${e.instanceLocation}: ${e.error}`);
}
