// Tenant secrets sealed under MCP_SECRETS_KEY: bound to their tenant and name, opened by any listed key, sealed by the first.
import { describe, expect, it } from "vitest";
import { openSecret, parseSecretKeys, sealSecret, sealedKeyId } from "../../../src/tenancy/secret-box.ts";

const key = (fill: number) =>
  btoa(String.fromCharCode(...new Uint8Array(32).fill(fill)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
const K1 = `k1:${key(1)}`;
const K2 = `k2:${key(2)}`;

describe("tenant secrets sealed under MCP_SECRETS_KEY", () => {
  it("opens what it sealed, for the same tenant and name only", async () => {
    const keys = await parseSecretKeys(K1);
    const sealed = await sealSecret(keys, "acme", "introspection", "s3cret-value");
    expect(sealed).toMatch(/^es1\.k1\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("s3cret");
    expect(await openSecret(keys, "acme", "introspection", sealed)).toBe("s3cret-value");
    await expect(openSecret(keys, "globex", "introspection", sealed)).rejects.toThrow("sealed for another tenant or name");
    await expect(openSecret(keys, "acme", "other", sealed)).rejects.toThrow("sealed for another tenant or name");
  });

  it("seals each value with a fresh IV", async () => {
    const keys = await parseSecretKeys(K1);
    expect(await sealSecret(keys, "acme", "a", "v")).not.toBe(await sealSecret(keys, "acme", "a", "v"));
  });

  it("rotates: a new first key seals, the old one still opens, and a value under a removed key says so", async () => {
    const old = await parseSecretKeys(K1);
    const sealedOld = await sealSecret(old, "acme", "a", "value");
    const rotated = await parseSecretKeys(`${K2},${K1}`);
    expect(rotated.current).toBe("k2");
    expect(await openSecret(rotated, "acme", "a", sealedOld)).toBe("value");
    const sealedNew = await sealSecret(rotated, "acme", "a", "value");
    expect(sealedKeyId(sealedNew)).toBe("k2");
    const onlyNew = await parseSecretKeys(K2);
    await expect(openSecret(onlyNew, "acme", "a", sealedOld)).rejects.toThrow("sealed under key k1, which MCP_SECRETS_KEY no longer holds");
  });

  it("refuses a damaged value", async () => {
    const keys = await parseSecretKeys(K1);
    const sealed = await sealSecret(keys, "acme", "a", "value");
    const damaged = sealed.slice(0, -2) + (sealed.endsWith("AA") ? "BB" : "AA");
    await expect(openSecret(keys, "acme", "a", damaged)).rejects.toThrow("does not open");
    await expect(openSecret(keys, "acme", "a", "plain text")).rejects.toThrow("is not a sealed value");
  });

  it("says what is wrong with a bad MCP_SECRETS_KEY without repeating it", async () => {
    await expect(parseSecretKeys(undefined)).rejects.toThrow("tenant secrets need the MCP_SECRETS_KEY secret");
    await expect(parseSecretKeys("no-colon")).rejects.toThrow("key 1 must read <id>:<base64url>");
    const short = `k1:${key(3).slice(0, 20)}`;
    const message = await parseSecretKeys(short).then(
      () => "",
      (e: unknown) => (e instanceof Error ? e.message : ""),
    );
    expect(message).toContain("must be 32 bytes");
    expect(message).not.toContain(key(3).slice(0, 20));
    await expect(parseSecretKeys(`${K1},${K1}`)).rejects.toThrow("the key id k1 is used twice");
  });
});
