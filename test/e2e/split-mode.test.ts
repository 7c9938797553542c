// Split mode: an authorization server Worker (workers-oauth-provider's OAuthAuthorizationServer) and an MCP
// Worker joined by a Service Binding, under one `wrangler dev`. A token the first issued reaches tools/call on
// the second with its principal; revoked, it is refused within the cache's bound; another tenant refuses it.
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWranglerDev, type WranglerDev } from "./wrangler-dev.ts";

const FIXTURES = fileURLToPath(new URL("./fixtures/split-mode/", import.meta.url));
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const REDIRECT = "https://client.test/callback";
/** The tenants' cacheSeconds: a revoked token is refused within it. */
const CACHE_MS = 2_000;

let worker: WranglerDev;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "edge-mcp-split-"));
  const mcpConfig = join(dir, "mcp.toml");
  const asConfig = join(dir, "as.toml");
  writeFileSync(
    mcpConfig,
    [
      'name = "edge-mcp-split-mcp"',
      `main = ${JSON.stringify(join(FIXTURES, "resource-worker.ts"))}`,
      'compatibility_date = "2026-04-01"',
      'compatibility_flags = ["enable_request_signal"]',
      'services = [{ binding = "AUTH_SERVER", service = "edge-mcp-split-as" }]',
    ].join("\n"),
  );
  writeFileSync(
    asConfig,
    [
      'name = "edge-mcp-split-as"',
      `main = ${JSON.stringify(join(FIXTURES, "auth-server-worker.ts"))}`,
      'compatibility_date = "2026-04-01"',
      'kv_namespaces = [{ binding = "OAUTH_KV", id = "split-mode-oauth" }]',
    ].join("\n"),
  );
  worker = await startWranglerDev({ name: "split-mode", configPath: [mcpConfig, asConfig], args: ["--persist-to", join(dir, "state")] });
}, 90_000);

afterAll(async () => {
  await worker?.stop();
});

const asUrl = (url: string) => `${worker.baseUrl}/as${new URL(url).pathname}${new URL(url).search}`;

/** A token of the fixed user for `resource`: registration (DCR), authorization with PKCE S256, code exchange. */
async function tokenFor(resource: string, scope = "notes:read"): Promise<{ token: string; clientId: string }> {
  const registered = await fetch(`${worker.baseUrl}/as/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", client_name: "split-mode test" }),
  });
  expect(registered.status, await registered.clone().text()).toBe(201);
  const { client_id: clientId } = await registered.json<{ client_id: string }>();
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope,
    state: "s1",
    code_challenge: challenge,
    code_challenge_method: "S256",
    resource,
  });
  const authorized = await fetch(`${worker.baseUrl}/as/authorize?${query.toString()}`, { redirect: "manual" });
  expect(authorized.status, await authorized.clone().text()).toBe(302);
  const code = new URL(authorized.headers.get("location") ?? "").searchParams.get("code");
  expect(code).toBeTruthy();
  const exchanged = await fetch(`${worker.baseUrl}/as/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: code as string,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
      resource,
    }),
  });
  const body = await exchanged.json<{ access_token?: string }>();
  expect(exchanged.status, JSON.stringify(body)).toBe(200);
  return { token: body.access_token as string, clientId };
}

async function call(tenant: string, name: string, token: string): Promise<Response> {
  return fetch(`${worker.baseUrl}/t/${tenant}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": name,
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {}, _meta: META } }),
  });
}

describe("split mode: an authorization server Worker over a Service Binding", () => {
  it("accepts a token the authorization server issued, and tools/call sees the principal and the grant's props", async () => {
    const { token } = await tokenFor("http://127.0.0.1/t/acme/mcp");
    expect(token.split(":")).toHaveLength(3);
    const response = await call("acme", "whoami", token);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const { result } = JSON.parse(text) as { result: { content: [{ text: string }] } };
    const seen = JSON.parse(result.content[0].text) as { tenant: string; principal: Record<string, unknown> };
    expect(seen.tenant).toBe("acme");
    expect(seen.principal).toMatchObject({
      issuer: "https://auth.test",
      subject: "alice",
      scopes: ["notes:read", "notes:edit"],
      via: "authorization-server",
      claims: { sub: "alice", email: "alice@example.com", roles: ["editor"] },
    });
    expect(typeof seen.principal["clientId"]).toBe("string");
    expect(text).not.toContain(token);
    // The same admission as any token: a tool needing a scope the token lacks is 403.
    const refused = await call("acme", "note_write", token);
    expect(refused.status).toBe(403);
    await refused.text();
  });

  it("refuses a token of tenant acme at tenant beta", async () => {
    const { token } = await tokenFor("http://127.0.0.1/t/acme/mcp");
    const response = await call("beta", "whoami", token);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
    await response.text();
  });

  it("refuses a revoked token within the cache's bound", async () => {
    const { token, clientId } = await tokenFor("http://127.0.0.1/t/acme/mcp");
    const first = await call("acme", "whoami", token);
    expect(first.status).toBe(200);
    await first.text();
    const metadata = await (await fetch(`${worker.baseUrl}/as/.well-known/oauth-authorization-server`)).json<{ revocation_endpoint: string }>();
    const revoked = await fetch(asUrl(metadata.revocation_endpoint), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token, token_type_hint: "access_token", client_id: clientId }),
    });
    expect(revoked.status, await revoked.clone().text()).toBe(200);
    const since = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - since < CACHE_MS + 3_000) {
      const response = await call("acme", "whoami", token);
      status = response.status;
      await response.text();
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(401);
    expect(Date.now() - since).toBeLessThan(CACHE_MS + 1_000);
  });
});
