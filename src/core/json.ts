/** Bounded JSON parsing: refuses documents nested deeper than a limit before parsing them. */

/**
 * Returns the deepest nesting of arrays and objects in a JSON text, stopping early once it
 * exceeds `limit`. Brackets inside strings are skipped. Linear in the text, no allocation.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  // Nesting deeper than `limit` takes more than `limit` opening brackets: most bodies have a few,
  // counted by native searches rather than a walk of every character.
  if (!bracketsExceed(text, limit)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return false;
}

/** Whether `text` holds more than `limit` opening brackets (`{` or `[`, in strings too). */
function bracketsExceed(text: string, limit: number): boolean {
  let count = 0;
  for (let at = text.indexOf("{"); at !== -1; at = text.indexOf("{", at + 1)) if (++count > limit) return true;
  for (let at = text.indexOf("["); at !== -1; at = text.indexOf("[", at + 1)) if (++count > limit) return true;
  return false;
}

/** True for a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads an own property only: `__proto__` and inherited names in client JSON never reach the prototype. */
export function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * One text per distinct JSON value, object keys sorted (0 and -0 alike): equal values give equal
 * texts whatever their key order. A value JSON cannot write (undefined, a function) is its type.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? typeof value;
}
