// DPoP (RFC 9449) on the "bound" tenant: bound tokens need a valid one-time proof for this request; plain bearer tokens are refused.
import { exports } from "cloudflare:workers";
import { SignJWT, base64url, calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from "jose";
import { describe, expect, it } from "vitest";
import privateJwk from "../../examples/multi-tenant/dev-keys/private.jwk.json";
import { ISSUER_ONE } from "./fixture.ts";

const URL_OF = "http://127.0.0.1/t/bound/mcp";
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

async function holder(): Promise<{ key: CryptoKey; jwk: JWK; jkt: string; privateJwk: JWK }> {
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = await exportJWK(publicKey);
  return { key: privateKey, jwk, jkt: await calculateJwkThumbprint(jwk, "sha256"), privateJwk: await exportJWK(privateKey) };
}

async function accessToken(jkt?: string, aud = URL_OF): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: ISSUER_ONE, aud, sub: "dpop-user", exp: now + 600, ...(jkt ? { cnf: { jkt } } : {}) })
    .setProtectedHeader({ alg: "ES256", kid: "edge-mcp-dev-es256-1" })
    .sign(await importJWK(privateJwk as JWK, "ES256"));
}

interface ProofOptions {
  htm?: string;
  htu?: string;
  iat?: number;
  ath?: string;
  jwk?: JWK;
  typ?: string;
}

async function proof(key: CryptoKey, jwk: JWK, token: string, options: ProofOptions = {}, url = URL_OF): Promise<string> {
  const ath = options.ath ?? base64url.encode(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))));
  return new SignJWT({
    htm: options.htm ?? "POST",
    htu: options.htu ?? `${url}?ignored=1`,
    iat: options.iat ?? Math.floor(Date.now() / 1000),
    jti: crypto.randomUUID(),
    ath,
  })
    .setProtectedHeader({ alg: "ES256", typ: options.typ ?? "dpop+jwt", jwk: options.jwk ?? jwk })
    .sign(key);
}

function call(headers: Record<string, string>, url = URL_OF): Promise<Response> {
  return exports.default.fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "whoami",
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {}, _meta: META } }),
  });
}

async function refused(response: Response, pattern: RegExp): Promise<void> {
  expect(response.status).toBe(401);
  const challenge = response.headers.get("www-authenticate") ?? "";
  expect(challenge).toMatch(/^DPoP algs="ES256 EdDSA", resource_metadata="http:\/\/127\.0\.0\.1\/\.well-known\/oauth-protected-resource\/t\/bound\/mcp"/);
  expect(challenge).toMatch(pattern);
  await response.text();
}

describe("DPoP", () => {
  it("accepts a bound token with a good proof once; a replayed proof, one for another URL or method, or none get 401", async () => {
    const { key, jwk, jkt } = await holder();
    const token = await accessToken(jkt);
    const good = await proof(key, jwk, token);
    const ok = await call({ authorization: `DPoP ${token}`, dpop: good });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("dpop-user");
    await refused(await call({ authorization: `DPoP ${token}`, dpop: good }), /error="invalid_dpop_proof", error_description="[^"]*replay/);
    await refused(await call({ authorization: `DPoP ${token}`, dpop: await proof(key, jwk, token, { htu: "http://127.0.0.1/t/other/mcp" }) }), /htu/);
    await refused(await call({ authorization: `DPoP ${token}`, dpop: await proof(key, jwk, token, { htm: "GET" }) }), /htm/);
    await refused(await call({ authorization: `DPoP ${token}` }), /error="invalid_dpop_proof"/);
    await refused(
      await call({ authorization: `Bearer ${token}`, dpop: await proof(key, jwk, token) }),
      /error="invalid_token", error_description="[^"]*DPoP-bound/,
    );
  });

  it("refuses plain bearer tokens and requests without a token with the DPoP challenge", async () => {
    await refused(await call({ authorization: `Bearer ${await accessToken()}` }), /error="invalid_token", error_description="[^"]*requires DPoP-bound/);
    const none = await call({});
    await refused(none, /^DPoP algs="ES256 EdDSA", resource_metadata="[^"]*"$/);
  });

  it("asks for DPoP, not Bearer, in the 401 message of a request without a token or with another scheme", async () => {
    for (const headers of [{}, { authorization: "Basic dXNlcjpwYXNz" }]) {
      const response = await call(headers);
      expect(response.status).toBe(401);
      const { error } = await response.json<{ error: { message: string } }>();
      expect(error.message).toMatch(/send Authorization: DPoP <token> with a DPoP proof/);
      expect(error.message).not.toMatch(/Bearer/);
    }
  });

  it("refuses bad proofs with 401, never 500: malformed, private key in the header, other key, stale iat, wrong ath, wrong typ", async () => {
    const { key, jwk, jkt, privateJwk: secret } = await holder();
    const other = await holder();
    const token = await accessToken(jkt);
    const cases: [string, string][] = [
      ["not-a-jwt", /compact JWS/.source],
      ["a.b.c", /header/.source],
      [await proof(key, jwk, token, { jwk: secret }), /private key/.source],
      [await proof(other.key, other.jwk, token), /cnf\.jkt/.source],
      [await proof(key, jwk, token, { iat: Math.floor(Date.now() / 1000) - 3600 }), /iat/.source],
      [await proof(key, jwk, token, { ath: "AAAA" }), /ath/.source],
      [await proof(key, jwk, token, { typ: "JWT" }), /typ/.source],
      [`${(await proof(key, jwk, token)).slice(0, -4)}AAAA`, /signature/.source],
    ];
    for (const [dpop, why] of cases) await refused(await call({ authorization: `DPoP ${token}`, dpop }), new RegExp(why));
  });

  it("says so in the protected resource metadata", async () => {
    const response = await exports.default.fetch("http://127.0.0.1/.well-known/oauth-protected-resource/t/bound/mcp");
    expect(await response.json()).toMatchObject({ dpop_bound_access_tokens_required: true, dpop_signing_alg_values_supported: ["ES256", "EdDSA"] });
  });
});

// "secure" shares "bound"'s issuer and keys but has no dpop block (as initech and hooli in examples/multi-tenant).
describe("DPoP-bound tokens on a tenant without DPoP settings", () => {
  const SECURE = "http://127.0.0.1/t/secure/mcp";

  it("refuses a bound token sent as Bearer (RFC 9449 section 7.1), with or without a proof, and says to use DPoP", async () => {
    const { key, jwk, jkt } = await holder();
    const token = await accessToken(jkt, SECURE);
    for (const headers of [{ authorization: `Bearer ${token}` }, { authorization: `Bearer ${token}`, dpop: await proof(key, jwk, token, {}, SECURE) }]) {
      const response = await call(headers, SECURE);
      expect(response.status).toBe(401);
      const challenge = response.headers.get("www-authenticate") ?? "";
      expect(challenge).toMatch(
        /^Bearer resource_metadata="[^"]*", (?:scope="[^"]*", )?error="invalid_token", error_description="[^"]*DPoP-bound[^"]*", DPoP algs="ES256 EdDSA RS256 PS256"/,
      );
      expect((await response.json<{ error: { message: string } }>()).error.message).toMatch(/DPoP-bound/);
    }
  });

  it("accepts a bound token with the DPoP scheme and a good proof once, checked with the default settings", async () => {
    const { key, jwk, jkt } = await holder();
    const token = await accessToken(jkt, SECURE);
    const good = await proof(key, jwk, token, {}, SECURE);
    const ok = await call({ authorization: `DPoP ${token}`, dpop: good }, SECURE);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("dpop-user");
    const replayed = await call({ authorization: `DPoP ${token}`, dpop: good }, SECURE);
    expect(replayed.status).toBe(401);
    expect(replayed.headers.get("www-authenticate")).toMatch(/error="invalid_dpop_proof", error_description="[^"]*replay/);
    await replayed.text();
    const other = await holder();
    const stolen = await call({ authorization: `DPoP ${token}`, dpop: await proof(other.key, other.jwk, token, {}, SECURE) }, SECURE);
    expect(stolen.status).toBe(401);
    await stolen.text();
    const without = await call({ authorization: `DPoP ${token}` }, SECURE);
    expect(without.status).toBe(401);
    await without.text();
  });

  it("still takes an unbound token as Bearer, and refuses it with the DPoP scheme", async () => {
    const token = await accessToken(undefined, SECURE);
    const ok = await call({ authorization: `Bearer ${token}` }, SECURE);
    expect(ok.status).toBe(200);
    await ok.text();
    const refused = await call({ authorization: `DPoP ${token}` }, SECURE);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/DPoP scheme needs a DPoP-bound token/);
    await refused.text();
  });
});
