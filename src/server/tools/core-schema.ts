/**
 * The core JSON Schema validator: the 2020-12 keywords tools use (see core-subset.ts for what it
 * refuses), compiled once into closures. A value is checked quietly first (stops at the first
 * error, builds no paths); only an invalid one is walked again to word its errors.
 */

import { CORE_FORMATS } from "./core-formats.ts";
import { resolveLocalRef } from "./core-subset.ts";

/** Checks a value; with `out`, pushes `path: message` issues (stopping once it holds MAX_ISSUES). */
type Check = (value: unknown, at: string, out: string[] | undefined) => boolean;

/** Most issues an answer names. */
export const MAX_ISSUES = 8;
/** Longest text of one issue: messages may quote the input (every unknown key, a long value). */
const MAX_ISSUE_CHARS = 200;

/** An issue's text, clipped: messages may quote the input. */
export function clip(text: string): string {
  return text.length > MAX_ISSUE_CHARS ? `${text.slice(0, MAX_ISSUE_CHARS)}…` : text;
}

const report = (out: string[] | undefined, at: string, message: string): false => {
  if (out && out.length < MAX_ISSUES) out.push(clip(`${at === "" ? "(root)" : at}: ${message}`));
  return false;
};
/** Whether checking may stop at a failure: nobody wants the errors, or enough are held. */
const done = (out: string[] | undefined): boolean => out === undefined || out.length >= MAX_ISSUES;

/** A JSON pointer segment, written as the full validator writes instance locations. */
function pointer(at: string, key: string | number): string {
  if (typeof key === "number") return `${at}/${key}`;
  const escaped = key.replaceAll("~", "~0").replaceAll("/", "~1");
  try {
    return `${at}/${encodeURI(escaped).replaceAll("#", "%23")}`;
  } catch {
    return `${at}/${escaped}`; // a lone surrogate
  }
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const TYPE_TESTS: ReadonlyMap<string, (value: unknown) => boolean> = new Map<string, (value: unknown) => boolean>([
  ["string", (v) => typeof v === "string"],
  ["number", (v) => typeof v === "number"],
  ["integer", (v) => typeof v === "number" && v % 1 === 0],
  ["boolean", (v) => typeof v === "boolean"],
  ["object", isPlainObject],
  ["array", Array.isArray],
  ["null", (v) => v === null],
]);

/** Deep equality of JSON values (0 and -0 are equal; key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((item, i) => jsonEqual(item, (b as unknown[])[i]));
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** One text per distinct JSON value (sorted keys), so duplicates are found in one pass. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? typeof value;
}

/** A number as an integer coefficient and a power of ten, for exact `multipleOf` on decimals. */
function decimal(n: number): [bigint, number] {
  const [digits = "0", exponent = "0"] = Math.abs(n).toString().split("e");
  const point = digits.indexOf(".");
  return [BigInt(digits.replace(".", "")), Number(exponent) - (point < 0 ? 0 : digits.length - point - 1)];
}

function isMultipleOf(value: number, divisor: number): boolean {
  if (!Number.isFinite(value)) return false;
  if (Number.isSafeInteger(value) && Number.isSafeInteger(divisor)) return value % divisor === 0;
  const [a, ea] = decimal(value);
  const [b, eb] = decimal(divisor);
  return ea >= eb ? (a * 10n ** BigInt(ea - eb)) % b === 0n : a % (b * 10n ** BigInt(eb - ea)) === 0n;
}

/** Length in code points (a surrogate pair is one), as JSON Schema counts a string's length. */
function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++, n++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return n;
}

const PASS: Check = () => true;
const FAIL: Check = (_v, at, out) => report(out, at, "False boolean schema.");

/** Runs subschemas on the same value, each writing its issues into its own list (anyOf, oneOf). */
function tryEach(subs: readonly Check[], value: unknown, at: string, out: string[] | undefined, stopAt: number): [number, string[]] {
  const inner: string[] = [];
  let matches = 0;
  for (const sub of subs) if (sub(value, at, out && inner.length < MAX_ISSUES ? inner : undefined) && ++matches === stopAt) break;
  return [matches, inner];
}

type Compile = (node: unknown) => Check;

function objectChecks(node: Record<string, unknown>, compile: Compile, checks: Check[]): void {
  const required = node["required"] as string[] | undefined;
  if (required?.length) {
    checks.push((v, at, out) => {
      if (!isPlainObject(v)) return true;
      let ok = true;
      for (const name of required)
        if (!Object.hasOwn(v, name) && !(ok = report(out, at, `Instance does not have required property "${name}".`)) && done(out)) return false;
      return ok;
    });
  }
  const min = node["minProperties"] as number | undefined;
  const max = node["maxProperties"] as number | undefined;
  if (min !== undefined || max !== undefined) {
    checks.push((v, at, out) => {
      if (!isPlainObject(v)) return true;
      const n = Object.keys(v).length;
      if (min !== undefined && n < min) return report(out, at, `Instance does not have at least ${min} properties.`);
      return max === undefined || n <= max || report(out, at, `Instance has more than ${max} properties.`);
    });
  }
  if (node["propertyNames"] !== undefined) {
    const names = compile(node["propertyNames"]);
    checks.push((v, at, out) => {
      if (!isPlainObject(v)) return true;
      let ok = true;
      for (const key in v) {
        const mark = out?.length ?? 0;
        if (names(key, out ? pointer(at, key) : at, out)) continue;
        out?.splice(mark, 0, clip(`${at === "" ? "(root)" : at}: Property name "${key}" does not match schema.`));
        ok = false;
        if (done(out)) return false;
      }
      return ok;
    });
  }
  const properties = Object.entries((node["properties"] ?? {}) as Record<string, unknown>).map(([name, schema]) => [name, compile(schema)] as const);
  const patterns = Object.entries((node["patternProperties"] ?? {}) as Record<string, unknown>).map(
    ([p, schema]) => [new RegExp(p, "u"), compile(schema)] as const,
  );
  const additional = node["additionalProperties"] === undefined ? undefined : compile(node["additionalProperties"]);
  if (properties.length > 0) {
    checks.push((v, at, out) => {
      if (!isPlainObject(v)) return true;
      let ok = true;
      for (const [name, check] of properties)
        if (Object.hasOwn(v, name) && !check(v[name], out ? pointer(at, name) : at, out) && !(ok = false) && done(out)) return false;
      return ok;
    });
  }
  if (patterns.length > 0 || additional !== undefined) {
    const named = new Set(properties.map(([name]) => name));
    checks.push((v, at, out) => {
      if (!isPlainObject(v)) return true;
      let ok = true;
      for (const key in v) {
        let matched = named.has(key);
        for (const [regex, check] of patterns) {
          if (!regex.test(key)) continue;
          matched = true;
          if (!check(v[key], out ? pointer(at, key) : at, out) && !(ok = false) && done(out)) return false;
        }
        if (matched || additional === undefined) continue;
        const summary = `Property "${key}" does not match additional properties schema.`;
        const mark = out?.length ?? 0;
        // additionalProperties: false names the property alone; a schema also says what is wrong with its value.
        if (additional !== FAIL && additional(v[key], out ? pointer(at, key) : at, out)) continue;
        if (additional === FAIL) report(out, at, summary);
        else out?.splice(mark, 0, clip(`${at === "" ? "(root)" : at}: ${summary}`));
        ok = false;
        if (done(out)) return false;
      }
      return ok;
    });
  }
}

function arrayChecks(node: Record<string, unknown>, compile: Compile, checks: Check[]): void {
  const min = node["minItems"] as number | undefined;
  const max = node["maxItems"] as number | undefined;
  if (min !== undefined || max !== undefined) {
    checks.push((v, at, out) => {
      if (!Array.isArray(v)) return true;
      const tooMany = max !== undefined && v.length > max && !report(out, at, `Array has too many items (${v.length} > ${max}).`);
      if (tooMany && done(out)) return false;
      return (min === undefined || v.length >= min || report(out, at, `Array has too few items (${v.length} < ${min}).`)) && !tooMany;
    });
  }
  const items = node["items"];
  const prefix = ((Array.isArray(items) ? items : node["prefixItems"]) as unknown[] | undefined)?.map(compile) ?? [];
  const rest = items === undefined || Array.isArray(items) ? undefined : compile(items);
  if (prefix.length > 0 || rest !== undefined) {
    checks.push((v, at, out) => {
      if (!Array.isArray(v)) return true;
      let ok = true;
      for (let i = 0; i < v.length; i++) {
        const check = i < prefix.length ? prefix[i] : rest;
        if (check === undefined) break;
        if (!check(v[i], out ? pointer(at, i) : at, out) && !(ok = false) && done(out)) return false;
      }
      return ok;
    });
  }
  if (node["uniqueItems"] === true) {
    checks.push((v, at, out) => {
      if (!Array.isArray(v)) return true;
      const seen = new Map<string, number>();
      for (let i = 0; i < v.length; i++) {
        const key = canonical(v[i]);
        const first = seen.get(key);
        if (first !== undefined) return report(out, at, `Duplicate items at indexes ${first} and ${i}.`);
        seen.set(key, i);
      }
      return true;
    });
  }
}

function scalarChecks(node: Record<string, unknown>, checks: Check[]): void {
  const bounds: [string, (v: number, n: number) => boolean, string][] = [
    ["minimum", (v, n) => v >= n, "is less than"],
    ["maximum", (v, n) => v <= n, "is greater than"],
    ["exclusiveMinimum", (v, n) => v > n, "is less than"],
    ["exclusiveMaximum", (v, n) => v < n, "is greater than or equal to"],
  ];
  for (const [keyword, holds, words] of bounds) {
    const n = node[keyword];
    if (typeof n === "number") checks.push((v, at, out) => typeof v !== "number" || holds(v, n) || report(out, at, `${v} ${words} ${n}.`));
  }
  const divisor = node["multipleOf"];
  if (typeof divisor === "number")
    checks.push((v, at, out) => typeof v !== "number" || isMultipleOf(v, divisor) || report(out, at, `${v} is not a multiple of ${divisor}.`));
  const min = node["minLength"] as number | undefined;
  const max = node["maxLength"] as number | undefined;
  if (min !== undefined || max !== undefined) {
    checks.push((v, at, out) => {
      if (typeof v !== "string") return true;
      // A string of n UTF-16 units holds n/2 to n code points: count only when that range straddles a bound.
      const short = min !== undefined && v.length < min * 2 && codePoints(v) < min;
      const long = max !== undefined && v.length > max && codePoints(v) > max;
      if (short) report(out, at, `String is too short (${codePoints(v)} < ${min}).`);
      if (long && (!short || !done(out))) report(out, at, `String is too long (${codePoints(v)} > ${max}).`);
      return !short && !long;
    });
  }
  if (typeof node["pattern"] === "string") {
    const regex = new RegExp(node["pattern"], "u");
    checks.push((v, at, out) => typeof v !== "string" || regex.test(v) || report(out, at, "String does not match pattern."));
  }
  const format = typeof node["format"] === "string" ? node["format"] : "";
  const test = CORE_FORMATS.get(format);
  if (test) checks.push((v, at, out) => typeof v !== "string" || test(v) || report(out, at, `String does not match format "${format}".`));
}

function combinatorChecks(node: Record<string, unknown>, compile: Compile, checks: Check[]): void {
  if (node["not"] !== undefined) {
    const not = compile(node["not"]);
    checks.push((v, at, out) => !not(v, at, undefined) || report(out, at, 'Instance matched "not" schema.'));
  }
  const anyOf = (node["anyOf"] as unknown[] | undefined)?.map(compile);
  if (anyOf) {
    checks.push((v, at, out) => {
      const [matches, inner] = tryEach(anyOf, v, at, out, 1);
      if (matches > 0) return true;
      report(out, at, "Instance does not match any subschemas.");
      for (const issue of inner) if (out && out.length < MAX_ISSUES) out.push(issue);
      return false;
    });
  }
  const allOf = (node["allOf"] as unknown[] | undefined)?.map(compile);
  if (allOf) {
    checks.push((v, at, out) => {
      let ok = true;
      for (const sub of allOf) if (!sub(v, at, out) && !(ok = false) && done(out)) return false;
      return ok;
    });
  }
  const oneOf = (node["oneOf"] as unknown[] | undefined)?.map(compile);
  if (oneOf) {
    checks.push((v, at, out) => {
      const [matches, inner] = tryEach(oneOf, v, at, out, out ? oneOf.length + 1 : 2);
      if (matches === 1) return true;
      report(out, at, `Instance does not match exactly one subschema (${matches} matches).`);
      for (const issue of inner) if (out && out.length < MAX_ISSUES) out.push(issue);
      return false;
    });
  }
}

/** One schema's checks, in the order the full validator reports them. */
function compileNode(node: unknown, root: unknown, cache: Map<object, Check>): Check {
  if (node === true || (typeof node === "object" && node !== null && Object.keys(node).length === 0)) return PASS;
  if (typeof node !== "object" || node === null) return FAIL;
  const known = cache.get(node);
  if (known) return known;
  const schema = node as Record<string, unknown>;
  const compile: Compile = (child) => compileNode(child, root, cache);
  const checks: Check[] = [];
  if (typeof schema["$ref"] === "string") {
    const target = resolveLocalRef(root, schema["$ref"]);
    // Compiled on first use: a recursive schema refers to itself.
    let check: Check | undefined;
    checks.push((v, at, out) => (check ??= compile(target))(v, at, out));
  }
  const type = schema["type"];
  if (type !== undefined) {
    const names = (Array.isArray(type) ? type : [type]) as string[];
    const tests = names.map((name) => TYPE_TESTS.get(name) as (value: unknown) => boolean);
    const expected = `Expected "${names.join('", "')}".`;
    const test = tests.length === 1 ? (tests[0] as (value: unknown) => boolean) : (v: unknown) => tests.some((t) => t(v));
    checks.push((v, at, out) => test(v) || report(out, at, `Instance type "${typeName(v)}" is invalid. ${expected}`));
  }
  if (schema["const"] !== undefined) {
    const expected = schema["const"];
    checks.push((v, at, out) => jsonEqual(v, expected) || report(out, at, `Instance does not match ${JSON.stringify(expected)}.`));
  }
  if (Array.isArray(schema["enum"])) {
    const values = schema["enum"] as unknown[];
    checks.push((v, at, out) => values.some((value) => jsonEqual(v, value)) || report(out, at, `Instance does not match any of ${JSON.stringify(values)}.`));
  }
  combinatorChecks(schema, compile, checks);
  objectChecks(schema, compile, checks);
  arrayChecks(schema, compile, checks);
  scalarChecks(schema, checks);
  const [only] = checks;
  const check: Check =
    checks.length === 0
      ? PASS
      : checks.length === 1 && only
        ? only
        : (v, at, out) => {
            let ok = true;
            for (const c of checks) if (!c(v, at, out) && !(ok = false) && done(out)) return false;
            return ok;
          };
  cache.set(node, check);
  return check;
}

/** What the core validator says of a value: valid, or up to MAX_ISSUES `path: message` issues. */
export type CoreOutcome = { ok: true } | { ok: false; issues: string[] };

/**
 * Compiles a schema that `outsideCoreSubset` accepts. The returned function never throws for a
 * JSON value: a value nested past the stack is refused with one issue saying so.
 */
export function compileCoreSchema(schema: unknown): (value: unknown) => CoreOutcome {
  const check = compileNode(schema, schema, new Map());
  return (value) => {
    try {
      if (check(value, "", undefined)) return { ok: true };
      const issues: string[] = [];
      check(value, "", issues);
      return { ok: false, issues: issues.length > 0 ? issues.slice(0, MAX_ISSUES) : ["(root): Instance does not match the schema."] };
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      return { ok: false, issues: ["(root): the value is nested too deeply to check"] };
    }
  };
}
