/**
 * A startup check of a JSON Schema's keywords that clients and validators read (2020-12, and the
 * draft-07 shapes clients send): each problem with its path, so a typo fails at boot, not in a client.
 */

import { isObject } from "../../core/json.ts";
import { shown as describe } from "../../core/option-checks.ts";
import { FULL_ONLY_FORMATS } from "./core-formats.ts";
import { resolveLocalRef, TYPES } from "./core-schema.ts";

const TYPE_LIST = `one of ${[...TYPES.keys()].join(", ")}`;

// Keywords whose value is one schema, a list of schemas, or an object of schemas.
const SCHEMA_KEYWORDS = "additionalProperties additionalItems unevaluatedProperties unevaluatedItems contains propertyNames not if then else".split(" ");
const SCHEMA_LIST_KEYWORDS = "allOf anyOf oneOf prefixItems".split(" ");
const SCHEMA_MAP_KEYWORDS = "properties patternProperties $defs definitions dependentSchemas".split(" ");
const isNumber = (n: unknown): boolean => typeof n === "number" && Number.isFinite(n);
/** Keywords whose value has a type of its own: the keywords, the test their value passes, what it must be. */
const VALUE_RULES: readonly [string[], (value: unknown) => boolean, string][] = [
  [["enum"], Array.isArray, "an array of values"],
  [
    "minLength maxLength minItems maxItems minProperties maxProperties minContains maxContains".split(" "),
    (n) => Number.isSafeInteger(n) && (n as number) >= 0,
    "a non-negative integer",
  ],
  ["minimum maximum exclusiveMinimum exclusiveMaximum".split(" "), isNumber, "a number"],
  [["multipleOf"], (n) => isNumber(n) && (n as number) > 0, "a number above 0"],
  ["$ref $id $anchor format title description contentMediaType contentEncoding pattern".split(" "), (s) => typeof s === "string", "a string"],
];
// Misspellings of the structural keywords that would otherwise be ignored (an unknown keyword is an annotation).
const MISSPELT = new Map(
  "propertes:properties property:properties propeties:properties requried:required require:required requires:required additionalProperty:additionalProperties additionalproperties:additionalProperties item:items types:type enums:enum"
    .split(" ")
    .map((pair) => pair.split(":") as [string, string]),
);

/** Keywords that assert what the core validator does not check: a schema using one needs the full validator. */
const OUTSIDE: ReadonlySet<string> = new Set(
  "if then else dependentRequired dependentSchemas dependencies unevaluatedProperties unevaluatedItems contains minContains maxContains additionalItems $dynamicRef $dynamicAnchor $recursiveRef $recursiveAnchor $anchor".split(
    " ",
  ),
);

/** Where the full validator comes from: named in every refusal of a tool's schema. */
export const FULL_VALIDATOR_HINT = "; add fullJsonSchema() from edge-mcp/json-schema to the features (see docs/json-schema.md)";

const MAX_PROBLEMS = 5;

/**
 * The problems of a JSON Schema, each as `path: what is wrong` (at most five); empty when the
 * keywords that matter are well-formed. Unknown keywords are allowed (they are annotations), except
 * the usual misspellings of structural ones, which would silently drop a constraint. With `core`
 * (the core validator will check it), also what that validator does not check, the last problem
 * then followed by `core` (how to opt in to the full validator).
 */
export function jsonSchemaProblems(schema: unknown, core?: string): string[] {
  const problems: string[] = [];
  let refused = false;
  const report = (path: string, problem: string): void => {
    if (problems.length < MAX_PROBLEMS) problems.push(`${path === "" ? "(root)" : path}: ${problem}`);
  };
  const at = (path: string, key: string | number): string => (path === "" ? String(key) : `${path}.${key}`);

  const walk = (node: unknown, path: string): void => {
    if (problems.length >= MAX_PROBLEMS) return;
    if (typeof node === "boolean") return;
    if (!isObject(node)) return report(path, `must be a schema (an object or a boolean); got ${describe(node)}`);

    if (core !== undefined) {
      const refuse = (key: string, what: string): void => {
        report(at(path, key), `${what} is outside the core JSON Schema validator`);
        refused = true;
      };
      // The keywords of one schema the core validator does not check, named once each, in one problem.
      const outside = Object.keys(node).filter((key) => OUTSIDE.has(key));
      if (outside.length > 0) {
        report(path, `${outside.join(", ")} ${outside.length === 1 ? "is" : "are"} outside the core JSON Schema validator`);
        refused = true;
      }
      if (path !== "" && node["$id"] !== undefined) refuse("$id", "$id below the root");
      const ref = node["$ref"];
      if (typeof ref === "string" && resolveLocalRef(schema, ref) === undefined) {
        if (ref.startsWith("#/")) report(at(path, "$ref"), `${JSON.stringify(ref)} points at no schema in this document`);
        else refuse("$ref", `a $ref to ${JSON.stringify(ref)} (only local references such as "#/$defs/name" are followed)`);
      }
      if (typeof node["format"] === "string" && FULL_ONLY_FORMATS.has(node["format"])) refuse("format", `format ${JSON.stringify(node["format"])}`);
    }
    for (const key of Object.keys(node)) {
      const meant = MISSPELT.get(key);
      if (meant !== undefined && !(meant in node)) report(at(path, key), `is not a JSON Schema keyword; did you mean ${meant}?`);
    }

    const type = node["type"];
    if (type !== undefined) {
      const names = Array.isArray(type) ? type : [type];
      if (Array.isArray(type) && type.length === 0) report(at(path, "type"), `must name at least one type (${TYPE_LIST})`);
      for (const name of names) if (!TYPES.has(name)) report(at(path, "type"), `${describe(name)} is not a JSON Schema type (${TYPE_LIST})`);
    }

    const required = node["required"];
    if (required !== undefined && (!Array.isArray(required) || !required.every((name) => typeof name === "string"))) {
      report(
        at(path, "required"),
        `must be an array of property names, such as ["${typeof required === "string" ? required : "name"}"]; got ${describe(required)}`,
      );
    }

    const items = node["items"];
    if (Array.isArray(items)) items.forEach((item, i) => walk(item, at(at(path, "items"), i)));
    else if (items !== undefined) walk(items, at(path, "items"));

    for (const key of SCHEMA_KEYWORDS) if (node[key] !== undefined) walk(node[key], at(path, key));
    for (const key of SCHEMA_LIST_KEYWORDS) {
      const list = node[key];
      if (list === undefined) continue;
      if (!Array.isArray(list) || list.length === 0) report(at(path, key), `must be a non-empty array of schemas; got ${describe(list)}`);
      else list.forEach((item, i) => walk(item, at(at(path, key), i)));
    }
    for (const key of SCHEMA_MAP_KEYWORDS) {
      const map = node[key];
      if (map === undefined) continue;
      if (!isObject(map)) report(at(path, key), `must be an object of schemas; got ${describe(map)}`);
      else for (const [name, child] of Object.entries(map)) walk(child, at(at(path, key), name));
    }

    for (const [keywords, holds, what] of VALUE_RULES) {
      for (const key of keywords) if (node[key] !== undefined && !holds(node[key])) report(at(path, key), `must be ${what}; got ${describe(node[key])}`);
    }
    if (node["uniqueItems"] !== undefined && typeof node["uniqueItems"] !== "boolean") report(at(path, "uniqueItems"), "must be true or false");
    if (typeof node["pattern"] === "string") {
      try {
        new RegExp(node["pattern"], "u");
      } catch (error) {
        report(at(path, "pattern"), `is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };

  walk(schema, "");
  if (refused && problems.length > 0) problems[problems.length - 1] += core ?? "";
  return problems;
}
