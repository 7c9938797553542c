// The KV view of one tenant's authorization server: every key under its prefix, listings without it, other tenants' keys unseen.
import { describe, expect, it } from "vitest";
import { prefixedKv } from "../../../src/oauth/prefixed-kv.ts";

function memoryKv() {
  const entries = new Map<string, string>();
  const kv = {
    get: async (key: string | string[]) => (Array.isArray(key) ? new Map(key.map((k) => [k, entries.get(k) ?? null])) : (entries.get(key) ?? null)),
    getWithMetadata: async (key: string) => ({ value: entries.get(key) ?? null, metadata: null }),
    put: async (key: string, value: string) => void entries.set(key, value),
    delete: async (key: string) => void entries.delete(key),
    list: async ({ prefix = "", limit = 2, cursor }: { prefix?: string; limit?: number; cursor?: string } = {}) => {
      const names = [...entries.keys()].filter((k) => k.startsWith(prefix)).sort();
      const start = cursor === undefined ? 0 : Number(cursor);
      const complete = start + limit >= names.length;
      return {
        keys: names.slice(start, start + limit).map((name) => ({ name })),
        list_complete: complete,
        ...(complete ? {} : { cursor: String(start + limit) }),
      };
    },
  } as unknown as KVNamespace;
  return { kv, entries };
}

describe("prefixedKv", () => {
  it("writes, reads and deletes under the prefix; another view does not see the key", async () => {
    const { kv, entries } = memoryKv();
    const a = prefixedKv(kv, "t:a:");
    const b = prefixedKv(kv, "t:b:");
    await a.put("token:u:g:1", "A");
    expect([...entries.keys()]).toEqual(["t:a:token:u:g:1"]);
    expect(await a.get("token:u:g:1")).toBe("A");
    expect(await b.get("token:u:g:1")).toBeNull();
    expect((await a.getWithMetadata("token:u:g:1")).value).toBe("A");
    expect([...(await a.get(["token:u:g:1", "x"]))]).toEqual([
      ["token:u:g:1", "A"],
      ["x", null],
    ]);
    await b.delete("token:u:g:1");
    expect(await a.get("token:u:g:1")).toBe("A");
    await a.delete("token:u:g:1");
    expect(entries.size).toBe(0);
  });

  it("lists only its own keys, by the caller's prefix, page by page with the cursor, names without the tenant prefix", async () => {
    const { kv } = memoryKv();
    const a = prefixedKv(kv, "t:a:");
    const b = prefixedKv(kv, "t:b:");
    for (const name of ["grant:u:1", "grant:u:2", "grant:u:3", "client:x"]) await a.put(name, "1");
    await b.put("grant:u:9", "1");
    const first = await a.list({ prefix: "grant:" });
    expect(first.keys.map((k) => k.name)).toEqual(["grant:u:1", "grant:u:2"]);
    expect(first.list_complete).toBe(false);
    const second = await a.list({ prefix: "grant:", cursor: (first as { cursor: string }).cursor });
    expect(second.keys.map((k) => k.name)).toEqual(["grant:u:3"]);
    expect((await b.list()).keys.map((k) => k.name)).toEqual(["grant:u:9"]);
  });
});
