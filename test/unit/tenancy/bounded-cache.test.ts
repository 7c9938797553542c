import { describe, expect, it } from "vitest";
import { BoundedCache } from "../../../src/tenancy/bounded-cache.ts";
import { prefixCandidates } from "../../../src/tenancy/tenant-keys.ts";

describe("BoundedCache", () => {
  it("drops the least recently used entry past its entry bound", () => {
    const cache = new BoundedCache<string>({ maxEntries: 2, maxBytes: 1000 });
    cache.set("a", "A", 1, 100);
    cache.set("b", "B", 1, 100);
    expect(cache.get("a", 0)).toBe("A");
    cache.set("c", "C", 1, 100);
    expect(cache.get("b", 0)).toBeUndefined();
    expect(cache.get("a", 0)).toBe("A");
    expect(cache.size).toBe(2);
  });

  it("drops entries until the bytes fit, and never holds one larger than the bound", () => {
    const cache = new BoundedCache<string>({ maxEntries: 100, maxBytes: 10 });
    cache.set("a", "A", 4, 100);
    cache.set("b", "B", 4, 100);
    cache.set("c", "C", 4, 100);
    expect(cache.bytes).toBe(8);
    expect(cache.get("a", 0)).toBeUndefined();
    cache.set("huge", "H", 11, 100);
    expect(cache.get("huge", 0)).toBeUndefined();
    expect(cache.bytes).toBe(8);
  });

  it("answers nothing for an expired entry but still lets a refresh peek at it; replacing an entry counts its bytes once", () => {
    const cache = new BoundedCache<string>({ maxEntries: 10, maxBytes: 100 });
    cache.set("a", "A", 5, 10);
    expect(cache.get("a", 10)).toBeUndefined();
    expect(cache.peek("a")).toBe("A");
    cache.set("a", "A2", 7, 20);
    expect(cache.bytes).toBe(7);
    cache.delete("a");
    expect(cache.bytes).toBe(0);
  });
});

describe("prefixCandidates", () => {
  it("lists a path's prefixes longest first, at most four segments deep", () => {
    expect(prefixCandidates("/t/acme/mcp")).toEqual(["/t/acme/mcp", "/t/acme", "/t"]);
    expect(prefixCandidates("/a/b/c/d/e/f")).toEqual(["/a/b/c/d", "/a/b/c", "/a/b", "/a"]);
    expect(prefixCandidates("/")).toEqual([]);
  });
});
