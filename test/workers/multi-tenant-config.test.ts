// The multi-tenant Worker inside workerd: tenants from a KV namespace, a tenant with an invalid config answered with its own 503.
import { describe, expect, it, vi } from "vitest";
import { defineTool } from "../../src/server/tools/tool.ts";
import { createMultiTenantWorker, type MultiTenantEnv } from "../../src/workers/create-multi-tenant-worker.ts";

const hello = defineTool({ name: "hello", description: "Says hello.", inputSchema: { type: "object" }, handler: (_args, ctx) => `hi from ${ctx.tenant}` });
const worker = createMultiTenantWorker({ modules: { greetings: { tools: [hello] } }, configTtlMs: 0 });
const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;

function kv(document: unknown): KVNamespace {
  return { get: async (key: string) => (key === "tenants" ? JSON.stringify(document) : null) } as unknown as KVNamespace;
}

function call(env: MultiTenantEnv, path: string) {
  return worker.fetch(
    new Request(`http://127.0.0.1${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "hello" } }),
    }),
    env,
    ctx,
  );
}

describe("tenants from KV", () => {
  it("reads the tenants document from MCP_TENANTS_KV and serves each tenant", async () => {
    const env: MultiTenantEnv = { MCP_TENANTS_KV: kv({ tenants: [{ id: "kv-tenant", pathPrefix: "/t/kv", modules: [{ name: "greetings" }] }] }) };
    const response = await call(env, "/t/kv/mcp");
    expect(await response.json()).toMatchObject({ result: { content: [{ text: "hi from kv-tenant" }] } });
    expect((await call(env, "/t/other/mcp")).status).toBe(404);
  });

  it("answers 503 naming the field when a tenant's configuration is invalid, and logs which tenant and field", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const env: MultiTenantEnv = {
      MCP_TENANTS_KV: kv({ tenants: [{ id: "broken", pathPrefix: "/t/b", modules: [{ name: "greetings", service: "not a binding" }] }] }),
    };
    const response = await call(env, "/t/b/mcp");
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: { code: -32603, message: expect.stringMatching(/modules\[0\]\.service must be a binding name/) } });
    expect(errors.mock.calls.flat().join(" ")).toMatch(/tenant broken: modules\[0\]\.service must be a binding name/);
    errors.mockRestore();
  });

  it("refuses an invalid auth block at load, naming the tenant", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const env: MultiTenantEnv = {
      MCP_TENANTS: JSON.stringify({ tenants: [{ id: "locked", pathPrefix: "/t/l", modules: [{ name: "greetings" }], auth: { resource: "not a url" } }] }),
    };
    expect((await call(env, "/t/l/mcp")).status).toBe(503);
    expect(errors.mock.calls.flat().join(" ")).toMatch(/locked/);
    errors.mockRestore();
  });
});
