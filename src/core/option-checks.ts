/** Range checks of option values, once at startup: a wrong value names the option, what was received and what is allowed. */

import { DefinitionError } from "./definition-error.ts";
import { isObject } from "./json.ts";
import { unknownName } from "./suggest.ts";

/** What one option may be. `hint` is added to the problem ("ms; 0 turns it off"). */
export type OptionRule =
  | { readonly kind: "integer"; readonly min: number; readonly max?: number; readonly hint?: string }
  | { readonly kind: "boolean" }
  | { readonly kind: "string"; readonly pattern?: RegExp; readonly hint?: string }
  | { readonly kind: "oneOf"; readonly values: readonly unknown[] }
  | { readonly kind: "strings" }
  /** An object of options with their own rules; `orBoolean`: true or false also (on or off with the defaults). */
  | { readonly kind: "object"; readonly rules: OptionRules; readonly orBoolean?: boolean }
  | { readonly kind: "check"; readonly check: (value: unknown) => string | undefined }
  /** Anything (an object the option's own code checks, such as an authorizer). */
  | { readonly kind: "any" };

export type OptionRules = Readonly<Record<string, OptionRule>>;

/** A value as an option or schema problem quotes it: JSON, clipped to 60 characters; a function by its kind. */
export function shown(value: unknown): string {
  if (typeof value === "function") return "a function";
  const text = typeof value === "bigint" ? `${value}n` : JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function problemOf(value: unknown, rule: OptionRule): string | undefined {
  switch (rule.kind) {
    case "integer": {
      const range = rule.max === undefined ? `from ${rule.min}` : `from ${rule.min} to ${rule.max}`;
      const ok = typeof value === "number" && Number.isSafeInteger(value) && value >= rule.min && (rule.max === undefined || value <= rule.max);
      return ok ? undefined : `must be an integer ${range}${rule.hint ? ` (${rule.hint})` : ""}`;
    }
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be true or false";
    case "string":
      return typeof value === "string" && (!rule.pattern || rule.pattern.test(value)) ? undefined : `must be a string${rule.hint ? ` (${rule.hint})` : ""}`;
    case "oneOf":
      return rule.values.includes(value) ? undefined : `must be one of ${rule.values.map(shown).join(", ")}`;
    case "strings":
      return Array.isArray(value) && value.every((item) => typeof item === "string") ? undefined : "must be an array of strings";
    case "object":
      if (rule.orBoolean) return isObject(value) || typeof value === "boolean" ? undefined : "must be true, false or an object";
      return isObject(value) ? undefined : "must be an object";
    case "check":
      return rule.check(value);
    case "any":
      return undefined;
  }
}

/**
 * Checks an options object against its rules; throws a {@link DefinitionError} such as
 * `createWorker option keepAliveMs must be an integer from 0 (ms; 0 turns keep-alives off); got -5`,
 * or names an unknown option and the known one it most likely meant. `undefined` values are unset.
 */
export function checkOptions(options: unknown, rules: OptionRules, where: string, prefix = ""): void {
  if (options === undefined) return;
  if (!isObject(options)) {
    throw new DefinitionError(`${where}${prefix === "" ? " options" : ` option ${prefix.slice(0, -1)}`} must be an object; got ${shown(options)}`);
  }
  for (const [key, value] of Object.entries(options)) {
    const rule = rules[key];
    if (rule === undefined || !Object.hasOwn(rules, key)) {
      throw new DefinitionError(`${where} option ${prefix}${unknownName(key, Object.keys(rules), "option")}`);
    }
    if (value === undefined) continue;
    const problem = problemOf(value, rule);
    if (problem !== undefined) throw new DefinitionError(`${where} option ${prefix}${key} ${problem}; got ${shown(value)}`);
    if (rule.kind === "object" && isObject(value)) checkOptions(value, rule.rules, where, `${prefix}${key}.`);
  }
}
