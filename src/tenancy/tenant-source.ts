/** Tenant configs read from a binding (a JSON var or secret, or a KV namespace), cached per isolate and re-read on a TTL. */

import { DefinitionError } from "../core/definition-error.ts";

export interface CachedConfigOptions<T> {
  /** Reads the raw document (JSON text); undefined when the source has none. */
  read(): Promise<string | undefined>;
  /** Parses and validates a document; throws a DefinitionError naming tenant and field. */
  build(text: string): T;
  /** How long a read document is used before it is read again (default 60 s). */
  ttlMs?: number;
  now?: () => number;
}

/**
 * A per-isolate cache of the tenant configuration. The document is re-read after the TTL and
 * rebuilt only when its text changed. If a re-read fails or yields an invalid document, the last
 * good configuration stays in use (and the problem is logged); with none, the error is thrown.
 */
export function createCachedConfig<T>(options: CachedConfigOptions<T>): { get(): Promise<T> } {
  const ttlMs = options.ttlMs ?? 60_000;
  const now = options.now ?? Date.now;
  let current: { text: string; value: T } | undefined;
  let checkedAt = -Infinity;
  let pending: Promise<T> | undefined;

  const refresh = async (): Promise<T> => {
    try {
      const text = await options.read();
      if (text === undefined) throw new DefinitionError('no tenant configuration: set MCP_TENANTS (JSON) or bind MCP_TENANTS_KV with a key "tenants"');
      if (current?.text !== text) current = { text, value: options.build(text) };
      checkedAt = now();
      return current.value;
    } catch (error) {
      if (!current) throw error;
      console.error("edge-mcp: tenant configuration could not be refreshed; keeping the last good one:", error instanceof Error ? error.message : error);
      checkedAt = now();
      return current.value;
    }
  };

  return {
    get() {
      if (current && now() - checkedAt < ttlMs) return Promise.resolve(current.value);
      pending ??= refresh().finally(() => {
        pending = undefined;
      });
      return pending;
    },
  };
}

/** The line and column (1-based) of a character offset, and that line with a caret under the column. */
function locate(text: string, offset: number): { line: number; column: number; excerpt: string } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const lineStart = before.lastIndexOf("\n") + 1;
  const lineEnd = text.indexOf("\n", offset);
  const whole = text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd).replace(/\r$/, "");
  const column = offset - lineStart + 1;
  // Long lines (a document written on one line) are cut around the column.
  const from = Math.max(0, column - 60);
  const shown = whole.slice(from, from + 120);
  return { line, column, excerpt: `${shown}\n${" ".repeat(column - 1 - from)}^` };
}

/**
 * Parses JSON text, naming the source in the error and, for a syntax error, the line and column
 * within that JSON text with the line itself (a var's place in wrangler.toml is not known here).
 */
export function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const position = /at position (\d+)/.exec(reason)?.[1];
    const offset = position === undefined ? (/Unexpected end of JSON input/.test(reason) ? text.length : undefined) : Number(position);
    if (offset === undefined) throw new DefinitionError(`${source} is not valid JSON: ${reason}`);
    const { line, column, excerpt } = locate(text, Math.min(offset, text.length));
    const why = reason.replace(/ in JSON at position \d+.*$/, "").replace(/ \(line \d+ column \d+\)$/, "");
    throw new DefinitionError(`${source} is not valid JSON: in the ${source} JSON, line ${line} column ${column}: ${why}\n${excerpt}`);
  }
}
