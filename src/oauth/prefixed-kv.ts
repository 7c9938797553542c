/** A view of a KV namespace under one key prefix: one tenant's authorization server sees only its own grants, tokens and clients. */

/**
 * The namespace `kv` as seen under `prefix` (`t:<tenant id>:`): every key read, written, deleted or
 * listed carries the prefix, and listed names come back without it. A key written through one view
 * is not found through another, so a token one tenant issued is unknown to every other tenant.
 */
export function prefixedKv(kv: KVNamespace, prefix: string): KVNamespace {
  const inner = kv as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const strip = (name: string) => name.slice(prefix.length);
  /** get and getWithMetadata, for one key or a list of keys (answered as a Map keyed by the caller's names). */
  const read =
    (method: "get" | "getWithMetadata") =>
    async (key: string | string[], options?: unknown): Promise<unknown> => {
      if (!Array.isArray(key)) return inner[method]!.call(kv, prefix + key, options);
      const found = (await inner[method]!.call(
        kv,
        key.map((k) => prefix + k),
        options,
      )) as Map<string, unknown>;
      return new Map([...found].map(([name, value]) => [strip(name), value]));
    };
  const view = {
    get: read("get"),
    getWithMetadata: read("getWithMetadata"),
    put: (key: string, value: unknown, options?: unknown) => inner["put"]!.call(kv, prefix + key, value, options),
    delete: (key: string) => inner["delete"]!.call(kv, prefix + key),
    async list(options: { prefix?: string | null; limit?: number; cursor?: string | null } = {}) {
      const page = (await kv.list({ ...options, prefix: prefix + (options.prefix ?? "") })) as { keys: { name: string }[] };
      return { ...page, keys: page.keys.map((key) => ({ ...key, name: strip(key.name) })) };
    },
  };
  return view as unknown as KVNamespace;
}
