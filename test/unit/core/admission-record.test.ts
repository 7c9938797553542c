// The Admission record's pieces: unambiguous caller keys, the forwarded encoding, byte helpers, quota counting.
import { describe, expect, it, vi } from "vitest";
import { DEFAULT_QUOTAS, decodeAdmission, encodeAdmission } from "../../../src/core/admission.ts";
import { constantTimeEqual, fromBase64Url, fromHex, randomToken, sha256Hex, toBase64, toBase64Url, toHex } from "../../../src/core/bytes.ts";
import { callerKey } from "../../../src/core/principal.ts";
import { createMemoryQuotaCounter, leaseFor } from "../../../src/server/state/quotas.ts";
import { openingOf } from "../../../src/workers/sessions/session-gateway.ts";
import { admission, principal } from "../../admission.ts";

describe("callerKey", () => {
  it("tells apart subjects that a tenant:subject string would confuse", () => {
    const keys = [
      callerKey("acme", undefined),
      callerKey("acme", { issuer: "api-key", subject: "ci" }),
      callerKey("acme", { issuer: "https://idp.example/", subject: "ci" }),
      callerKey("acme", { issuer: "https://idp.example/", subject: "api-key:ci" }),
      callerKey("acme", { issuer: "https://other.example/", subject: "ci" }),
      callerKey("acme:x", { issuer: "i", subject: "y" }),
      callerKey("acme", { issuer: "i", subject: "x:y" }),
      callerKey("acme", { issuer: 'i","x', subject: "y" }),
      callerKey("acme", { issuer: "i", subject: 'x","y' }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe("encodeAdmission and decodeAdmission", () => {
  it("round-trips an admission as ASCII, whatever characters the subject has", () => {
    const record = admission("acme", principal("zoë 🦊", ["a b"]));
    const text = encodeAdmission(record);
    expect(text).toMatch(/^[\x20-\x7e]*$/);
    expect(decodeAdmission(text)).toEqual(record);
  });

  it.each([null, "", "{", "[]", '{"tenant":"a"}', JSON.stringify({ ...admission("a"), principal: { subject: "x" } })])(
    "refuses the malformed record %j",
    (text) => {
      expect(decodeAdmission(text)).toBeUndefined();
    },
  );
});

describe("openingOf (the Worker's note on a session's opening initialize)", () => {
  const digest = "ab".repeat(32);
  it("reads the id digest and the lease end, or no lease end", () => {
    expect(openingOf(`${digest} 1700000000000`)).toEqual({ idHash: digest, leaseExpiresAt: 1_700_000_000_000 });
    expect(openingOf(`${digest} `)).toEqual({ idHash: digest, leaseExpiresAt: undefined });
  });

  it.each([null, "", "1", digest, `${digest.toUpperCase()} 1`, `${digest}x 1`, `${digest} 1.5`, `${digest} soon`, `${digest} 1 2`])("refuses %j", (header) => {
    expect(openingOf(header)).toBeUndefined();
  });
});

describe("byte helpers", () => {
  it("encodes and decodes base64url and hex", () => {
    const bytes = Uint8Array.from([0, 1, 250, 251, 252, 253, 254, 255]);
    expect(toBase64Url(bytes)).toBe("AAH6-_z9_v8");
    expect(fromBase64Url("AAH6-_z9_v8")).toEqual(bytes);
    expect(toBase64(bytes)).toBe("AAH6+/z9/v8=");
    expect(fromHex(toHex(bytes))).toEqual(bytes);
    expect(fromBase64Url("not base64!")).toBeUndefined();
    expect(fromBase64Url("A")).toBeUndefined();
  });

  it("encodes large byte arrays in base64 without exceeding argument limits", () => {
    const big = new Uint8Array(300_000).fill(7);
    expect(toBase64(big).length).toBe(400_000);
  });

  it("hashes, makes random tokens and compares without an early exit", async () => {
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(randomToken(24)).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(randomToken()).not.toBe(randomToken());
    expect(constantTimeEqual("abc", "abc")).toBe(true);
    expect(constantTimeEqual("abc", "abd")).toBe(false);
    expect(constantTimeEqual("abc", "abcd")).toBe(false);
    expect(constantTimeEqual(Uint8Array.from([1, 2]), Uint8Array.from([1, 2]))).toBe(true);
    // Strings compare as they are (no encoding), including characters beyond ASCII and prefixes.
    expect(constantTimeEqual("zoë 🦊", "zoë 🦊")).toBe(true);
    expect(constantTimeEqual("zoë 🦊", "zoe 🦊")).toBe(false);
    expect(constantTimeEqual("", "")).toBe(true);
    expect(constantTimeEqual("", "a")).toBe(false);
    expect(constantTimeEqual("a\u0000", "a")).toBe(false);
    expect(constantTimeEqual("abc", new TextEncoder().encode("abc"))).toBe(true);
  });

  it("compares two strings without encoding them", () => {
    const encode = vi.spyOn(TextEncoder.prototype, "encode");
    expect(constantTimeEqual("object-id.secret", "object-id.secret")).toBe(true);
    expect(encode).not.toHaveBeenCalled();
    encode.mockRestore();
  });
});

describe("the memory quota counter", () => {
  const limit = { perPrincipal: 2, perTenant: 3 };
  const lease = (id: string, holder: string, expiresAt = 1_000) => ({ kind: "handles" as const, holder, id, expiresAt });

  it("counts per holder and per tenant, frees on release and on expiry", async () => {
    let now = 0;
    const quotas = createMemoryQuotaCounter(() => now);
    expect(await quotas.acquire("t", lease("a1", "a"), limit)).toBe(true);
    expect(await quotas.acquire("t", lease("a2", "a"), limit)).toBe(true);
    expect(await quotas.acquire("t", lease("a3", "a"), limit)).toBe(false);
    expect(await quotas.acquire("t", lease("b1", "b"), limit)).toBe(true);
    expect(await quotas.acquire("t", lease("c1", "c"), limit)).toBe(false);
    // Another tenant and another kind count apart.
    expect(await quotas.acquire("u", lease("c1", "c"), limit)).toBe(true);
    expect(await quotas.acquire("t", { ...lease("s1", "a"), kind: "sessions" }, limit)).toBe(true);
    await quotas.release("t", "a1");
    expect(await quotas.acquire("t", lease("a3", "a"), limit)).toBe(true);
    now = 1_000;
    expect(await quotas.acquire("t", lease("c2", "c", 2_000), limit)).toBe(true);
  });

  it("keeps a renewed lease past its first expiry", async () => {
    let now = 0;
    const quotas = createMemoryQuotaCounter(() => now);
    await quotas.acquire("t", lease("a1", "a", 100), { perPrincipal: 1, perTenant: 10 });
    await quotas.renew("t", "a1", 500);
    now = 200;
    expect(await quotas.acquire("t", lease("a2", "a", 900), { perPrincipal: 1, perTenant: 10 })).toBe(false);
  });

  it("counts anonymous leases together against the anonymous allowance, whatever their holders", async () => {
    const quotas = createMemoryQuotaCounter(() => 0);
    const pooled = { perPrincipal: 2, perTenant: 10, anonymous: 3 };
    const anonymous = (id: string, holder: string) => ({ ...lease(id, holder), anonymous: true });
    for (const holder of ["n1", "n2", "n3"]) expect(await quotas.acquire("t", anonymous(`${holder}-1`, holder), pooled)).toBe(true);
    expect(await quotas.acquire("t", anonymous("n4-1", "n4"), pooled)).toBe(false);
    // A principal's lease is not anonymous: only the tenant's limit applies to it.
    expect(await quotas.acquire("t", lease("p-1", "principal"), pooled)).toBe(true);
    await quotas.release("t", "n1-1");
    expect(await quotas.acquire("t", anonymous("n4-1", "n4"), pooled)).toBe(true);
  });

  it("marks the leases of anonymous admissions, and only those", () => {
    expect(leaseFor(admission("t"), "streams", "s", 5)).toEqual({
      kind: "streams",
      holder: admission("t").quotaHolder,
      id: "s",
      expiresAt: 5,
      anonymous: true,
    });
    expect(leaseFor(admission("t", principal("ada")), "handles", "h", 5).anonymous).toBe(false);
  });

  it("has defaults for every kind", () => {
    expect(Object.keys(DEFAULT_QUOTAS).sort()).toEqual(["handles", "sessions", "streams", "tasks"]);
  });
});
