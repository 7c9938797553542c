// Grants from claims and public tools (tenant "roles"): one decision in admission, honoured by lists,
// tool search, direct calls, sessions and tasks; bad claims get a clear 401, never a 500.
import { SignJWT, importJWK, type JWK } from "jose";
import { describe, expect, it } from "vitest";
import privateJwk from "../../examples/multi-tenant/dev-keys/private.jwk.json";
import { ISSUER_ONE, WITH_TASKS, inSession, initialize, modern, resultOf, send, clearOfMinuteEnd } from "./fixture.ts";

/** A bearer for the roles tenant carrying the given claims. */
async function token(claims: Record<string, unknown>, sub = "grant-user"): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = await new SignJWT({ iss: ISSUER_ONE, aud: "http://127.0.0.1/t/roles/mcp", sub, exp: now + 600, ...claims })
    .setProtectedHeader({ alg: "ES256", kid: "edge-mcp-dev-es256-1" })
    .sign(await importJWK(privateJwk as JWK, "ES256"));
  return `Bearer ${jwt}`;
}

const LINES = { lines: [1, 2, 3] };
const call = (name: string, args: Record<string, unknown>, authorization?: string, headers: Record<string, string> = {}) =>
  send("roles", {
    body: { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: args, _meta: META } },
    headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name, ...headers, ...(authorization ? { authorization } : {}) },
  });
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

async function listNames(authorization?: string): Promise<{ names: string[]; tools: Record<string, unknown>[] }> {
  const reply = await resultOf(await modern("roles", "tools/list", {}, authorization));
  const tools = (reply.result?.["tools"] ?? []) as Record<string, unknown>[];
  return { names: tools.map((tool) => tool["name"] as string), tools };
}

describe("grants from claims", () => {
  it("lets roles: [billing] without scopes call invoice_total, and refuses roles: [viewer] with a 403 naming the scope", async () => {
    const ok = await resultOf(await call("invoice_total", LINES, await token({ roles: ["billing"] })));
    expect(ok.result?.content[0]?.text).toBe("Total: 6");
    const refused = await call("invoice_total", LINES, await token({ roles: ["viewer"] }));
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer error="insufficient_scope", scope="invoices:read"/);
    await refused.text();
  });

  it("reads space-separated strings, namespaced claims and dotted paths; grants scopes as well as tools", async () => {
    const viaScope = await resultOf(await call("invoice_total", LINES, await token({ permissions: "write:x read:invoices" })));
    expect(viaScope.result?.content[0]?.text).toBe("Total: 6");
    const writer = await token({ "https://example.com/groups": ["notes-writers"] });
    expect((await resultOf(await call("note_save", { text: "hi" }, writer))).result?.isError).toBeUndefined();
    const reporter = await token({ realm_access: { roles: ["reporter"] } });
    expect((await resultOf(await call("report", { steps: 1, ms: 1 }, reporter))).result?.content[0]?.text).toMatch(/^report of 1 steps/);
  });

  it("splits a claim string on U+0020 only: a role joined to another by NBSP, a tab or U+2028 grants nothing", async () => {
    for (const roles of ["team\u00a0billing", "team\tbilling", "team\u2028billing", "billing\u3000"]) {
      const refused = await call("invoice_total", LINES, await token({ roles }, "nbsp-user"));
      expect(refused.status).toBe(403);
      await refused.text();
    }
    const spaced = await resultOf(await call("invoice_total", LINES, await token({ roles: "team  billing" }, "nbsp-user")));
    expect(spaced.result?.content[0]?.text).toBe("Total: 6");
  });

  it("refuses a grant-only tool with a 403 that names no scope (no scope would help)", async () => {
    const refused = await call("note_save", { text: "hi" }, await token({ roles: ["billing"] }));
    expect(refused.status).toBe(403);
    const challenge = refused.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(/^Bearer error="insufficient_scope", resource_metadata=/);
    expect(challenge).not.toMatch(/scope="/);
    await refused.text();
  });

  it("lists exactly the granted tools, each with its securitySchemes", async () => {
    const billing = await listNames(await token({ roles: ["billing"] }));
    expect(billing.names).toContain("invoice_total");
    expect(billing.names).not.toContain("note_save");
    const viewer = await listNames(await token({ roles: ["viewer"] }));
    expect(viewer.names).not.toContain("invoice_total");
    expect(viewer.names).toContain("wait");
    const invoice = billing.tools.find((tool) => tool["name"] === "invoice_total") as Record<string, unknown>;
    expect(invoice["securitySchemes"]).toEqual([{ type: "oauth2", scopes: ["invoices:read"] }]);
    expect((invoice["_meta"] as Record<string, unknown>)["securitySchemes"]).toEqual([{ type: "oauth2", scopes: ["invoices:read"] }]);
  });

  it("honours grants through tool search: call_tool refuses the viewer as a direct call does, and runs for billing", async () => {
    const through = (authorization: string) => call("call_tool", { name: "invoice_total", arguments: LINES }, authorization);
    const refused = await through(await token({ roles: ["viewer"] }));
    expect(refused.status).toBe(403);
    await refused.text();
    expect((await resultOf(await through(await token({ roles: ["billing"] })))).result?.content[0]?.text).toBe("Total: 6");
    const found = await resultOf(await call("search_tools", { query: "invoice" }, await token({ roles: ["viewer"] })));
    const matched = (found.result?.["structuredContent"] as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(matched).toEqual(["invoice_total_zod"]);
  });

  it("honours grants in a 2025 session", async () => {
    const viewer = await token({ roles: ["viewer"] }, "session-viewer");
    const { sessionId } = await initialize("roles", viewer);
    const refused = await inSession("roles", sessionId as string, "tools/call", { name: "invoice_total", arguments: LINES }, viewer);
    expect(refused.status).toBe(403);
    await refused.text();
    const billing = await token({ roles: ["billing"] }, "session-billing");
    const opened = await initialize("roles", billing);
    const ok = await resultOf(await inSession("roles", opened.sessionId as string, "tools/call", { name: "invoice_total", arguments: LINES }, billing));
    expect(ok.result?.content[0]?.text).toBe("Total: 6");
  });

  it("honours grants for tasks: a task of a granted tool runs, an outsider is refused before any task exists", async () => {
    const outsider = await modern("roles", "tools/call", { name: "report", arguments: { steps: 1 } }, await token({ roles: ["viewer"] }), WITH_TASKS);
    expect(outsider.status).toBe(403);
    await outsider.text();
    const created = await resultOf(
      await modern("roles", "tools/call", { name: "report", arguments: { steps: 1 } }, await token({ realm_access: { roles: ["reporter"] } }), WITH_TASKS),
    );
    expect(created.result).toMatchObject({ resultType: "task" });
  });

  it("answers a claim of the wrong type or a huge claim with 401 invalid_token, never 500", async () => {
    for (const roles of [5, { billing: true }, [1, 2], Array.from({ length: 300 }, (_, i) => `r${i}`), "x".repeat(9000)]) {
      const response = await call("invoice_total", LINES, await token({ roles }));
      expect(response.status, JSON.stringify(roles).slice(0, 40)).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/error="invalid_token", error_description="[^"]*roles claim/);
      await response.text();
    }
  });
});

describe("public tools on a protected tenant", () => {
  it("lists and runs a public tool without a token, while everything else gets 401 with the challenge", async () => {
    // Protected tools are listed too, each saying what it needs (anonymousList "all", the default).
    const { names, tools } = await listNames();
    expect(names).toEqual(expect.arrayContaining(["whoami", "invoice_total", "note_save"]));
    expect(tools.find((tool) => tool["name"] === "whoami")?.["securitySchemes"]).toEqual([{ type: "noauth" }]);
    expect(tools.find((tool) => tool["name"] === "invoice_total")?.["securitySchemes"]).toEqual([{ type: "oauth2", scopes: ["invoices:read"] }]);
    const who = await resultOf(await call("whoami", {}));
    expect(JSON.parse(who.result?.content[0]?.text as string)).toMatchObject({ tenant: "roles", subject: null });
    for (const [name, args] of [
      ["invoice_total", LINES],
      ["call_tool", { name: "whoami" }],
      ["nonexistent", {}],
    ] as const) {
      const refused = await call(name, args);
      expect(refused.status, name).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(
        /^Bearer resource_metadata="http:\/\/127\.0\.0\.1\/\.well-known\/oauth-protected-resource\/t\/roles\/mcp"/,
      );
      await refused.text();
    }
    const resources = await modern("roles", "resources/list", {});
    expect(resources.status).toBe(401);
    await resources.text();
  });

  it("admits an anonymous 2025 session to public tools only", async () => {
    const { status, sessionId } = await initialize("roles");
    expect(status).toBe(200);
    const ok = await resultOf(await inSession("roles", sessionId as string, "tools/call", { name: "whoami", arguments: {} }));
    expect(ok.result?.isError).toBeUndefined();
    const refused = await inSession("roles", sessionId as string, "tools/call", { name: "invoice_total", arguments: LINES });
    expect(refused.status).toBe(401);
    await refused.text(); // A GET without a session is how clients probe for auth: it still gets the challenge.
    const probe = await send("roles", { method: "GET", headers: { accept: "text/event-stream" } });
    expect(probe.status).toBe(401);
    expect(probe.headers.get("www-authenticate")).toMatch(/^Bearer resource_metadata=/);
    await probe.text();
  });

  it("rate-limits anonymous callers per client address", { timeout: 30_000 }, async () => {
    await clearOfMinuteEnd();
    const from = (address: string) => call("whoami", {}, undefined, { "cf-connecting-ip": address });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await from("198.51.100.24");
      statuses.push(response.status);
      await response.text();
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[5]).toBe(429);
    const other = await from("198.51.100.25");
    expect(other.status).toBe(200);
    await other.text();
  });

  it("still refuses a bad token on a public tool (a token that is sent must be valid)", async () => {
    const response = await call("whoami", {}, "Bearer not.a.jwt");
    expect(response.status).toBe(401);
    await response.text();
  });
});
