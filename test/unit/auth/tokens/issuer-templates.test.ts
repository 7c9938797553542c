import { beforeAll, describe, expect, it } from "vitest";
import { parseAuthConfig, type AuthConfigInput } from "../../../../src/auth/auth-config.ts";
import { checkTokenSourceConfig, configuredTokenSources } from "../../../../src/auth/tokens/token-sources.ts";
import { createBearerVerifier, type BearerVerifier } from "../../../../src/auth/verify-bearer.ts";
import { expectAuthError, ISSUER, RESOURCE, sign, testKey, type TestKey } from "../fixtures.ts";

const DIR_A = "9188040d-6c67-4c5b-b112-36a304b66dad";
const DIR_B = "72f988bf-86f1-41af-91ab-2d7cd011db47";
const OUTSIDER = "0c4a0b86-2a64-4c3f-9a3c-4a1c0cc0ffee";
const entra = (tid: string) => `https://login.microsoftonline.com/${tid}/v2.0`;

let entraKey: TestKey;
let pinnedKey: TestKey;
let verifier: BearerVerifier;

beforeAll(async () => {
  [entraKey, pinnedKey] = await Promise.all([testKey("RS256", "entra-1"), testKey("ES256", "pinned-1")]);
  verifier = verifierOf({
    resource: RESOURCE,
    issuer: ISSUER,
    keys: [pinnedKey.publicJwk],
    issuerTemplates: [{ template: "https://login.microsoftonline.com/{tid}/v2.0", allowed: [DIR_A, DIR_B], keys: [entraKey.publicJwk] }],
  });
});

/** The verifier of a config, with the issuer templates it names. */
function verifierOf(input: AuthConfigInput): BearerVerifier {
  const config = parseAuthConfig(input, "acme");
  return createBearerVerifier(config, configuredTokenSources(config, {}));
}

const bearer = (token: string) => `Bearer ${token}`;

describe("issuer templates", () => {
  it("accepts a token of each allowed directory, with its own iss as the principal's issuer", async () => {
    for (const tid of [DIR_A, DIR_B]) {
      const principal = await verifier.verify(bearer(await sign(entraKey, { claims: { iss: entra(tid), tid } })));
      expect(principal).toMatchObject({ issuer: entra(tid), subject: "user-1", via: "jwt" });
    }
  });

  it("accepts a token without the tid claim when its iss names an allowed directory", async () => {
    await expect(verifier.verify(bearer(await sign(entraKey, { claims: { iss: entra(DIR_A) } })))).resolves.toMatchObject({ issuer: entra(DIR_A) });
  });

  it("refuses a directory outside the allowlist, before any key is looked up", async () => {
    const error = await expectAuthError(verifier.verify(bearer(await sign(entraKey, { claims: { iss: entra(OUTSIDER), tid: OUTSIDER } }))), "ERR_WRONG_ISSUER");
    expect(error.message).toMatch(/names a tid this resource does not allow/);
  });

  it("refuses a token whose tid is another directory than its iss names", async () => {
    const error = await expectAuthError(verifier.verify(bearer(await sign(entraKey, { claims: { iss: entra(DIR_A), tid: DIR_B } }))), "ERR_WRONG_ISSUER");
    expect(error.message).toMatch(/tid claim does not match/);
    await expectAuthError(verifier.verify(bearer(await sign(entraKey, { claims: { iss: entra(DIR_A), tid: 7 } }))), "ERR_WRONG_ISSUER");
  });

  it.each([
    ["a placeholder value with a slash", `https://login.microsoftonline.com/${DIR_A}/x/v2.0`],
    ["an empty placeholder value", "https://login.microsoftonline.com//v2.0"],
    ["another suffix", `https://login.microsoftonline.com/${DIR_A}/v1.0`],
    ["another host", `https://login.example.net/${DIR_A}/v2.0`],
    ["the template itself", "https://login.microsoftonline.com/{tid}/v2.0"],
  ])("refuses an iss with %s", async (_name, iss) => {
    await expectAuthError(verifier.verify(bearer(await sign(entraKey, { claims: { iss } }))), "ERR_WRONG_ISSUER");
  });

  it("verifies a template's tokens with the template's keys only, and the pinned issuer's with its own", async () => {
    await expectAuthError(verifier.verify(bearer(await sign(pinnedKey, { claims: { iss: entra(DIR_A) } }))), "ERR_UNKNOWN_KEY");
    await expectAuthError(verifier.verify(bearer(await sign(pinnedKey, { claims: { iss: entra(DIR_A) }, header: { kid: "entra-1" } }))), "ERR_UNKNOWN_KEY");
    await expectAuthError(verifier.verify(bearer(await sign(entraKey, { header: { kid: "pinned-1" } }))), "ERR_UNKNOWN_KEY");
    await expect(verifier.verify(bearer(await sign(pinnedKey)))).resolves.toMatchObject({ issuer: ISSUER });
  });

  it("still checks aud and exp of a template's token", async () => {
    await expectAuthError(
      verifier.verify(bearer(await sign(entraKey, { claims: { iss: entra(DIR_A), aud: "https://other.example.com/mcp" } }))),
      "ERR_WRONG_AUDIENCE",
    );
    await expectAuthError(
      verifier.verify(bearer(await sign(entraKey, { claims: { iss: entra(DIR_A), exp: Math.floor(Date.now() / 1000) - 600 } }))),
      "ERR_TOKEN_EXPIRED",
    );
  });

  it("works without any pinned issuer", async () => {
    const only = verifierOf({
      resource: RESOURCE,
      issuerTemplates: [{ template: "https://login.microsoftonline.com/{tid}/v2.0", allowed: [DIR_A], keys: [entraKey.publicJwk] }],
    });
    await expect(only.verify(bearer(await sign(entraKey, { claims: { iss: entra(DIR_A) } })))).resolves.toMatchObject({ issuer: entra(DIR_A) });
    await expectAuthError(only.verify(bearer(await sign(entraKey))), "ERR_WRONG_ISSUER");
  });
});

describe("issuerTemplates config", () => {
  const problems = (issuerTemplates: unknown): string => {
    try {
      checkTokenSourceConfig(parseAuthConfig({ resource: RESOURCE, issuerTemplates }, "acme"), "acme");
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error("expected the config to be refused");
  };

  it.each([
    [
      "no placeholder",
      [{ template: "https://login.microsoftonline.com/common/v2.0", allowed: [DIR_A], jwksUri: "https://k.example.com/keys" }],
      /exactly one placeholder/,
    ],
    [
      "two placeholders",
      [{ template: "https://login.example.com/{a}/{b}", allowed: [DIR_A], jwksUri: "https://k.example.com/keys" }],
      /exactly one placeholder/,
    ],
    ["a placeholder in the host", [{ template: "https://{tid}.example.com/v2.0", allowed: [DIR_A], jwksUri: "https://k.example.com/keys" }], /after the host/],
    ["an empty allowlist", [{ template: "https://login.microsoftonline.com/{tid}/v2.0", allowed: [], jwksUri: "https://k.example.com/keys" }], /no wildcard/],
    ["a wildcard value", [{ template: "https://login.microsoftonline.com/{tid}/v2.0", allowed: ["*"], jwksUri: "https://k.example.com/keys" }], /allowed\[0\]/],
    ["no keys", [{ template: "https://login.microsoftonline.com/{tid}/v2.0", allowed: [DIR_A] }], /needs jwksUri or keys/],
    [
      "a plain-http JWKS",
      [{ template: "https://login.microsoftonline.com/{tid}/v2.0", allowed: [DIR_A], jwksUri: "http://k.example.com/keys" }],
      /jwksUri: must be an https URL/,
    ],
    [
      "an unknown field",
      [{ template: "https://login.microsoftonline.com/{tid}/v2.0", allowed: [DIR_A], jwksUri: "https://k.example.com/keys", issuer: "x" }],
      /issuerTemplates\[0\]\.issuer: unknown field/,
    ],
    ["an empty list", [], /non-empty array/],
  ])("refuses %s", (_name, value, message) => {
    expect(problems(value)).toMatch(message);
  });
});
