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

/** Parses JSON text, naming the source in the error. */
export function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DefinitionError(`${source} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}
