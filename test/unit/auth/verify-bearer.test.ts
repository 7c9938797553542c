import { exportSPKI, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import type { AuthConfig } from "../../../src/auth/auth-config.ts";
import { createBearerVerifier, type BearerVerifier } from "../../../src/auth/verify-bearer.ts";
import { b64url, config, expectAuthError, ISSUER, RESOURCE, sign, testKey, type TestKey } from "./fixtures.ts";

let es: TestKey;
let rsa: TestKey;
let ed: TestKey;
let stranger: TestKey;
let verifier: BearerVerifier;

beforeAll(async () => {
  [es, rsa, ed, stranger] = await Promise.all([testKey("ES256", "es-1"), testKey("RS256", "rsa-1"), testKey("EdDSA", "ed-1"), testKey("ES256", "es-1")]);
  verifier = createBearerVerifier(config({ keys: [es.publicJwk, rsa.publicJwk, ed.publicJwk] }));
});

const bearer = (token: string): string => `Bearer ${token}`;
const nowSeconds = (): number => Math.floor(Date.now() / 1000);

describe("createBearerVerifier: the Authorization header", () => {
  it.each([null, undefined, "", "   "])("refuses a request without credentials (%j) with ERR_NO_TOKEN", async (header) => {
    await expectAuthError(verifier.verify(header), "ERR_NO_TOKEN");
  });

  it("treats another scheme as no token", async () => {
    await expectAuthError(verifier.verify("Basic dXNlcjpwYXNz"), "ERR_NO_TOKEN");
  });

  it.each(["Bearer", "Bearer ", "Bearer a b", "Bearer tok\u00e9n", "Bearer a,b"])("refuses the malformed value %j", async (header) => {
    await expectAuthError(verifier.verify(header), "ERR_MALFORMED_TOKEN");
  });

  it("accepts the scheme in any case and extra spaces before the token", async () => {
    const token = await sign(es);
    await expect(verifier.verify(`bEaReR   ${token}`)).resolves.toMatchObject({ subject: "user-1" });
  });

  it("refuses a token longer than 16 KiB before decoding it", async () => {
    await expectAuthError(verifier.verify(bearer("a".repeat(16_385))), "ERR_MALFORMED_TOKEN");
  });
});

describe("createBearerVerifier: malformed tokens", () => {
  const header = b64url({ alg: "ES256", kid: "es-1" });
  const payload = b64url({ iss: ISSUER, aud: RESOURCE, sub: "u", exp: 9_999_999_999 });

  it.each([
    ["two parts", `${header}.${payload}`],
    ["four parts", `${header}.${payload}.sig.extra`],
    ["a header that is not base64url", `${header}*.${payload}.sig`],
    ["a payload with an impossible base64url length", `${header}.${payload}x.sig`],
    ["a header that is not JSON", `${b64url("not json")}.${payload}.sig`],
    ["a payload that is not JSON", `${header}.${b64url("{nope")}.sig`],
    ["a payload that is a JSON array", `${header}.${b64url([1, 2])}.sig`],
    ["a payload that is not UTF-8", `${header}.${Buffer.from([0xff, 0xfe, 0xfd]).toString("base64url")}.sig`],
    ["a header without alg", `${b64url({ kid: "es-1" })}.${payload}.sig`],
  ])("refuses %s with ERR_MALFORMED_TOKEN", async (_name, token) => {
    await expectAuthError(verifier.verify(bearer(token)), "ERR_MALFORMED_TOKEN", token);
  });

  it("refuses a signed token without sub or without exp", async () => {
    await expectAuthError(verifier.verify(bearer(await sign(es, { claims: { sub: undefined } }))), "ERR_MALFORMED_TOKEN");
    await expectAuthError(verifier.verify(bearer(await sign(es, { claims: { exp: undefined } }))), "ERR_MALFORMED_TOKEN");
    await expectAuthError(verifier.verify(bearer(await sign(es, { claims: { sub: 42 } }))), "ERR_MALFORMED_TOKEN");
  });
});

describe("createBearerVerifier: signatures and keys", () => {
  it("accepts ES256, RS256 and EdDSA tokens signed by configured keys", async () => {
    for (const key of [es, rsa, ed]) {
      await expect(verifier.verify(bearer(await sign(key)))).resolves.toMatchObject({ subject: "user-1", via: "jwt", issuer: ISSUER });
    }
  });

  it("refuses a token signed by another key under the same kid with ERR_BAD_SIGNATURE", async () => {
    const token = await sign(stranger);
    await expectAuthError(verifier.verify(bearer(token)), "ERR_BAD_SIGNATURE", token);
  });

  it("refuses a token whose payload was altered after signing", async () => {
    const [head, , signature] = (await sign(es)).split(".");
    const forged = `${head}.${b64url({ iss: ISSUER, aud: RESOURCE, sub: "admin", exp: nowSeconds() + 60 })}.${signature}`;
    await expectAuthError(verifier.verify(bearer(forged)), "ERR_BAD_SIGNATURE", forged);
  });

  it("refuses a kid that no configured key has with ERR_UNKNOWN_KEY", async () => {
    const error = await expectAuthError(verifier.verify(bearer(await sign({ ...es, kid: "rotated-away" }))), "ERR_UNKNOWN_KEY");
    expect(error.message).toContain("rotated-away");
  });

  it("finds the key of a token without kid among several keys of the same type", async () => {
    const other = await testKey("ES256", "es-2");
    const both = createBearerVerifier(config({ keys: [other.publicJwk, es.publicJwk].map(({ kid: _kid, ...jwk }) => jwk) }));
    const token = await new SignJWT({ sub: "no-kid", iss: ISSUER, aud: RESOURCE, exp: nowSeconds() + 60 })
      .setProtectedHeader({ alg: "ES256" })
      .sign(es.privateKey);
    await expect(both.verify(bearer(token))).resolves.toMatchObject({ subject: "no-kid" });
    const foreign = await new SignJWT({ sub: "x", iss: ISSUER, aud: RESOURCE, exp: nowSeconds() + 60 })
      .setProtectedHeader({ alg: "ES256" })
      .sign(stranger.privateKey);
    await expectAuthError(both.verify(bearer(foreign)), "ERR_BAD_SIGNATURE");
  });
});

describe("createBearerVerifier: algorithms", () => {
  it("refuses alg none with ERR_ALGORITHM", async () => {
    const token = `${b64url({ alg: "none" })}.${b64url({ iss: ISSUER, aud: RESOURCE, sub: "admin", exp: nowSeconds() + 60 })}.`;
    await expectAuthError(verifier.verify(bearer(token)), "ERR_ALGORITHM");
    const upper = `${b64url({ alg: "NONE", kid: "es-1" })}.${b64url({ iss: ISSUER, aud: RESOURCE, sub: "admin", exp: nowSeconds() + 60 })}.`;
    await expectAuthError(verifier.verify(bearer(upper)), "ERR_ALGORITHM");
  });

  it("refuses an HS256 token signed with the RSA public key as the HMAC secret", async () => {
    const claims = { iss: ISSUER, aud: RESOURCE, sub: "admin", exp: nowSeconds() + 60 };
    const secrets = [new TextEncoder().encode(await exportSPKI(rsa.publicKey)), new TextEncoder().encode(JSON.stringify(rsa.publicJwk))];
    for (const secret of secrets) {
      const token = await new SignJWT(claims).setProtectedHeader({ alg: "HS256", kid: "rsa-1" }).sign(secret);
      await expectAuthError(verifier.verify(bearer(token)), "ERR_ALGORITHM", token);
    }
  });

  it("refuses HMAC even when a hand-built config lists HS256", async () => {
    const handBuilt: AuthConfig = { ...config({ keys: [rsa.publicJwk] }), algorithms: ["HS256", "RS256"] };
    const token = await new SignJWT({ iss: ISSUER, aud: RESOURCE, sub: "admin", exp: nowSeconds() + 60 })
      .setProtectedHeader({ alg: "HS256", kid: "rsa-1" })
      .sign(new TextEncoder().encode(await exportSPKI(rsa.publicKey)));
    await expectAuthError(createBearerVerifier(handBuilt).verify(bearer(token)), "ERR_ALGORITHM");
  });

  it("refuses an asymmetric algorithm the tenant did not allow", async () => {
    const rsOnly = createBearerVerifier(config({ keys: [es.publicJwk, rsa.publicJwk], algorithms: ["RS256"] }));
    await expect(rsOnly.verify(bearer(await sign(rsa)))).resolves.toMatchObject({ subject: "user-1" });
    await expectAuthError(rsOnly.verify(bearer(await sign(es))), "ERR_ALGORITHM");
  });
});

describe("createBearerVerifier: time", () => {
  const at = (offsetSeconds: number): number => nowSeconds() + offsetSeconds;

  it("refuses an expired token with ERR_TOKEN_EXPIRED once past the clock skew", async () => {
    await expectAuthError(verifier.verify(bearer(await sign(es, { claims: { exp: at(-61) } }))), "ERR_TOKEN_EXPIRED");
    await expect(verifier.verify(bearer(await sign(es, { claims: { exp: at(-30) } })))).resolves.toMatchObject({ subject: "user-1" });
  });

  it("refuses a token that is not valid yet with ERR_TOKEN_NOT_YET_VALID once past the clock skew", async () => {
    await expectAuthError(verifier.verify(bearer(await sign(es, { claims: { nbf: at(120) } }))), "ERR_TOKEN_NOT_YET_VALID");
    await expect(verifier.verify(bearer(await sign(es, { claims: { nbf: at(30) } })))).resolves.toMatchObject({ subject: "user-1" });
  });

  it("uses the configured skew and clock", async () => {
    const strict = createBearerVerifier(config({ keys: [es.publicJwk], clockSkewSeconds: 0 }), { now: () => Date.now() + 3_600_000 });
    await expectAuthError(strict.verify(bearer(await sign(es, { claims: { exp: at(3599) } }))), "ERR_TOKEN_EXPIRED");
    await expect(strict.verify(bearer(await sign(es, { claims: { exp: at(3610) } })))).resolves.toMatchObject({ subject: "user-1" });
  });
});

describe("createBearerVerifier: issuer and audience", () => {
  it("refuses a token from an issuer that is not pinned, and one without iss", async () => {
    const error = await expectAuthError(verifier.verify(bearer(await sign(es, { claims: { iss: "https://evil.example.com" } }))), "ERR_WRONG_ISSUER");
    expect(error.message).toContain("https://evil.example.com");
    await expectAuthError(verifier.verify(bearer(await sign(es, { claims: { iss: undefined } }))), "ERR_WRONG_ISSUER");
  });

  it("accepts any of several pinned issuers", async () => {
    const two = createBearerVerifier(config({ issuer: [ISSUER, "https://other.example.com"], keys: [es.publicJwk] }));
    await expect(two.verify(bearer(await sign(es, { claims: { iss: "https://other.example.com" } })))).resolves.toMatchObject({
      issuer: "https://other.example.com",
    });
  });

  it.each([
    ["another resource", "https://mcp.example.com/t/globex/mcp"],
    ["a prefix of the resource", "https://mcp.example.com/t/acme"],
    ["the resource with a trailing slash", `${RESOURCE}/`],
    ["the resource's origin", "https://mcp.example.com"],
    ["the resource in upper case", RESOURCE.toUpperCase()],
    ["an array without the resource", ["https://api.example.com", "https://mcp.example.com/t/acme/"]],
  ])("refuses a token whose audience is %s with ERR_WRONG_AUDIENCE", async (_name, aud) => {
    await expectAuthError(verifier.verify(bearer(await sign(es, { claims: { aud } }))), "ERR_WRONG_AUDIENCE");
  });

  it("refuses a token without aud", async () => {
    await expectAuthError(verifier.verify(bearer(await sign(es, { claims: { aud: undefined } }))), "ERR_WRONG_AUDIENCE");
  });

  it("accepts an audience array that contains the resource exactly", async () => {
    await expect(verifier.verify(bearer(await sign(es, { claims: { aud: ["https://api.example.com", RESOURCE] } })))).resolves.toMatchObject({
      subject: "user-1",
    });
  });
});

describe("createBearerVerifier: the principal", () => {
  it("reads scope, client_id and exp", async () => {
    const exp = nowSeconds() + 600;
    const principal = await verifier.verify(bearer(await sign(es, { claims: { scope: "tools:read  files:write tools:read", client_id: "app-1", exp } })));
    expect(principal).toEqual({ subject: "user-1", scopes: ["tools:read", "files:write"], clientId: "app-1", issuer: ISSUER, expiresAt: exp, via: "jwt" });
  });

  it("reads scp as an array or a string, and azp as the client", async () => {
    expect(await verifier.verify(bearer(await sign(es, { claims: { scp: ["a", "b", 3], azp: "app-2" } })))).toMatchObject({
      scopes: ["a", "b"],
      clientId: "app-2",
    });
    expect(await verifier.verify(bearer(await sign(es, { claims: { scp: "a b" } })))).toMatchObject({ scopes: ["a", "b"] });
    expect((await verifier.verify(bearer(await sign(es)))).scopes).toEqual([]);
  });
});
