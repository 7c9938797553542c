// The initech tenant (OAuth on) through real HTTP: each refusal's status, WWW-Authenticate and JSON-RPC body,
// the metadata document, API keys, and the official clients with a token from the token script.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createHmac } from "node:crypto";
import { SignJWT, generateKeyPair, importJWK, type JWK } from "jose";
import { describe, expect, inject, it } from "vitest";
import { capturingToolCalls, connectLegacyClient, connectModernClient } from "./clients.ts";

const base = inject("baseUrlMultiTenant");
const URL_MCP = `${base}/t/initech/mcp`;
const METADATA = `${base}/.well-known/oauth-protected-resource/t/initech/mcp`;
const RESOURCE = "http://127.0.0.1:8787/t/initech/mcp";
const ISSUER = "https://dev-issuer.edge-mcp.local";
const API_KEY = "emk_dev_initech_published_example_key_not_secret";
const KID = "edge-mcp-dev-es256-1";
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const CHALLENGE_401 = `Bearer resource_metadata="${METADATA}", scope="profile:read invoices:read"`;

function token(...args: string[]): string {
  return execFileSync(process.execPath, ["scripts/token.mjs", "--tenant", "initech", ...args], { encoding: "utf8" }).trim();
}

async function devSigned(claims: Record<string, unknown>, header: Record<string, unknown> = {}): Promise<string> {
  const jwk = JSON.parse(readFileSync("examples/multi-tenant/dev-keys/private.jwk.json", "utf8")) as JWK;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: ISSUER, aud: RESOURCE, sub: "dev-user", iat: now, exp: now + 600, ...claims })
    .setProtectedHeader({ alg: "ES256", kid: KID, ...header })
    .sign(await importJWK(jwk, "ES256"));
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

async function call(method: string, params: Record<string, unknown>, authorization?: string) {
  const name = typeof params["name"] === "string" ? { "mcp-name": params["name"] } : {};
  const response = await fetch(URL_MCP, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...name,
      ...(authorization === undefined ? {} : { authorization }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params: { ...params, _meta: META } }),
  });
  return { status: response.status, challenge: response.headers.get("www-authenticate"), body: await response.json<Record<string, unknown>>() };
}

async function refused(authorization: string | undefined, description: RegExp | undefined) {
  // invoice_total, not tools/list: initech lists its tools to anonymous callers (it has a public one).
  const reply = await call("tools/call", { name: "invoice_total", arguments: { lines: [1] } }, authorization);
  expect(reply.status).toBe(401);
  if (description === undefined) expect(reply.challenge).toBe(CHALLENGE_401);
  else {
    expect(reply.challenge).toMatch(new RegExp(`^${CHALLENGE_401.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}, error="invalid_token", error_description="`));
    expect(reply.challenge).toMatch(description);
  }
  expect(reply.body).toMatchObject({ jsonrpc: "2.0", error: { code: -32600, message: expect.stringMatching(/^Unauthorized/) } });
}

describe("refusals", () => {
  it("refuses a request without a token: 401, a challenge without an error code", async () => {
    await refused(undefined, undefined);
  });

  it.each([
    ["a malformed token", "Bearer not.a.jwt", /error_description=/],
    ["a bad API key", `Bearer ${API_KEY}x`, /error_description=/],
    ["a key that is a prefix of the API key", `Bearer ${API_KEY.slice(0, -4)}`, /error_description=/],
  ])("refuses %s with 401 invalid_token", async (_what, authorization, description) => {
    await refused(authorization, description);
  });

  it("refuses an expired token, one not yet valid, and one from another issuer", async () => {
    await refused(`Bearer ${token("--exp", "-120")}`, /expired/);
    await refused(`Bearer ${await devSigned({ nbf: Math.floor(Date.now() / 1000) + 600 })}`, /not (yet )?valid/);
    await refused(`Bearer ${await devSigned({ iss: "https://evil.example.com" })}`, /issuer/);
  });

  it("refuses a token for another audience, including one that only differs by a trailing slash", async () => {
    await refused(`Bearer ${token("--aud", "http://127.0.0.1:8787/t/globex/mcp")}`, /audience/);
    await refused(`Bearer ${await devSigned({ aud: `${RESOURCE}/` })}`, /audience/);
  });

  it("refuses a bad signature, alg none and an HMAC token keyed with the public key", async () => {
    const { privateKey } = await generateKeyPair("ES256");
    const forged = await new SignJWT({ iss: ISSUER, aud: RESOURCE, sub: "mallory", exp: Math.floor(Date.now() / 1000) + 600 })
      .setProtectedHeader({ alg: "ES256", kid: KID })
      .sign(privateKey);
    await refused(`Bearer ${forged}`, /signature/);
    const payload = b64({ iss: ISSUER, aud: RESOURCE, sub: "mallory", exp: Math.floor(Date.now() / 1000) + 600 });
    await refused(`Bearer ${b64({ alg: "none", typ: "JWT" })}.${payload}.`, /algorithm|alg/);
    const publicJwk = readFileSync("examples/multi-tenant/dev-keys/public.jwk.json", "utf8");
    const header = b64({ alg: "HS256", kid: KID });
    const mac = createHmac("sha256", publicJwk).update(`${header}.${payload}`).digest("base64url");
    await refused(`Bearer ${header}.${payload}.${mac}`, /algorithm|alg/);
  });

  it("answers a tool that needs more scope with 403 and one challenge naming every needed scope", async () => {
    const reply = await call("tools/call", { name: "invoice_total", arguments: { lines: [1] } }, `Bearer ${token("--scope", "profile:read")}`);
    expect(reply.status).toBe(403);
    expect(reply.challenge).toBe(
      `Bearer error="insufficient_scope", scope="invoices:read", resource_metadata="${METADATA}", error_description="tool invoice_total needs invoices:read"`,
    );
    expect(reply.body).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32600, message: "Insufficient scope: tool invoice_total needs invoices:read" } });
  });
});

describe("2025-11-25 sessions on an auth tenant", () => {
  it("gives the official v1 client in a session the 403 challenge when its token lacks the tool's scope", async () => {
    const { fetch: capture, seen } = capturingToolCalls();
    const client = await connectLegacyClient(URL_MCP, {
      headers: { authorization: `Bearer ${token("--scope", "profile:read", "--sub", "scope-less")}` },
      fetch: capture,
    });
    try {
      await expect(client.callTool({ name: "invoice_total", arguments: { lines: [1, 2] } })).rejects.toThrow(/403|Insufficient scope/);
      const refusal = seen.at(-1) as Response;
      expect(refusal.status).toBe(403);
      expect(refusal.headers.get("www-authenticate")).toBe(
        `Bearer error="insufficient_scope", scope="invoices:read", resource_metadata="${METADATA}", error_description="tool invoice_total needs invoices:read"`,
      );
      expect(await refusal.json()).toMatchObject({ error: { code: -32600, message: "Insufficient scope: tool invoice_total needs invoices:read" } });
      // The session stays usable for what the token allows.
      expect((await client.callTool({ name: "whoami", arguments: {} })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it("refuses a GET without a token with 401 and a challenge (what mcp-remote probes with)", async () => {
    const response = await fetch(URL_MCP, { headers: { accept: "text/event-stream" } });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(CHALLENGE_401);
    expect(await response.json()).toMatchObject({ error: { code: -32600 } });
  });
});

describe("accepted credentials", () => {
  it("serves the metadata document without a token, naming the URL this dev server is reached at", async () => {
    const response = await fetch(METADATA);
    expect(response.status).toBe(200);
    // The tenant's resource is configured on port 8787; this server runs on another loopback port,
    // and strict OAuth clients refuse a document whose resource is not the URL they used.
    expect(new URL(URL_MCP).port).not.toBe("8787");
    expect(await response.json()).toEqual({
      resource: URL_MCP,
      authorization_servers: [ISSUER],
      scopes_supported: ["profile:read", "invoices:read"],
      bearer_methods_supported: ["header"],
    });
  });

  it("accepts the API key with its scopes", async () => {
    const reply = await call("tools/call", { name: "invoice_total", arguments: { lines: [2, 3] } }, `Bearer ${API_KEY}`);
    expect(reply.status).toBe(200);
    expect(reply.body["result"]).toMatchObject({ content: [{ type: "text", text: "Total: 5" }] });
  });

  it.each(["legacy", "modern"] as const)("lets the %s client call protected tools with a token from the token script", async (era) => {
    const headers = { authorization: `Bearer ${token("--scope", "profile:read invoices:read", "--sub", `ada-${era}`)}` };
    const client = era === "legacy" ? await connectLegacyClient(URL_MCP, { headers }) : await connectModernClient(URL_MCP, { headers });
    try {
      const who = await client.callTool({ name: "whoami", arguments: {} });
      expect(JSON.parse((who.content as { text: string }[])[0]?.text ?? "{}")).toEqual({
        tenant: "initech",
        subject: `ada-${era}`,
        scopes: ["profile:read", "invoices:read"],
      });
      const total = await client.callTool({ name: "invoice_total", arguments: { lines: [1, 1] } });
      expect(total.content).toEqual([{ type: "text", text: "Total: 2" }]);
    } finally {
      await client.close();
    }
  });
});
