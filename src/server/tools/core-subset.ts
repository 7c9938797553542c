/**
 * What the core JSON Schema validator takes: a startup walk that finds the first keyword outside its
 * subset (or a `$ref` it cannot follow), so that no schema is ever checked with a keyword ignored.
 */

import { isObject } from "../../core/json.ts";
import { FULL_ONLY_FORMATS } from "./core-formats.ts";

/** Keywords that assert something the core validator does not check: a schema using one needs the full validator. */
const OUTSIDE: ReadonlySet<string> = new Set([
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contains",
  "minContains",
  "maxContains",
  "additionalItems",
  "$dynamicRef",
  "$dynamicAnchor",
  "$recursiveRef",
  "$recursiveAnchor",
  "$anchor",
]);

const ONE_SCHEMA = ["additionalProperties", "propertyNames", "not"];
const SCHEMA_LISTS = ["prefixItems", "allOf", "anyOf", "oneOf"];
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions"];

/** Where the full validator comes from: named in every refusal. */
export const FULL_VALIDATOR_HINT = "add fullJsonSchema() from edge-mcp/json-schema to the features (see docs/json-schema.md)";

/**
 * The schema a local `$ref` points at (`#`, `#/$defs/a`, with `~0` `~1` and percent-escapes), or
 * undefined when it names nothing or is not local.
 */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return undefined;
    }
    if (Array.isArray(node) && /^(?:0|[1-9]\d*)$/.test(segment)) node = node[Number(segment)];
    else if (isObject(node) && Object.hasOwn(node, segment)) node = node[segment];
    else return undefined;
  }
  return typeof node === "boolean" || isObject(node) ? node : undefined;
}

/**
 * The first part of a schema the core validator cannot check, as `path: why` (append
 * {@link FULL_VALIDATOR_HINT} where the full validator can be added), or undefined when it can
 * check all of it. Expects a schema that `jsonSchemaProblems` passed.
 */
export function outsideCoreSubset(schema: unknown): string | undefined {
  const at = (path: string, key: string | number): string => (path === "" ? String(key) : `${path}.${key}`);
  const refuse = (path: string, what: string): string => `${path}: ${what} is outside the core JSON Schema validator`;
  const seen = new Set<object>();
  const walk = (node: unknown, path: string): string | undefined => {
    if (!isObject(node) || seen.has(node)) return undefined;
    seen.add(node);
    for (const key of Object.keys(node)) if (OUTSIDE.has(key)) return refuse(at(path, key), key);
    if (path !== "" && node["$id"] !== undefined) return refuse(at(path, "$id"), "$id below the root");
    const ref = node["$ref"];
    if (typeof ref === "string" && resolveLocalRef(schema, ref) === undefined) {
      return ref.startsWith("#/") || ref === "#"
        ? `${at(path, "$ref")}: ${JSON.stringify(ref)} points at no schema in this document`
        : refuse(at(path, "$ref"), `a $ref to ${JSON.stringify(ref)} (only local references such as "#/$defs/name" are followed)`);
    }
    const format = node["format"];
    if (typeof format === "string" && FULL_ONLY_FORMATS.has(format)) return refuse(at(path, "format"), `format ${JSON.stringify(format)}`);
    const items = node["items"];
    const children: [unknown, string][] = [];
    if (Array.isArray(items)) items.forEach((item, i) => children.push([item, at(at(path, "items"), i)]));
    else children.push([items, at(path, "items")]);
    for (const key of ONE_SCHEMA) children.push([node[key], at(path, key)]);
    for (const key of SCHEMA_LISTS) {
      const list = node[key];
      if (Array.isArray(list)) list.forEach((item, i) => children.push([item, at(at(path, key), i)]));
    }
    for (const key of SCHEMA_MAPS) {
      const map = node[key];
      if (isObject(map)) for (const [name, child] of Object.entries(map)) children.push([child, at(at(path, key), name)]);
    }
    for (const [child, where] of children) {
      const problem = walk(child, where);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
  return walk(schema, "");
}
