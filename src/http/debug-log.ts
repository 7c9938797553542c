/** Debug logging of every JSON-RPC message in and out, with credentials redacted. */

const SECRET_NAME = /authorization|cookie|secret|password|passwd|api[-_]?key|credential|(^|[^a-z])token|access[-_]?token|refresh[-_]?token|bearer/i;
const NOT_SECRET = new Set(["progressToken", "nextCursor", "cursor"]);
const REDACTED = "[redacted]";

function isSecretName(name: string): boolean {
  return !NOT_SECRET.has(name) && SECRET_NAME.test(name);
}

/** A copy of a JSON value in which every property whose name looks like a credential is replaced. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 32 || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(copy, key, { value: isSecretName(key) ? REDACTED : redact(item, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

export function redactHeaders(headers: Headers): Record<string, string> {
  // Header names are client input: a null-prototype object keeps `__proto__` an ordinary key.
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  headers.forEach((value, name) => {
    out[name] = isSecretName(name) ? REDACTED : value;
  });
  return out;
}

function parseOrText(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

/** Writes one debug line: `edge-mcp debug <direction> <json>`, read with `wrangler tail` or in `wrangler dev`. */
export function logMessage(direction: "in" | "out", json: string, headers?: Headers): void {
  const entry: Record<string, unknown> = { direction, message: redact(parseOrText(json)) };
  if (headers) entry["headers"] = redactHeaders(headers);
  console.log(`edge-mcp debug ${JSON.stringify(entry)}`);
}
