// Changes through the tenants admin API reach every isolate within recheckMs: each tenant's record is held in its
// quota object (strongly consistent), while KV, as seen from another isolate, may still hold the old config.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { defineTool } from "../../src/server/tools/tool.ts";
import { createMultiTenantWorker, type MultiTenantEnv } from "../../src/workers/create-multi-tenant-worker.ts";
import { keyedTenants } from "../../src/workers/keyed-tenant-store.ts";
import type { McpQuotaObject } from "../../src/workers/state/quota-object.ts";
import { tenantEntries } from "../../src/tenancy/tenant-keys.ts";

const quotas = (env as unknown as { MCP_QUOTAS: DurableObjectNamespace<McpQuotaObject> }).MCP_QUOTAS;
const hello = defineTool({ name: "hello", description: "Says hello.", inputSchema: { type: "object" }, handler: (_args, ctx) => `hi from ${ctx.tenant}` });
const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
const TOKEN = "admin-token-for-propagation";
const RECHECK_MS = 200;

/** A namespace in memory; `frozen` answers reads from a snapshot taken now (KV as another location sees it, not yet propagated). */
function memoryKv(entries = new Map<string, string>()) {
  const kv = {
    get: async (key: string) => entries.get(key) ?? null,
    put: async (key: string, value: string) => void entries.set(key, value),
    delete: async (key: string) => void entries.delete(key),
    list: async () => ({ keys: [], list_complete: true }),
  } as unknown as KVNamespace;
  return { kv, entries, frozen: () => memoryKv(new Map(entries)).kv };
}

const newWorker = () =>
  createMultiTenantWorker({ modules: { greetings: { tools: [hello] } }, tenantStore: keyedTenants({ recheckMs: RECHECK_MS, ttlMs: 600_000 }) });

function call(worker: ReturnType<typeof newWorker>, kvEnv: MultiTenantEnv, host: string) {
  return worker.fetch(
    new Request(`http://${host}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "hello" } }),
    }),
    kvEnv,
    ctx,
  );
}
const admin = (worker: ReturnType<typeof newWorker>, kvEnv: MultiTenantEnv, path: string, method: string, body?: unknown) =>
  worker.fetch(
    new Request(`http://127.0.0.1${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
    kvEnv,
    ctx,
  );
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("changes through the admin API", () => {
  it("reach another isolate within recheckMs though its KV still holds the old config: an edit, then a disable", async () => {
    const id = `prop-${crypto.randomUUID().slice(0, 8)}`;
    const host = `${id}.test`;
    const config = { id, hosts: [host], modules: [{ name: "greetings" }] };
    const store = memoryKv();
    for (const { key, value } of tenantEntries(config, JSON.stringify(config))) store.entries.set(key, value);
    const writer = newWorker();
    const reader = newWorker();
    const writerEnv = { MCP_TENANTS_KV: store.kv, MCP_QUOTAS: quotas, MCP_ADMIN_TOKEN: TOKEN } as MultiTenantEnv;
    const readerEnv = { MCP_TENANTS_KV: store.frozen(), MCP_QUOTAS: quotas } as MultiTenantEnv;
    expect((await call(reader, readerEnv, host)).status).toBe(200);

    const edited = await admin(writer, writerEnv, `/admin/tenants/${id}`, "PUT", { ...config, modules: [{ name: "greetings", prefix: "g" }] });
    expect(edited.status).toBe(200);
    await sleep(RECHECK_MS + 50);
    // The reader's KV still has the old config; its quota object's record has the new one (hello is now g_hello).
    expect(await (await call(reader, readerEnv, host)).json()).toMatchObject({ error: { message: expect.stringMatching(/hello/) } });

    expect((await admin(writer, writerEnv, `/admin/tenants/${id}/disable`, "POST")).status).toBe(200);
    await sleep(RECHECK_MS + 50);
    expect((await call(reader, readerEnv, host)).status).toBe(404);
  });

  it("reach a tenant not yet held on another isolate at once: its first read takes the record over KV", async () => {
    const id = `prop-${crypto.randomUUID().slice(0, 8)}`;
    const host = `${id}.test`;
    const config = { id, hosts: [host], modules: [{ name: "greetings" }] };
    const store = memoryKv();
    for (const { key, value } of tenantEntries(config, JSON.stringify(config))) store.entries.set(key, value);
    const stale = store.frozen();
    const writer = newWorker();
    const writerEnv = { MCP_TENANTS_KV: store.kv, MCP_QUOTAS: quotas, MCP_ADMIN_TOKEN: TOKEN } as MultiTenantEnv;
    expect((await admin(writer, writerEnv, `/admin/tenants/${id}/disable`, "POST")).status).toBe(200);
    expect((await call(newWorker(), { MCP_TENANTS_KV: stale, MCP_QUOTAS: quotas }, host)).status).toBe(404);
  });
});
