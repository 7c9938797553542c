import { describe, expect, it } from "vitest";
import { createTokenCache } from "../../../../src/auth/tokens/token-cache.ts";

const settings = { cacheSeconds: 30, negativeCacheSeconds: 5, cacheEntries: 3 };

function clock(start = 1_000_000_000_000): { now: () => number; advance: (ms: number) => void } {
  let at = start;
  return { now: () => at, advance: (ms) => void (at += ms) };
}

describe("createTokenCache", () => {
  it("keys entries by the token's SHA-256, never by the token", async () => {
    const cache = createTokenCache<string>(settings);
    const key = await cache.keyOf("opaque-token-value");
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).not.toContain("opaque-token-value");
    expect(await cache.keyOf("opaque-token-value")).toBe(key);
    expect(await cache.keyOf("opaque-token-valuf")).not.toBe(key);
  });

  it("answers an accepted token for cacheSeconds, then forgets it", () => {
    const time = clock();
    const cache = createTokenCache<string>(settings, time.now);
    cache.put("k", { ok: true, value: "alice" });
    time.advance(29_999);
    expect(cache.get("k")).toEqual({ ok: true, value: "alice" });
    time.advance(1);
    expect(cache.get("k")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("never answers an accepted token past its exp, even inside cacheSeconds", () => {
    const time = clock();
    const cache = createTokenCache<string>(settings, time.now);
    const exp = time.now() / 1000 + 10;
    cache.put("k", { ok: true, value: "alice" }, exp);
    time.advance(9_999);
    expect(cache.get("k")).toBeDefined();
    time.advance(1);
    expect(cache.get("k")).toBeUndefined();
  });

  it("does not hold a token whose exp has passed, nor anything with cacheSeconds 0", () => {
    const time = clock();
    const cache = createTokenCache<string>(settings, time.now);
    cache.put("old", { ok: true, value: "alice" }, time.now() / 1000 - 1);
    expect(cache.get("old")).toBeUndefined();
    const off = createTokenCache<string>({ ...settings, cacheSeconds: 0 }, time.now);
    off.put("k", { ok: true, value: "alice" });
    expect(off.size).toBe(0);
  });

  it("holds a refusal for negativeCacheSeconds only", () => {
    const time = clock();
    const cache = createTokenCache<string>(settings, time.now);
    cache.put("k", { ok: false, reason: "revoked" });
    time.advance(4_999);
    expect(cache.get("k")).toEqual({ ok: false, reason: "revoked" });
    time.advance(1);
    expect(cache.get("k")).toBeUndefined();
  });

  it("holds at most cacheEntries tokens, dropping the oldest first", () => {
    const cache = createTokenCache<number>(settings);
    for (let i = 0; i < 10; i++) cache.put(`k${i}`, { ok: true, value: i });
    expect(cache.size).toBe(3);
    expect(cache.get("k6")).toBeUndefined();
    expect(cache.get("k7")).toEqual({ ok: true, value: 7 });
    expect(cache.get("k9")).toEqual({ ok: true, value: 9 });
  });

  it("renews an entry put again, moving it to the newest place", () => {
    const cache = createTokenCache<number>(settings);
    cache.put("a", { ok: true, value: 1 });
    cache.put("b", { ok: true, value: 2 });
    cache.put("c", { ok: true, value: 3 });
    cache.put("a", { ok: true, value: 4 });
    cache.put("d", { ok: true, value: 5 });
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toEqual({ ok: true, value: 4 });
  });
});
