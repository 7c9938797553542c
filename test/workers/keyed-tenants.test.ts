// The multi-tenant Worker with keyedTenants(): tenants one KV key each, read only when served, held in a bounded cache.
import { describe, expect, it, vi } from "vitest";
import { defineTool } from "../../src/server/tools/tool.ts";
import { createMultiTenantWorker, type MultiTenantEnv } from "../../src/workers/create-multi-tenant-worker.ts";
import { keyedTenants, type KeyedTenantSettings } from "../../src/workers/keyed-tenant-store.ts";
import { tenantEntries } from "../../src/tenancy/tenant-keys.ts";

const hello = defineTool({ name: "hello", description: "Says hello.", inputSchema: { type: "object" }, handler: (_args, ctx) => `hi from ${ctx.tenant}` });
const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;

/** A KV namespace in memory that counts reads and can be made to fail. */
function memoryKv(tenants: { id: string; hosts?: string[]; pathPrefix?: string; [key: string]: unknown }[]) {
  const entries = new Map<string, string>();
  const reads: string[] = [];
  let down = false;
  const put = (tenant: { id: string; hosts?: string[]; pathPrefix?: string; modules?: unknown }) => {
    for (const { key, value } of tenantEntries(tenant, JSON.stringify(tenant))) entries.set(key, value);
  };
  for (const tenant of tenants) put({ modules: [{ name: "greetings" }], ...tenant });
  const kv = {
    get: async (key: string) => {
      reads.push(key);
      if (down) throw new Error("KV GET failed: 503 Service Unavailable");
      return entries.get(key) ?? null;
    },
    put: async (key: string, value: string) => void entries.set(key, value),
    delete: async (key: string) => void entries.delete(key),
    list: async ({ prefix }: { prefix: string }) => ({
      keys: [...entries.keys()].filter((k) => k.startsWith(prefix)).map((name) => ({ name })),
      list_complete: true,
    }),
  } as unknown as KVNamespace;
  return { kv, reads, entries, put, fail: (value: boolean) => (down = value) };
}

function workerWith(settings: KeyedTenantSettings = {}) {
  return createMultiTenantWorker({ modules: { greetings: { tools: [hello] } }, tenantStore: keyedTenants(settings) });
}

function call(worker: ReturnType<typeof workerWith>, env: MultiTenantEnv, url: string) {
  return worker.fetch(
    new Request(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "hello" } }),
    }),
    env,
    ctx,
  );
}

const text = async (response: Response) => {
  const body: { result?: { content: { text: string }[] } } = await response.json();
  return body.result?.content[0]?.text;
};

describe("tenants one KV key each", () => {
  it("serves tenants by host and by path prefix, reading only the keys of the tenant asked for", async () => {
    const store = memoryKv([
      { id: "acme", hosts: ["mcp.acme.test"] },
      { id: "globex", pathPrefix: "/t/globex" },
      { id: "initech", pathPrefix: "/t/initech" },
    ]);
    const worker = workerWith();
    const env = { MCP_TENANTS_KV: store.kv };
    expect(await text(await call(worker, env, "http://mcp.acme.test/mcp"))).toBe("hi from acme");
    expect(store.reads).toEqual(["host:mcp.acme.test", "tenant:acme"]);
    store.reads.length = 0;
    expect(await text(await call(worker, env, "http://127.0.0.1/t/globex/mcp"))).toBe("hi from globex");
    expect(store.reads).toEqual(["host:127.0.0.1", "path:/t/globex/mcp", "path:/t/globex", "tenant:globex"]);
    store.reads.length = 0;
    // Held: the next requests read nothing.
    expect(await text(await call(worker, env, "http://127.0.0.1/t/globex/mcp"))).toBe("hi from globex");
    expect(await text(await call(worker, env, "http://mcp.acme.test/mcp"))).toBe("hi from acme");
    expect(store.reads).toEqual([]);
    expect(store.reads.filter((k) => k === "tenant:initech")).toEqual([]);
  });

  it("answers an unknown host with 404 and remembers the miss, so a flood of it costs no reads", async () => {
    const store = memoryKv([{ id: "acme", hosts: ["mcp.acme.test"] }]);
    const worker = workerWith();
    const env = { MCP_TENANTS_KV: store.kv };
    expect((await call(worker, env, "http://nobody.test/mcp")).status).toBe(404);
    const first = store.reads.length;
    for (let i = 0; i < 20; i++) expect((await call(worker, env, "http://nobody.test/mcp")).status).toBe(404);
    expect(store.reads.length).toBe(first);
  });

  it("shares one read among concurrent requests for a tenant not yet held", async () => {
    const store = memoryKv([{ id: "acme", hosts: ["mcp.acme.test"] }]);
    const worker = workerWith();
    const env = { MCP_TENANTS_KV: store.kv };
    const answers = await Promise.all(Array.from({ length: 10 }, () => Promise.resolve(call(worker, env, "http://mcp.acme.test/mcp")).then(text)));
    expect(answers).toEqual(Array(10).fill("hi from acme"));
    expect(store.reads).toEqual(["host:mcp.acme.test", "tenant:acme"]);
  });

  it("holds at most maxTenants: the least recently used is read again when asked for", async () => {
    const store = memoryKv(["a", "b", "c"].map((id) => ({ id, hosts: [`${id}.test`] })));
    const worker = workerWith({ maxTenants: 2 });
    const env = { MCP_TENANTS_KV: store.kv };
    for (const id of ["a", "b", "c"]) expect(await text(await call(worker, env, `http://${id}.test/mcp`))).toBe(`hi from ${id}`);
    store.reads.length = 0;
    expect(await text(await call(worker, env, "http://c.test/mcp"))).toBe("hi from c");
    expect(store.reads).toEqual([]);
    expect(await text(await call(worker, env, "http://a.test/mcp"))).toBe("hi from a");
    expect(store.reads).toEqual(["tenant:a"]);
  });

  it("takes an edit after ttlMs and keeps a tenant's last good config when its new one is invalid", async () => {
    const store = memoryKv([{ id: "acme", hosts: ["mcp.acme.test"], server: { name: "one" } }]);
    const worker = workerWith({ ttlMs: 0 });
    const env = { MCP_TENANTS_KV: store.kv };
    expect(await text(await call(worker, env, "http://mcp.acme.test/mcp"))).toBe("hi from acme");
    store.put({ id: "acme", hosts: ["mcp.acme.test"], modules: [{ name: "greetings", prefix: "g" }] });
    const unknownTool = await call(worker, env, "http://mcp.acme.test/mcp");
    expect(await unknownTool.json()).toMatchObject({ error: { message: expect.stringMatching(/hello/) } });
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    store.entries.set("tenant:acme", JSON.stringify({ id: "acme", hosts: ["mcp.acme.test"], modules: [{ name: "greetings" }], limitz: {} }));
    // Still the edited config (tool g_hello), not the invalid one.
    expect(await (await call(worker, env, "http://mcp.acme.test/mcp")).json()).toMatchObject({ error: { message: expect.stringMatching(/hello/) } });
    expect(errors.mock.calls.flat().join(" ")).toMatch(/tenant acme.*limitz/);
    errors.mockRestore();
  });

  it("answers 503 naming the problem for a tenant whose config is invalid or whose key names another tenant, and serves the others", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const store = memoryKv([{ id: "good", hosts: ["good.test"] }]);
    store.entries.set("host:bad.test", "bad");
    store.entries.set("tenant:bad", JSON.stringify({ id: "bad", hosts: ["bad.test"], modules: [{ name: "greetings", service: "not a binding" }] }));
    store.entries.set("host:liar.test", "liar");
    store.entries.set("tenant:liar", JSON.stringify({ id: "good", hosts: ["liar.test"], modules: [{ name: "greetings" }] }));
    store.entries.set("host:junk.test", "junk");
    store.entries.set("tenant:junk", "{not json");
    const worker = workerWith();
    const env = { MCP_TENANTS_KV: store.kv };
    const bad = await call(worker, env, "http://bad.test/mcp");
    expect(bad.status).toBe(503);
    expect(await bad.json()).toMatchObject({ error: { message: expect.stringMatching(/modules\[0\]\.service must be a binding name/) } });
    const liar = await call(worker, env, "http://liar.test/mcp");
    expect(liar.status).toBe(503);
    expect(await liar.text()).toMatch(/tenant:liar holds the config of tenant good/);
    const junk = await call(worker, env, "http://junk.test/mcp");
    expect(junk.status).toBe(503);
    expect(await junk.text()).toMatch(/tenant:junk is not valid JSON/);
    expect(await text(await call(worker, env, "http://good.test/mcp"))).toBe("hi from good");
    errors.mockRestore();
  });

  it("keeps serving tenants it holds when KV fails, and answers a tenant it never read with 503 naming the cause", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const store = memoryKv([
      { id: "acme", hosts: ["mcp.acme.test"] },
      { id: "globex", hosts: ["globex.test"] },
    ]);
    const worker = workerWith({ ttlMs: 0 });
    const env = { MCP_TENANTS_KV: store.kv };
    expect(await text(await call(worker, env, "http://mcp.acme.test/mcp"))).toBe("hi from acme");
    store.fail(true);
    expect(await text(await call(worker, env, "http://mcp.acme.test/mcp"))).toBe("hi from acme");
    const unread = await call(worker, env, "http://globex.test/mcp");
    expect(unread.status).toBe(503);
    const body = await unread.text();
    expect(body).toMatch(/tenant store cannot be read/);
    expect(body).not.toMatch(/KV GET failed/);
    expect(errors.mock.calls.flat().join(" ")).toMatch(/MCP_TENANTS_KV could not be read \(host:globex.test\): KV GET failed/);
    store.fail(false);
    expect(await text(await call(worker, env, "http://globex.test/mcp"))).toBe("hi from globex");
    errors.mockRestore();
  });

  it("names the binding to add when MCP_TENANTS_KV is missing, and refuses a tenantStore not made by keyedTenants()", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await call(workerWith(), {}, "http://mcp.acme.test/mcp");
    expect(response.status).toBe(500);
    expect(errors.mock.calls.flat().join(" ")).toMatch(/keyedTenants\(\) reads MCP_TENANTS_KV/);
    errors.mockRestore();
    expect(() => createMultiTenantWorker({ modules: {}, tenantStore: {} as never })).toThrow(/tenantStore must be keyedTenants\(\) from edge-mcp\/workers/);
  });

  it("lists the host's own tenant in the AI Catalog", async () => {
    const store = memoryKv([{ id: "acme", hosts: ["mcp.acme.test"], serverCard: {} }]);
    const worker = workerWith();
    const response = await worker.fetch(new Request("http://mcp.acme.test/.well-known/ai-catalog.json"), { MCP_TENANTS_KV: store.kv }, ctx);
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toMatch(/urn:air:mcp.acme.test:mcp:acme/);
  });
});

describe("the tenants admin API", () => {
  const TOKEN = "s3cret-admin-token";
  const admin = (
    worker: ReturnType<typeof workerWith>,
    env: MultiTenantEnv,
    path: string,
    init: { method?: string; body?: string } = {},
    token: string | null = TOKEN,
  ) =>
    worker.fetch(
      new Request(`http://127.0.0.1${path}`, {
        ...init,
        headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), "content-type": "application/json" },
      }),
      env,
      ctx,
    );
  const put = (worker: ReturnType<typeof workerWith>, env: MultiTenantEnv, id: string, config: unknown) =>
    admin(worker, env, `/admin/tenants/${id}`, { method: "PUT", body: JSON.stringify(config) });

  it("is off without MCP_ADMIN_TOKEN, and refuses a missing, wrong or query token with a bare 401", async () => {
    const store = memoryKv([{ id: "acme", hosts: ["mcp.acme.test"] }]);
    const worker = workerWith();
    expect((await admin(worker, { MCP_TENANTS_KV: store.kv }, "/admin/tenants")).status).toBe(404);
    const env = { MCP_TENANTS_KV: store.kv, MCP_ADMIN_TOKEN: TOKEN };
    for (const response of [
      await admin(worker, env, "/admin/tenants", {}, null),
      await admin(worker, env, "/admin/tenants", {}, "wrong"),
      await admin(worker, env, `/admin/tenants?token=${TOKEN}`, {}, null),
      await admin(worker, env, `/admin/tenants?token=${TOKEN}`),
    ]) {
      expect(response.status).toBe(401);
      expect(await response.text()).toBe("");
    }
    expect(await (await admin(worker, env, "/admin/tenants")).json()).toEqual({ tenants: ["acme"] });
  });

  it("stores a checked config whose routes follow it, in force at once on this isolate", async () => {
    const store = memoryKv([{ id: "acme", hosts: ["mcp.acme.test"] }]);
    const worker = workerWith();
    const env = { MCP_TENANTS_KV: store.kv, MCP_ADMIN_TOKEN: TOKEN };
    expect(await text(await call(worker, env, "http://mcp.acme.test/mcp"))).toBe("hi from acme");
    const moved = await put(worker, env, "acme", { id: "acme", hosts: ["new.acme.test"], modules: [{ name: "greetings" }] });
    expect(await moved.json()).toEqual({ stored: ["acme"] });
    expect(store.entries.has("host:mcp.acme.test")).toBe(false);
    expect(store.entries.get("host:new.acme.test")).toBe("acme");
    expect((await call(worker, env, "http://mcp.acme.test/mcp")).status).toBe(404);
    expect(await text(await call(worker, env, "http://new.acme.test/mcp"))).toBe("hi from acme");
    expect(JSON.parse(await (await admin(worker, env, "/admin/tenants/acme")).text())).toMatchObject({ hosts: ["new.acme.test"] });
  });

  it("writes nothing for an invalid config, another id, a route another tenant holds, a huge or non-JSON body", async () => {
    const store = memoryKv([
      { id: "acme", hosts: ["mcp.acme.test"] },
      { id: "globex", hosts: ["globex.test"] },
    ]);
    const worker = workerWith();
    const env = { MCP_TENANTS_KV: store.kv, MCP_ADMIN_TOKEN: TOKEN };
    const before = new Map(store.entries);
    const invalid = await put(worker, env, "acme", { id: "acme", hosts: ["mcp.acme.test"], modules: [{ name: "greetings" }], limitz: {} });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ problems: [expect.stringMatching(/tenant acme: limitz is not a known field/)] });
    const other = await put(worker, env, "acme", { id: "globex", hosts: ["globex.test"], modules: [{ name: "greetings" }] });
    expect(other.status).toBe(400);
    const taken = await put(worker, env, "acme", { id: "acme", hosts: ["globex.test"], modules: [{ name: "greetings" }] });
    expect(taken.status).toBe(409);
    expect(await taken.text()).toMatch(/host:globex.test routes to tenant globex/);
    const huge = await admin(worker, env, "/admin/tenants/acme", { method: "PUT", body: "x".repeat(5 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect((await admin(worker, env, "/admin/tenants/acme", { method: "PUT", body: "{" })).status).toBe(400);
    expect((await admin(worker, env, "/admin/tenants/Not_A_Slug")).status).toBe(404);
    expect(store.entries).toEqual(before);
  });

  it("disables a tenant (its requests get 404 at once here, its config stays), deletes one, and imports a document", async () => {
    const store = memoryKv([{ id: "acme", hosts: ["mcp.acme.test"] }]);
    const worker = workerWith();
    const env = { MCP_TENANTS_KV: store.kv, MCP_ADMIN_TOKEN: TOKEN };
    expect(await text(await call(worker, env, "http://mcp.acme.test/mcp"))).toBe("hi from acme");
    expect((await admin(worker, env, "/admin/tenants/acme/disable", { method: "POST" })).status).toBe(200);
    expect((await call(worker, env, "http://mcp.acme.test/mcp")).status).toBe(404);
    expect((await admin(worker, env, "/admin/tenants/acme")).status).toBe(200);
    expect((await admin(worker, env, "/admin/tenants/acme", { method: "DELETE" })).status).toBe(200);
    expect([...store.entries.keys()]).toEqual([]);
    const imported = await admin(worker, env, "/admin/tenants", {
      method: "POST",
      body: JSON.stringify({ tenants: [{ id: "globex", pathPrefix: "/t/globex", modules: [{ name: "greetings" }] }] }),
    });
    expect(await imported.json()).toEqual({ stored: ["globex"] });
    expect(await text(await call(worker, env, "http://127.0.0.1/t/globex/mcp"))).toBe("hi from globex");
  });
});
