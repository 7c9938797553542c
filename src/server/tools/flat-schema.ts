/** A quick acceptance test for flat object schemas (properties with a type and nothing else), built once per schema. */

import { isObject } from "../../core/json.ts";
import type { JsonSchema } from "../../core/types.ts";
import { TYPES } from "./core-schema.ts";

/** Keywords that never fail a value (annotations). */
const ANNOTATIONS = new Set(["title", "description", "default", "examples", "$comment"]);
const ROOT_KEYWORDS = new Set([...ANNOTATIONS, "type", "properties", "required", "additionalProperties"]);
const PROPERTY_KEYWORDS = new Set([...ANNOTATIONS, "type"]);

function onlyKeys(schema: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key of Object.keys(schema)) if (!allowed.has(key)) return false;
  return true;
}

/**
 * For a schema of the form `{ type: "object", properties: { name: { type: "string" } }, required,
 * additionalProperties }` (annotations aside), a function that returns true only for values the
 * full validator accepts. It may return false for a valid value (it never says why): the caller
 * then runs the full validator, which also words the errors. Undefined for any other schema.
 */
export function flatSchemaCheck(schema: JsonSchema): ((value: unknown) => boolean) | undefined {
  const root = schema as Record<string, unknown>;
  if (!onlyKeys(root, ROOT_KEYWORDS) || root["type"] !== "object") return undefined;
  const additional = root["additionalProperties"];
  if (additional !== undefined && typeof additional !== "boolean") return undefined;
  const properties = root["properties"] ?? {};
  const required = root["required"] ?? [];
  if (!isObject(properties) || !Array.isArray(required)) return undefined;
  // Names the prototype of a plain object has are left to the full validator (it tests them with `in`).
  const prototypeName = (name: string) => name in Object.prototype;
  const checks = new Map<string, (value: unknown) => boolean>();
  for (const [name, property] of Object.entries(properties)) {
    if (prototypeName(name) || !isObject(property) || !onlyKeys(property, PROPERTY_KEYWORDS)) return undefined;
    const check = TYPES.get(property["type"]);
    if (check === undefined) return undefined;
    checks.set(name, check);
  }
  for (const name of required) if (typeof name !== "string" || prototypeName(name)) return undefined;
  const needed = required as string[];
  const closed = additional === false;
  return (value) => {
    if (!isObject(value)) return false;
    for (const name of needed) if (!Object.hasOwn(value, name)) return false;
    for (const key in value) {
      const check = checks.get(key);
      if (check === undefined ? closed : !check(value[key])) return false;
    }
    return true;
  };
}
