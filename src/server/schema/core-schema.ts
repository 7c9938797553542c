/**
 * The core JSON Schema validator: the 2020-12 keywords tools use, compiled once into closures. A
 * schema with a keyword it does not check is refused at startup (json-schema-check.ts), never
 * checked in part.
 */

import { canonicalJson, isObject } from "../../core/json.ts";
import { CORE_FORMATS } from "./core-formats.ts";

/** Where a value is: property names and item indexes from the root. */
type Path = (string | number)[];
/** Pushes the `path: message` issues of a value into `out`, stopping once it holds MAX_ISSUES. */
type Check = (value: unknown, path: Path, out: string[]) => void;

/** Most issues an answer names. */
export const MAX_ISSUES = 8;

/** An issue's text, clipped: messages may quote the input (every unknown key, a long value). */
export function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** A path as the full validator writes instance locations: a JSON pointer, URI-escaped. */
function pointer(path: Path): string {
  let text = "";
  for (const key of path) {
    const escaped = String(key).replaceAll("~", "~0").replaceAll("/", "~1");
    try {
      text += `/${encodeURI(escaped).replaceAll("#", "%23")}`;
    } catch {
      text += `/${escaped}`; // a lone surrogate
    }
  }
  return text || "(root)";
}

function report(out: string[], path: Path, message: string): void {
  if (out.length < MAX_ISSUES) out.push(clip(`${pointer(path)}: ${message}`));
}

/** Runs a check on a child value, at its key. */
function child(check: Check, value: unknown, path: Path, key: string | number, out: string[]): void {
  path.push(key);
  check(value, path, out);
  path.pop();
}

/** A summary (`Property "a" does not match …`), then the issues of the child it summarises. */
function nested(out: string[], path: Path, message: string, inner: readonly string[]): void {
  report(out, path, message);
  for (const issue of inner) if (out.length < MAX_ISSUES) out.push(issue);
}

/** The JSON Schema types, each with its test of a JSON value. */
export const TYPES: ReadonlyMap<unknown, (value: unknown) => boolean> = new Map<unknown, (value: unknown) => boolean>([
  ["string", (v) => typeof v === "string"],
  ["number", (v) => typeof v === "number"],
  ["integer", (v) => typeof v === "number" && v % 1 === 0],
  ["boolean", (v) => typeof v === "boolean"],
  ["object", isObject],
  ["array", Array.isArray],
  ["null", (v) => v === null],
]);

/**
 * The schema a local `$ref` names (`#`, `#/$defs/a`, with `~0`, `~1` and percent-escapes), or
 * undefined when it names nothing or is not local.
 */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  let node = root;
  if (ref !== "#" && !ref.startsWith("#/")) return undefined;
  for (const raw of ref === "#" ? [] : ref.slice(2).split("/")) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return undefined;
    }
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === "boolean" || isObject(node) ? node : undefined;
}

/** A number as an integer coefficient and a power of ten, for an exact `multipleOf` of decimals. */
function decimal(n: number): [bigint, number] {
  const [digits = "", exponent = 0] = Math.abs(n).toString().split("e");
  const point = digits.indexOf(".");
  return [BigInt(digits.replace(".", "")), Number(exponent) - (point < 0 ? 0 : digits.length - point - 1)];
}

function isMultipleOf(value: number, divisor: number): boolean {
  if (Number.isSafeInteger(value) && Number.isSafeInteger(divisor)) return value % divisor === 0;
  if (!Number.isFinite(value)) return false;
  const [a, ea] = decimal(value);
  const [b, eb] = decimal(divisor);
  return ea >= eb ? (a * 10n ** BigInt(ea - eb)) % b === 0n : a % (b * 10n ** BigInt(eb - ea)) === 0n;
}

const EQUALITY = [
  ["const", "Instance does not match "],
  ["enum", "Instance does not match any of "],
] as const;
const BOUNDS: readonly [string, (v: number, n: number) => boolean, string][] = [
  ["minimum", (v, n) => v >= n, "is less than"],
  ["maximum", (v, n) => v <= n, "is greater than"],
  ["exclusiveMinimum", (v, n) => v > n, "is less than"],
  ["exclusiveMaximum", (v, n) => v < n, "is greater than or equal to"],
  ["multipleOf", isMultipleOf, "is not a multiple of"],
];

const PASS: Check = () => {};
const FAIL: Check = (_v, path, out) => report(out, path, "False boolean schema.");

/** Compiles the schemas of one document: `root` resolves its local `$ref`s, the cache ends recursion. */
class Compiler {
  readonly #cache = new Map<object, Check>();
  constructor(readonly root: unknown) {}

  /** The check of a schema (compiled once per schema object of the document). */
  compile(node: unknown): Check {
    if (node === true) return PASS;
    if (!isObject(node)) return FAIL;
    const known = this.#cache.get(node);
    if (known) return known;
    // A recursive schema reaches itself through a $ref: until it is built, it forwards.
    let built: Check = PASS;
    this.#cache.set(node, (v, path, out) => built(v, path, out));
    const checks: Check[] = [];
    const ref = node["$ref"];
    if (typeof ref === "string") checks.push(this.compile(resolveLocalRef(this.root, ref)));
    const type = node["type"];
    if (type !== undefined) {
      const names = [type].flat() as string[];
      const tests = names.map((name) => TYPES.get(name) as (value: unknown) => boolean);
      // One type (most schemas): its test as it is, no closure made per value checked.
      const test = tests.length === 1 ? (tests[0] as (value: unknown) => boolean) : (v: unknown) => tests.some((t) => t(v));
      const message = `is invalid. Expected "${names.join('", "')}".`;
      checks.push((v, path, out) => {
        if (!test(v)) report(out, path, `Instance type "${v === null ? "null" : Array.isArray(v) ? "array" : typeof v}" ${message}`);
      });
    }
    for (const [keyword, prefix] of EQUALITY) {
      const expected = node[keyword];
      if (expected === undefined || (keyword === "enum" && !Array.isArray(expected))) continue;
      const allowed = new Set((keyword === "enum" ? (expected as unknown[]) : [expected]).map(canonicalJson));
      checks.push((v, path, out) => allowed.has(canonicalJson(v)) || report(out, path, `${prefix}${JSON.stringify(expected)}.`));
    }
    if (node["not"] !== undefined) {
      const not = this.compile(node["not"]);
      checks.push((v, path, out) => {
        const inner: string[] = [];
        not(v, path, inner);
        if (inner.length === 0) report(out, path, 'Instance matched "not" schema.');
      });
    }
    for (const keyword of ["anyOf", "allOf", "oneOf"] as const) {
      const list = node[keyword];
      if (!Array.isArray(list)) continue;
      const subs = list.map((schema) => this.compile(schema));
      checks.push((v, path, out) => {
        // allOf reports its subschemas' issues as they are; anyOf and oneOf first say how many matched.
        if (keyword === "allOf") return subs.forEach((check) => check(v, path, out));
        const inner: string[] = [];
        let matches = 0;
        for (const check of subs) {
          const mark = inner.length;
          check(v, path, inner);
          if (inner.length === mark && ++matches > 0 && keyword === "anyOf") return;
        }
        if (keyword === "anyOf") nested(out, path, "Instance does not match any subschemas.", inner);
        else if (matches !== 1) nested(out, path, `Instance does not match exactly one subschema (${matches} matches).`, inner);
      });
    }
    this.#object(node, checks);
    this.#array(node, checks);
    scalarChecks(node, checks);
    built = (v, path, out) => {
      for (const check of checks) if (out.length < MAX_ISSUES) check(v, path, out);
    };
    this.#cache.set(node, built);
    return built;
  }

  #object(node: Record<string, unknown>, checks: Check[]): void {
    const sub = (schema: unknown) => this.compile(schema);
    const required = node["required"] as string[] | undefined;
    const [min, max] = [node["minProperties"], node["maxProperties"]] as (number | undefined)[];
    const names = node["propertyNames"] === undefined ? undefined : sub(node["propertyNames"]);
    const properties = Object.entries((node["properties"] ?? {}) as Record<string, unknown>).map(([name, schema]) => [name, sub(schema)] as const);
    const named = new Set(properties.map(([name]) => name));
    const patterns = Object.entries((node["patternProperties"] ?? {}) as Record<string, unknown>).map(
      ([pattern, schema]) => [new RegExp(pattern, "u"), sub(schema)] as const,
    );
    const additional = node["additionalProperties"] === undefined ? undefined : sub(node["additionalProperties"]);
    if (!required?.length && min === undefined && max === undefined && !names && !properties.length && !patterns.length && !additional) return;
    checks.push((v, path, out) => {
      if (!isObject(v)) return;
      for (const name of required ?? []) if (!Object.hasOwn(v, name)) report(out, path, `Instance does not have required property "${name}".`);
      const count = min === undefined && max === undefined ? 0 : Object.keys(v).length;
      if (count < (min ?? 0)) report(out, path, `Instance does not have at least ${min} properties.`);
      if (count > (max ?? Infinity)) report(out, path, `Instance has more than ${max} properties.`);
      if (names) {
        for (const key in v) {
          const inner: string[] = [];
          child(names, key, path, key, inner);
          if (inner.length > 0) nested(out, path, `Property name "${key}" does not match schema.`, inner);
        }
      }
      for (const [name, check] of properties) if (out.length < MAX_ISSUES && Object.hasOwn(v, name)) child(check, v[name], path, name, out);
      if (!patterns.length && !additional) return;
      for (const key in v) {
        if (out.length >= MAX_ISSUES) return;
        let matched = named.has(key);
        for (const [regex, check] of patterns) if (regex.test(key) && (matched = true)) child(check, v[key], path, key, out);
        if (matched || !additional) continue;
        const inner: string[] = [];
        child(additional, v[key], path, key, inner);
        // additionalProperties: false names the property alone; a schema also says what is wrong with it.
        if (inner.length > 0) nested(out, path, `Property "${key}" does not match additional properties schema.`, additional === FAIL ? [] : inner);
      }
    });
  }

  #array(node: Record<string, unknown>, checks: Check[]): void {
    const [min, max] = [node["minItems"], node["maxItems"]] as (number | undefined)[];
    const items = node["items"];
    // `items` as a list is the draft-07 form of prefixItems.
    const prefix = ((Array.isArray(items) ? items : (node["prefixItems"] ?? [])) as unknown[]).map((schema) => this.compile(schema));
    const rest = items === undefined || Array.isArray(items) ? undefined : this.compile(items);
    const unique = node["uniqueItems"] === true;
    if (min === undefined && max === undefined && !prefix.length && !rest && !unique) return;
    checks.push((v, path, out) => {
      if (!Array.isArray(v)) return;
      if (v.length > (max ?? Infinity)) report(out, path, `Array has too many items (${v.length} > ${max}).`);
      if (v.length < (min ?? 0)) report(out, path, `Array has too few items (${v.length} < ${min}).`);
      for (let i = 0; i < v.length && out.length < MAX_ISSUES; i++) {
        const check = prefix[i] ?? rest;
        if (!check) break;
        child(check, v[i], path, i, out);
      }
      if (!unique) return;
      const seen = new Map<string, number>();
      for (let i = 0; i < v.length; i++) {
        const key = canonicalJson(v[i]);
        const first = seen.get(key);
        if (first !== undefined) return report(out, path, `Duplicate items at indexes ${first} and ${i}.`);
        seen.set(key, i);
      }
    });
  }
}

function scalarChecks(node: Record<string, unknown>, checks: Check[]): void {
  for (const [keyword, holds, words] of BOUNDS) {
    const n = node[keyword];
    if (typeof n === "number") checks.push((v, path, out) => typeof v !== "number" || holds(v, n) || report(out, path, `${v} ${words} ${n}.`));
  }
  const [min = 0, max = Infinity] = [node["minLength"], node["maxLength"]] as (number | undefined)[];
  const [pattern, format] = [node["pattern"], node["format"]];
  const regex = typeof pattern === "string" ? new RegExp(pattern, "u") : undefined;
  const test = CORE_FORMATS.get(format as string);
  if (min === 0 && max === Infinity && !regex && !test) return;
  checks.push((v, path, out) => {
    if (typeof v !== "string") return;
    // A string of n UTF-16 units has n/2 to n code points (the length JSON Schema counts): count only near a bound.
    const length = v.length < min * 2 || v.length > max ? [...v].length : min;
    if (length < min) report(out, path, `String is too short (${length} < ${min}).`);
    if (length > max) report(out, path, `String is too long (${length} > ${max}).`);
    if (regex && !regex.test(v)) report(out, path, "String does not match pattern.");
    if (test && !test(v)) report(out, path, `String does not match format "${format as string}".`);
  });
}

/**
 * Compiles a schema that `jsonSchemaProblems(schema, hint)` passed (the walk that refuses what the
 * core validator does not check). The returned function gives a value's issues (empty when
 * valid); a value nested past the stack gets one issue saying so.
 */
export function compileCoreSchema(schema: unknown): (value: unknown) => string[] {
  const check = new Compiler(schema).compile(schema);
  return (value) => {
    const out: string[] = [];
    try {
      check(value, [], out);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      return ["(root): the value is nested too deeply to check"];
    }
    return out;
  };
}
