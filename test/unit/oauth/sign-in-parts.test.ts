// The parts around the library: the consent page's escaping, loopback CIMD documents, the endpoint guard, the authorizer of the MCP Worker.
import { createServer, type Server } from "node:http";
import type { ConsentDescription } from "@cloudflare/workers-oauth-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_ISSUER, type Principal } from "../../../src/core/principal.ts";
import { ProtocolError } from "../../../src/core/errors.ts";
import { consentPage, escapeHtml } from "../../../src/oauth/consent-page.ts";
import { endpointGuard } from "../../../src/oauth/endpoint-guard.ts";
import { LoopbackCimdError, fetchLoopbackClient, isLoopbackClientId } from "../../../src/oauth/loopback-cimd.ts";
import { oauthAuthorizer } from "../../../src/oauth/oauth-authorizer.ts";
import { SignedInRegistry } from "../../../src/oauth/signed-in.ts";
import { userIdOf } from "../../../src/oauth/user-id.ts";

describe("the consent page", () => {
  const description: ConsentDescription = {
    clientId: "c1",
    clientName: `<img src=x onerror="alert(1)">`,
    redirectUri: "http://127.0.0.1:5/cb",
    redirectHost: `evil"><script>`,
    redirectIsLoopback: true,
    scope: ["<b>all</b>"],
  };

  it("escapes every string the client chose: its name, its redirect host, the scopes", () => {
    const html = consentPage({ description, handle: `h"><x`, serverName: "S", upstreamName: "U" });
    expect(html).not.toMatch(/<img|<script|<b>|<x/);
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(html).toContain("evil&quot;&gt;&lt;script&gt;");
    expect(html).toContain('value="h&quot;&gt;&lt;x"');
    expect(html).toContain("a program on this computer");
  });

  it("escapes the five characters HTML gives meaning", () => {
    expect(escapeHtml(`&<>"'`)).toBe("&amp;&lt;&gt;&quot;&#39;");
  });
});

describe("loopback Client ID Metadata Documents", () => {
  let server: Server;
  let origin = "";
  const documents = new Map<string, { body: string; delayMs?: number; status?: number }>();
  beforeAll(async () => {
    server = createServer((request, response) => {
      const document = documents.get(request.url ?? "");
      if (document === undefined) return void response.writeHead(404).end();
      setTimeout(() => response.writeHead(document.status ?? 200, { "content-type": "application/json" }).end(document.body), document.delayMs ?? 0);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    origin = typeof address === "object" && address !== null ? `http://127.0.0.1:${address.port}` : "";
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("knows a loopback client id by its host and a path, and nothing else", () => {
    expect(isLoopbackClientId("http://127.0.0.1:3000/client.json")).toBe(true);
    expect(isLoopbackClientId("http://localhost/c")).toBe(true);
    expect(isLoopbackClientId("http://127.0.0.1:3000/")).toBe(false);
    expect(isLoopbackClientId("http://10.0.0.1/client.json")).toBe(false);
    expect(isLoopbackClientId("https://client.example/client.json")).toBe(false);
    expect(isLoopbackClientId("http://user@127.0.0.1/c")).toBe(false);
    expect(isLoopbackClientId("registered-id")).toBe(false);
  });

  it("turns a good document into the library's client record: public, its redirect URIs and name", async () => {
    const id = `${origin}/good.json`;
    documents.set("/good.json", { body: JSON.stringify({ client_id: id, client_name: "Good", redirect_uris: ["http://127.0.0.1:9/cb"] }) });
    expect(await fetchLoopbackClient(id)).toMatchObject({
      clientId: id,
      clientName: "Good",
      redirectUris: ["http://127.0.0.1:9/cb"],
      tokenEndpointAuthMethod: "none",
    });
  });

  it("refuses a document whose client_id is not its URL, one without redirect URIs, a confidential one, a huge one, one not JSON, a 404", async () => {
    const cases: [string, { body: string; status?: number }, RegExp][] = [
      ["/liar.json", { body: JSON.stringify({ client_id: `${origin}/other.json`, redirect_uris: ["http://127.0.0.1:9/cb"] }) }, /client_id is not its URL/],
      ["/none.json", { body: JSON.stringify({ client_id: `${origin}/none.json`, redirect_uris: [] }) }, /no redirect_uris/],
      [
        "/secret.json",
        {
          body: JSON.stringify({
            client_id: `${origin}/secret.json`,
            redirect_uris: ["http://127.0.0.1:9/cb"],
            token_endpoint_auth_method: "client_secret_basic",
          }),
        },
        /public/,
      ],
      [
        "/huge.json",
        { body: JSON.stringify({ client_id: `${origin}/huge.json`, redirect_uris: ["http://127.0.0.1:9/cb"], pad: "x".repeat(6000) }) },
        /larger than/,
      ],
      ["/text.json", { body: "<html>" }, /not JSON/],
      ["/gone.json", { body: "{}", status: 404 }, /HTTP 404/],
    ];
    for (const [path, document, reason] of cases) {
      documents.set(path, document);
      await expect(fetchLoopbackClient(`${origin}${path}`), path).rejects.toThrow(reason);
    }
    await expect(fetchLoopbackClient(`${origin}/liar.json`)).rejects.toBeInstanceOf(LoopbackCimdError);
  });

  it("gives up on a document that does not arrive within 5 s", async () => {
    documents.set("/slow.json", { body: "{}", delayMs: 6_000 });
    await expect(fetchLoopbackClient(`${origin}/slow.json`)).rejects.toThrow(/did not arrive/);
  }, 10_000);
});

describe("the endpoint guard", () => {
  const post = (address: string, body = "a=1") =>
    new Request("https://as.example/oauth/token", { method: "POST", headers: { "cf-connecting-ip": address }, body });

  it("lets a network make its requests a minute, then answers 429 slow_down with Retry-After; another network is counted apart, an IPv6 /64 as one", async () => {
    const guard = endpointGuard({ perMinute: 3 });
    for (let i = 0; i < 3; i++) expect(await guard(post("2001:db8::1"))).toBeInstanceOf(Request);
    const limited = await guard(post("2001:db8::2"));
    expect(limited).toBeInstanceOf(Response);
    expect((limited as Response).status).toBe(429);
    expect(await (limited as Response).json()).toMatchObject({ error: "slow_down" });
    expect(Number((limited as Response).headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await guard(post("192.0.2.1"))).toBeInstanceOf(Request);
  });

  it("refuses a body over the bound with 413 (declared or not), and passes a body within it on intact", async () => {
    const guard = endpointGuard({ maxBodyBytes: 10 });
    const declared = await guard(post("192.0.2.9", "x".repeat(11)));
    expect((declared as Response).status).toBe(413);
    const streamed = new Request("https://as.example/oauth/register", {
      method: "POST",
      body: new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode("y".repeat(20))), c.close()) }),
      duplex: "half",
    } as RequestInit);
    expect(((await guard(streamed)) as Response).status).toBe(413);
    const passed = await guard(post("192.0.2.9", "a=1&b=2"));
    expect(await (passed as Request).text()).toBe("a=1&b=2");
  });
});

describe("the MCP Worker's authorizer behind the authorization server", () => {
  const principal: Principal = { issuer: "https://mcp.example", subject: "u1", scopes: ["read"], via: "oauth", clientId: "c1" };

  it("admits the principal bound to the request object, and refuses the same request rebuilt (a header cannot carry it)", async () => {
    const registry = new SignedInRegistry();
    const authorizer = oauthAuthorizer(registry, "/mcp", {});
    const request = new Request("https://mcp.example/mcp", { method: "POST" });
    registry.bind(request, principal, { upstreamIssuer: "i", upstreamSubject: "s", claims: {}, upstream: { accessToken: "t" } });
    expect(await authorizer.authenticate(request)).toBe(principal);
    const copy = new Request(request, { headers: { "x-principal": JSON.stringify({ ...principal, issuer: API_KEY_ISSUER }) } });
    const refused = await authorizer.authenticate(copy).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProtocolError);
    expect((refused as ProtocolError).status).toBe(401);
    expect((refused as ProtocolError).headers?.["WWW-Authenticate"]).toContain(
      'resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp"',
    );
  });

  it("refuses a tool whose scope the token lacks with 403 insufficient_scope naming it", () => {
    const authorizer = oauthAuthorizer(new SignedInRegistry(), "/mcp", { admin_tool: ["admin"] });
    const request = new Request("https://mcp.example/mcp", { method: "POST" });
    expect(() => authorizer.authorizeTool(principal, "other_tool", request)).not.toThrow();
    let error: unknown;
    try {
      authorizer.authorizeTool(principal, "admin_tool", request);
    } catch (e) {
      error = e;
    }
    expect((error as ProtocolError).status).toBe(403);
    expect((error as ProtocolError).headers?.["WWW-Authenticate"]).toMatch(/error="insufficient_scope".*scope="admin"/);
  });

  it("derives a user id that hides the upstream subject and cannot be split (no colon)", async () => {
    const id = await userIdOf("https://login.example", "ada@example.test");
    expect(id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(id).not.toBe(await userIdOf("https://other.example", "ada@example.test"));
  });
});
