// Tenants fail alone: one tenant's invalid config answers its own 503 naming the field; every other tenant keeps serving.
import { afterEach, describe, expect, it, vi } from "vitest";
import { defineTool } from "../../src/server/tools/tool.ts";
import { createMultiTenantWorker, type MultiTenantEnv } from "../../src/workers/create-multi-tenant-worker.ts";

const hello = defineTool({ name: "hello", description: "Says hello.", inputSchema: { type: "object" }, handler: (_args, ctx) => `hi from ${ctx.tenant}` });
const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
const GOOD = { id: "good", pathPrefix: "/t/good", hosts: ["good.example.com"], modules: [{ name: "greetings" }] };

function worker() {
  return createMultiTenantWorker({ modules: { greetings: { tools: [hello] } }, configTtlMs: 0 });
}

function call(mcp: ReturnType<typeof worker>, env: MultiTenantEnv, path: string, host = "127.0.0.1") {
  return mcp.fetch(
    new Request(`http://${host}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "hello" } }),
    }),
    env,
    ctx,
  );
}

async function errorOf(response: Response): Promise<{ code: number; message: string }> {
  return (await response.json<{ error: { code: number; message: string } }>()).error;
}

let errors: { mock: { calls: unknown[][] } };
afterEach(() => {
  vi.restoreAllMocks();
});

function logged(): string {
  return errors.mock.calls.flat().map(String).join("\n");
}

describe("a tenant whose config is invalid", () => {
  it("answers 503 naming the field and the known one it meant, while the other tenant serves", async () => {
    errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const env: MultiTenantEnv = {
      MCP_TENANTS: JSON.stringify({ tenants: [GOOD, { id: "typo", pathPrefix: "/t/typo", modules: [{ name: "greetings" }], limit: { maxBodyBytes: 10 } }] }),
    };
    const mcp = worker();
    const good = await call(mcp, env, "/t/good/mcp");
    expect(good.status).toBe(200);
    expect(await good.json()).toMatchObject({ result: { content: [{ text: "hi from good" }] } });
    expect((await call(mcp, env, "/mcp", "good.example.com")).status).toBe(200);

    const typo = await call(mcp, env, "/t/typo/mcp");
    expect(typo.status).toBe(503);
    expect(await errorOf(typo)).toEqual({
      code: -32603,
      message: "Tenant unavailable: its configuration is invalid: tenant typo: limit is not a known field; did you mean limits?",
    });
    expect(logged()).toMatch(/tenant typo is not served, its configuration is invalid: tenant typo: limit is not a known field; did you mean limits\?/);
    // A path no tenant claims is still 404.
    expect((await call(mcp, env, "/t/none/mcp")).status).toBe(404);
  });

  it.each([
    [
      "an unknown bundled module",
      { id: "bad", pathPrefix: "/t/bad", modules: [{ name: "greetingz" }] },
      /modules names greetingz, which this Worker does not bundle/,
    ],
    ["an invalid auth block", { id: "bad", pathPrefix: "/t/bad", modules: [{ name: "greetings" }], auth: { resource: "not a url" } }, /tenant "?bad"?/],
    [
      "a bad value",
      { id: "bad", pathPrefix: "/t/bad", modules: [{ name: "greetings" }], limits: { maxBodyBytes: -1 } },
      /limits\.maxBodyBytes must be a positive integer/,
    ],
    ["no id", { pathPrefix: "/t/bad", modules: [{ name: "greetings" }] }, /tenant #1: id must be/],
  ])("isolates %s", async (_what, tenant, problem) => {
    errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const env: MultiTenantEnv = { MCP_TENANTS: JSON.stringify({ tenants: [GOOD, tenant] }) };
    const mcp = worker();
    expect((await call(mcp, env, "/t/good/mcp")).status).toBe(200);
    const bad = await call(mcp, env, "/t/bad/mcp");
    expect(bad.status).toBe(503);
    expect((await errorOf(bad)).message).toMatch(problem);
  });

  it("sets aside the second tenant claiming a path, and keeps the first one serving there", async () => {
    errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const env: MultiTenantEnv = { MCP_TENANTS: JSON.stringify({ tenants: [GOOD, { ...GOOD, id: "copy", hosts: ["copy.example.com"] }] }) };
    const mcp = worker();
    expect(await (await call(mcp, env, "/t/good/mcp")).json()).toMatchObject({ result: { content: [{ text: "hi from good" }] } });
    const copy = await call(mcp, env, "/mcp", "copy.example.com");
    expect(copy.status).toBe(503);
    expect((await errorOf(copy)).message).toContain("tenant copy: path /t/good is already used by tenant good");
  });

  it("points a JSON syntax error at its line and column in the MCP_TENANTS JSON, with the line", async () => {
    errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const text = ["{", '  "tenants": [', '    { "id": "good", "pathPrefix": "/t/good" "modules": [] }', "  ]", "}"].join("\n");
    const response = await call(worker(), { MCP_TENANTS: text }, "/t/good/mcp");
    expect(response.status).toBe(500);
    expect(logged()).toMatch(/MCP_TENANTS is not valid JSON: in the MCP_TENANTS JSON, line 3 column 45: /);
    expect(logged()).toContain('    { "id": "good", "pathPrefix": "/t/good" "modules": [] }\n' + " ".repeat(44) + "^");
  });

  it("keeps serving a tenant's last good config when a refresh makes it invalid, and serves its fix", async () => {
    errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const env: MultiTenantEnv = { MCP_TENANTS: JSON.stringify({ tenants: [GOOD] }) };
    const mcp = worker();
    expect((await call(mcp, env, "/t/good/mcp")).status).toBe(200);

    env.MCP_TENANTS = JSON.stringify({ tenants: [{ ...GOOD, limit: { maxBodyBytes: 10 } }] });
    const kept = await call(mcp, env, "/t/good/mcp");
    expect(kept.status).toBe(200);
    expect(await kept.json()).toMatchObject({ result: { content: [{ text: "hi from good" }] } });
    expect(logged()).toMatch(
      /tenant good: its new configuration is invalid, so it keeps serving its last good one: tenant good: limit is not a known field; did you mean limits\?/,
    );

    // Its hosts keep working too, and a fixed config (here with a new host) is served as soon as it is read.
    expect((await call(mcp, env, "/mcp", "good.example.com")).status).toBe(200);
    env.MCP_TENANTS = JSON.stringify({ tenants: [{ ...GOOD, hosts: ["fixed.example.com"] }] });
    expect((await call(mcp, env, "/mcp", "fixed.example.com")).status).toBe(200);
    expect((await call(mcp, env, "/mcp", "good.example.com")).status).toBe(404);
  });
});
