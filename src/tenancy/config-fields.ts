/** Field checks shared by the tenant document's parsers: each failure names the field, unknown keys get a suggestion. */

import { closestName } from "../core/suggest.ts";

/** Throws the parser's error for a field ("tenant acme: limits.maxBodyBytes must be …"). */
export type Fail = (field: string, problem: string) => never;

/** Refuses an unknown field, suggesting the known one it most likely meant ("limit … did you mean limits?"). */
export function unknownField(key: string, known: readonly string[], path: string, fail: Fail): never {
  const meant = closestName(key, known);
  return fail(`${path}${key}`, `is not a known field${meant === undefined ? ` (${known.join(", ")})` : `; did you mean ${path}${meant}?`}`);
}

/** Refuses every key of `keys` (those left once the known ones were taken out). */
export function refuseUnknown(keys: Iterable<string>, known: readonly string[], path: string, fail: Fail): void {
  for (const key of keys) unknownField(key, known, path, fail);
}

/** An optional array of strings, each matching `pattern` when given. */
export function stringList(value: unknown, field: string, fail: Fail, pattern?: RegExp): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string" && (!pattern || pattern.test(item)))) {
    fail(field, pattern ? `must be an array of strings matching ${pattern}` : "must be an array of strings");
  }
  return value as string[];
}

/** An optional positive safe integer. */
export function positiveInt(value: unknown, field: string, fail: Fail): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) <= 0) fail(field, "must be a positive integer");
  return value as number;
}
