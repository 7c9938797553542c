import { beforeAll, describe, expect, it } from "vitest";
import { createApiKeyMatcher, generateApiKey, hashApiKey } from "../../../src/auth/api-keys.ts";
import { parseAuthConfig } from "../../../src/auth/auth-config.ts";
import { createBearerVerifier } from "../../../src/auth/verify-bearer.ts";
import { config, expectAuthError, RESOURCE, sign, testKey, type TestKey } from "./fixtures.ts";

const KEY = "emk_Zk9vYmFyLXRoaXMtaXMtYS10ZXN0LWtleS0wMTIzNDU2Nzg5";
const OTHER = "emk_another-key-for-the-ci-robot-0000000000000000";
let es: TestKey;
let apiKeys: { id: string; sha256: string; scopes?: string[] }[];

beforeAll(async () => {
  es = await testKey("ES256", "es-1");
  apiKeys = [
    { id: "ops", sha256: await hashApiKey(KEY), scopes: ["tools:read", "tools:admin"] },
    { id: "ci", sha256: (await hashApiKey(OTHER)).toUpperCase() },
  ];
});

describe("hashApiKey and generateApiKey", () => {
  it("hashes the UTF-8 bytes with SHA-256, in lowercase hex", async () => {
    expect(await hashApiKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("generates distinct 256-bit keys that are valid bearer tokens", () => {
    const a = generateApiKey();
    expect(a).toMatch(/^emk_[A-Za-z0-9_-]{43}$/);
    expect(generateApiKey()).not.toBe(a);
  });
});

describe("createApiKeyMatcher", () => {
  it("finds the entry of a configured key and nothing for others", async () => {
    const match = createApiKeyMatcher(parseAuthConfig({ resource: RESOURCE, apiKeys }, "acme").apiKeys);
    expect((await match(KEY))?.id).toBe("ops");
    expect((await match(OTHER))?.id).toBe("ci");
    expect(await match(KEY.slice(0, -1))).toBeUndefined();
    expect(await match("")).toBeUndefined();
  });
});

describe("createBearerVerifier with API keys", () => {
  it("accepts a configured key as a principal with the key's scopes", async () => {
    const verifier = createBearerVerifier(parseAuthConfig({ resource: RESOURCE, apiKeys }, "acme"));
    expect(await verifier.verify(`Bearer ${KEY}`)).toEqual({
      issuer: "api-key",
      subject: "ops",
      scopes: ["tools:read", "tools:admin"],
      clientId: "ops",
      via: "api-key",
    });
    expect(await verifier.verify(`Bearer ${OTHER}`)).toEqual({ issuer: "api-key", subject: "ci", scopes: [], clientId: "ci", via: "api-key" });
  });

  it.each([
    ["an unknown key", "emk_wrong-key-wrong-key-wrong-key-wrong-key-000"],
    ["a prefix of a real key", KEY.slice(0, 20)],
    ["a real key with one more character", `${KEY}x`],
    ["a real key in another case", KEY.toUpperCase()],
  ])("refuses %s with ERR_BAD_API_KEY", async (_name, token) => {
    const verifier = createBearerVerifier(parseAuthConfig({ resource: RESOURCE, apiKeys }, "acme"));
    await expectAuthError(verifier.verify(`Bearer ${token}`), "ERR_BAD_API_KEY", token);
  });

  it("refuses the stored digest presented as if it were the key", async () => {
    const verifier = createBearerVerifier(parseAuthConfig({ resource: RESOURCE, apiKeys }, "acme"));
    await expectAuthError(verifier.verify(`Bearer ${apiKeys[0]?.sha256}`), "ERR_BAD_API_KEY");
  });

  it("refuses a JWT when the tenant takes API keys only", async () => {
    const verifier = createBearerVerifier(parseAuthConfig({ resource: RESOURCE, apiKeys }, "acme"));
    await expectAuthError(verifier.verify(`Bearer ${await sign(es)}`), "ERR_BAD_API_KEY");
  });

  it("takes both API keys and JWTs when both are configured", async () => {
    const verifier = createBearerVerifier(config({ keys: [es.publicJwk], apiKeys }));
    expect((await verifier.verify(`Bearer ${KEY}`)).via).toBe("api-key");
    expect((await verifier.verify(`Bearer ${await sign(es)}`)).via).toBe("jwt");
    await expectAuthError(verifier.verify("Bearer emk_not-a-key"), "ERR_BAD_API_KEY");
    await expectAuthError(verifier.verify(`Bearer ${await sign(es, { claims: { exp: 1 } })}`), "ERR_TOKEN_EXPIRED");
  });

  it("answers ERR_MALFORMED_TOKEN, not ERR_BAD_API_KEY, for a non-JWT when the tenant takes JWTs only", async () => {
    await expectAuthError(createBearerVerifier(config({ keys: [es.publicJwk] })).verify("Bearer emk_whatever"), "ERR_MALFORMED_TOKEN");
  });
});
