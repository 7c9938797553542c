import { describe, expect, it } from "vitest";
import { createIntrospectionVerifier, type IntrospectionVerifierOptions } from "../../../../src/auth/tokens/introspection-verifier.ts";
import { expectAuthError, RESOURCE } from "../fixtures.ts";

const ENDPOINT = "https://login.example.com/oauth/introspect";
const AS = "https://login.example.com";
const resource = { configured: RESOURCE, served: RESOURCE };
const START = 1_700_000_000_000;

interface Asked {
  url: string;
  authorization: string | null;
  body: string;
}

/** A fake introspection endpoint: `answer` decides each reply; every request is recorded. */
function endpoint(answer: (token: string) => Response | Promise<Response>) {
  const asked: Asked[] = [];
  const fetch = (async (input: string, init?: RequestInit) => {
    // The verifier sends the form as a string.
    const body = init?.body as string;
    asked.push({ url: input, authorization: new Headers(init?.headers).get("authorization"), body });
    return answer(new URLSearchParams(body).get("token") ?? "");
  }) as typeof globalThis.fetch;
  return { fetch, asked };
}

const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
const active = (extra: Record<string, unknown> = {}) =>
  json({ active: true, sub: "alice", client_id: "app-1", scope: "notes:read notes:write", aud: RESOURCE, iss: AS, exp: START / 1000 + 3600, ...extra });

function verifier(fetch: typeof globalThis.fetch, now: () => number, options: Partial<IntrospectionVerifierOptions> = {}) {
  return createIntrospectionVerifier({ endpoint: ENDPOINT, clientId: "mcp server", clientSecret: "s3cr&t", issuer: AS, fetch, now, ...options });
}

function clock() {
  let at = START;
  return { now: () => at, advance: (ms: number) => void (at += ms) };
}

describe("createIntrospectionVerifier", () => {
  it("asks with HTTP Basic client authentication (form-encoded id and secret) and the token in the body", async () => {
    const { fetch, asked } = endpoint(() => active());
    await verifier(fetch, () => START).verify("tok-1", resource);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.url).toBe(ENDPOINT);
    expect(asked[0]?.authorization).toBe(`Basic ${btoa("mcp+server:s3cr%26t")}`);
    expect(new URLSearchParams(asked[0]?.body)).toEqual(new URLSearchParams({ token: "tok-1", token_type_hint: "access_token" }));
  });

  it("makes the principal from the response: issuer, sub, client, scopes, exp, and the members as claims", async () => {
    const time = clock();
    const { fetch } = endpoint(() => active({ roles: ["billing"] }));
    const { principal } = await verifier(fetch, time.now, { grants: [{ claim: "roles", value: "billing", tools: ["invoice_*"], scopes: [] }] }).verify(
      "t",
      resource,
    );
    expect(principal).toMatchObject({
      issuer: AS,
      subject: "alice",
      clientId: "app-1",
      scopes: ["notes:read", "notes:write"],
      via: "introspection",
      expiresAt: START / 1000 + 3600,
      tools: ["invoice_*"],
    });
    expect(principal.claims).toMatchObject({ sub: "alice", roles: ["billing"] });
    expect(principal.claims).not.toHaveProperty("active");
  });

  it("takes the client as the subject of a client-credentials token (no sub), and reads cnf.jkt for DPoP", async () => {
    const { fetch } = endpoint(() => active({ sub: undefined, cnf: { jkt: "thumb" } }));
    const verified = await verifier(fetch, () => START).verify("t", resource);
    expect(verified.principal.subject).toBe("app-1");
    expect(verified.jkt).toBe("thumb");
  });

  it("answers an active token from the cache for cacheSeconds, then asks again", async () => {
    const time = clock();
    const { fetch, asked } = endpoint(() => active());
    const check = verifier(fetch, time.now, { cacheSeconds: 30 });
    await check.verify("t", resource);
    time.advance(29_000);
    await check.verify("t", resource);
    expect(asked).toHaveLength(1);
    time.advance(1_000);
    await check.verify("t", resource);
    expect(asked).toHaveLength(2);
  });

  it("never answers from the cache past the token's exp", async () => {
    const time = clock();
    let exp = START / 1000 + 10;
    const { fetch, asked } = endpoint(() => active({ exp }));
    const check = verifier(fetch, time.now, { cacheSeconds: 300, clockSkewSeconds: 0 });
    await check.verify("t", resource);
    time.advance(10_000);
    exp = START / 1000 - 1;
    await expectAuthError(check.verify("t", resource), "ERR_TOKEN_INACTIVE");
    expect(asked).toHaveLength(2);
  });

  it("refuses an inactive token with 401 invalid_token, and remembers that for negativeCacheSeconds only", async () => {
    const time = clock();
    let state = false;
    const { fetch, asked } = endpoint(() => (state ? active() : json({ active: false })));
    const check = verifier(fetch, time.now, { negativeCacheSeconds: 5 });
    const error = await expectAuthError(check.verify("t", resource), "ERR_TOKEN_INACTIVE");
    expect(error.message).toMatch(/not active/);
    state = true;
    time.advance(4_999);
    await expectAuthError(check.verify("t", resource), "ERR_TOKEN_INACTIVE");
    expect(asked).toHaveLength(1);
    time.advance(1);
    await expect(check.verify("t", resource)).resolves.toMatchObject({ principal: { subject: "alice" } });
    expect(asked).toHaveLength(2);
  });

  it.each([
    ["unreachable", () => Promise.reject(new TypeError("fetch failed"))],
    ["HTTP 500", () => json({ error: "server_error" }, 500)],
    ["HTTP 401 (wrong client secret)", () => json({ error: "invalid_client" }, 401)],
    ["not JSON", () => new Response("<html>down</html>", { status: 200 })],
    ["JSON without active", () => json({ sub: "alice" })],
    ["a JSON array", () => json([{ active: true }])],
    ["a huge body", () => json({ active: true, pad: "x".repeat(70_000) })],
  ])("answers 503 (ERR_VERIFIER_UNAVAILABLE) when the endpoint is %s, and caches nothing", async (_name, answer) => {
    let down = true;
    const { fetch, asked } = endpoint(() => (down ? answer() : active()));
    const check = verifier(fetch, () => START);
    const error = await expectAuthError(check.verify("t", resource), "ERR_VERIFIER_UNAVAILABLE");
    expect(error.message).toMatch(/introspection endpoint .*try again later/);
    down = false;
    await expect(check.verify("t", resource)).resolves.toMatchObject({ principal: { subject: "alice" } });
    expect(asked).toHaveLength(2);
  });

  it("times out a slow endpoint as unavailable", async () => {
    const { fetch } = endpoint(() => new Promise<Response>(() => {}));
    const slow = ((input: RequestInfo | URL, init?: RequestInit) =>
      Promise.race([
        fetch(input, init),
        new Promise<Response>((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal?.reason as Error))),
      ])) as typeof globalThis.fetch;
    await expectAuthError(verifier(slow, () => START, { timeoutMs: 100 }).verify("t", resource), "ERR_VERIFIER_UNAVAILABLE");
  });

  it("refuses a token for another resource, and one without aud unless requireAudience is false", async () => {
    const { fetch } = endpoint((token) => (token === "other" ? active({ aud: ["https://other.example.com/mcp"] }) : active({ aud: undefined })));
    await expectAuthError(verifier(fetch, () => START).verify("other", resource), "ERR_WRONG_AUDIENCE");
    await expectAuthError(verifier(fetch, () => START).verify("none", resource), "ERR_WRONG_AUDIENCE");
    await expect(verifier(fetch, () => START, { requireAudience: false }).verify("none", resource)).resolves.toBeDefined();
  });

  it("accepts the served loopback resource as aud too", async () => {
    const { fetch } = endpoint(() => active({ aud: "http://127.0.0.1:9000/mcp" }));
    await expect(
      verifier(fetch, () => START).verify("t", { configured: "http://127.0.0.1:8787/mcp", served: "http://127.0.0.1:9000/mcp" }),
    ).resolves.toBeDefined();
  });

  it.each([
    ["another issuer", { iss: "https://evil.example.com" }, /another authorization server/],
    ["a refresh token", { token_type: "refresh_token" }, /refresh token/],
    ["an expired exp", { exp: START / 1000 - 120 }, /expired/],
    ["an nbf in the future", { nbf: START / 1000 + 600 }, /not valid yet/],
    ["no sub and no client_id", { sub: undefined, client_id: undefined }, /no sub or client_id/],
  ])("refuses an active response with %s", async (_name, extra, message) => {
    const { fetch } = endpoint(() => active(extra));
    const error = await expectAuthError(verifier(fetch, () => START).verify("t", resource), "ERR_TOKEN_INACTIVE");
    expect(error.message).toMatch(message);
  });

  it("refuses a grant claim of the wrong type as a bad token, never a 500", async () => {
    const { fetch } = endpoint(() => active({ roles: 5 }));
    await expectAuthError(
      verifier(fetch, () => START, { grants: [{ claim: "roles", value: "x", tools: ["a"], scopes: [] }] }).verify("t", resource),
      "ERR_MALFORMED_TOKEN",
    );
  });
});
