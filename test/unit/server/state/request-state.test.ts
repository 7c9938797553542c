import { describe, expect, it } from "vitest";
import { ErrorCode, ProtocolError } from "../../../../src/core/errors.ts";
import { canonicalJson } from "../../../../src/core/json.ts";
import { createStateSealer } from "../../../../src/server/state/request-state.ts";

const binding = { method: "tools/call", target: "book", args: { city: "Paris", nights: 2 }, scope: "tenant-a" };

async function refused(promise: Promise<unknown>): Promise<void> {
  await expect(promise).rejects.toBeInstanceOf(ProtocolError);
  await promise.catch((error: ProtocolError) => expect(error.code).toBe(ErrorCode.InvalidParams));
}

describe("createStateSealer", () => {
  it("round-trips the answers for the same request, whatever the key order of its arguments", async () => {
    const sealer = createStateSealer({ secret: "s3cret" });
    const token = await sealer.seal(binding, { user_name: { action: "accept", content: { name: "Ada" } } });
    const same = { ...binding, args: { nights: 2, city: "Paris" } };
    expect(await sealer.open(token, same)).toEqual({ user_name: { action: "accept", content: { name: "Ada" } } });
  });

  it("refuses a state altered in payload or signature", async () => {
    const sealer = createStateSealer({ secret: "s3cret" });
    const token = await sealer.seal(binding, { a: 1 });
    const [payload, signature] = token.split(".") as [string, string];
    const forged = btoa(JSON.stringify({ d: "x", e: Date.now() + 1000, a: { a: 2 } })).replaceAll("=", "");
    await refused(sealer.open(`${forged}.${signature}`, binding));
    const altered = `${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`;
    await refused(sealer.open(`${payload}.${altered}`, binding));
    await refused(sealer.open(`${token}-TAMPERED`, binding));
    await refused(sealer.open("not-a-state", binding));
    await refused(sealer.open("", binding));
  });

  it("refuses a state minted for other arguments, another tool or another scope", async () => {
    const sealer = createStateSealer({ secret: "s3cret" });
    const token = await sealer.seal(binding, {});
    await refused(sealer.open(token, { ...binding, args: { city: "Rome", nights: 2 } }));
    await refused(sealer.open(token, { ...binding, target: "cancel" }));
    await refused(sealer.open(token, { ...binding, scope: "tenant-b" }));
  });

  it("refuses an expired state and one signed with another secret", async () => {
    let now = 1_000_000;
    const sealer = createStateSealer({ secret: "s3cret", ttlMs: 1000, now: () => now });
    const token = await sealer.seal(binding, {});
    now += 1001;
    await refused(sealer.open(token, binding));
    const other = createStateSealer({ secret: "other" });
    await refused(other.open(await createStateSealer({ secret: "s3cret" }).seal(binding, {}), binding));
  });

  it("works without a configured secret, within the same sealer", async () => {
    const sealer = createStateSealer();
    expect(await sealer.open(await sealer.seal(binding, { k: true }), binding)).toEqual({ k: true });
  });
});

describe("canonicalJson", () => {
  it("sorts object keys at every depth", () => {
    expect(canonicalJson({ b: [{ y: 1, x: 2 }], a: null })).toBe('{"a":null,"b":[{"x":2,"y":1}]}');
  });
});
