// Tenant secrets: written through the admin API (never read back), sealed in MCP_TENANTS_KV under MCP_SECRETS_KEY, bound
// to their tenant, rotated by re-sealing, and used by the tenant's own config (auth.introspection.clientSecretName).
import { afterEach, describe, expect, it, vi } from "vitest";
import { tokenSources } from "../../src/auth/tokens/token-sources.ts";
import { defineTool } from "../../src/server/tools/tool.ts";
import { createMultiTenantWorker, type MultiTenantEnv } from "../../src/workers/create-multi-tenant-worker.ts";
import { keyedTenants } from "../../src/workers/keyed-tenant-store.ts";

const hello = defineTool({
  name: "hello",
  description: "Says hello.",
  inputSchema: { type: "object" },
  handler: (_args, ctx) => `hi ${ctx.principal?.subject}`,
});
const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
const ADMIN = "admin-token-0123456789";
const SECRET = "introspection-s3cret-value";
const ISSUER = "https://login.example.com";
const key = (fill: number) =>
  btoa(String.fromCharCode(...new Uint8Array(32).fill(fill)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

/** A KV namespace in memory, with metadata and one-page listings. */
function memoryKv() {
  const entries = new Map<string, { value: string; metadata?: unknown }>();
  const kv = {
    get: async (key: string) => entries.get(key)?.value ?? null,
    put: async (key: string, value: string, options?: { metadata?: unknown }) => void entries.set(key, { value, metadata: options?.metadata }),
    delete: async (key: string) => void entries.delete(key),
    list: async ({ prefix }: { prefix: string }) => ({
      keys: [...entries.entries()].filter(([k]) => k.startsWith(prefix)).map(([name, entry]) => ({ name, metadata: entry.metadata })),
      list_complete: true,
    }),
  } as unknown as KVNamespace;
  return { kv, entries };
}

const tenant = (id: string) => ({
  id,
  hosts: [`${id}.example`],
  modules: [{ name: "greetings" }],
  auth: {
    resource: `https://${id}.example/mcp`,
    introspection: { endpoint: `${ISSUER}/introspect`, clientId: `mcp-${id}`, clientSecretName: "introspection", issuer: ISSUER },
  },
});

function setup(secretKeys: string | null = `k1:${key(1)}`) {
  const store = memoryKv();
  const worker = createMultiTenantWorker({ modules: { greetings: { tools: [hello] } }, tenantStore: keyedTenants(), tokenSources: tokenSources() });
  const env = { MCP_TENANTS_KV: store.kv, MCP_ADMIN_TOKEN: ADMIN, ...(secretKeys ? { MCP_SECRETS_KEY: secretKeys } : {}) } as MultiTenantEnv;
  const admin = (method: string, path: string, body?: unknown, token = ADMIN) =>
    worker.fetch(
      new Request(`https://admin.example/admin/tenants${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
      env,
      ctx,
    );
  const call = (id: string) =>
    worker.fetch(
      new Request(`https://${id}.example/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: "Bearer opaque-token-1" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "hello" } }),
      }),
      env,
      ctx,
    );
  return { store, env, admin, call };
}

/** The introspection endpoint: answers active for the Basic credentials of `clientId`:SECRET only, and records what it was sent. */
function introspectionEndpoint() {
  const seen: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const authorization = new Headers(init?.headers).get("authorization") ?? "";
    seen.push(authorization);
    const [clientId, secret] = atob(authorization.replace(/^Basic /, "")).split(":");
    if (secret !== SECRET) return new Response(JSON.stringify({ error: "invalid_client" }), { status: 401 });
    const audience = (input instanceof Request ? input.url : input.toString()).includes("introspect")
      ? `https://${clientId?.replace("mcp-", "")}.example/mcp`
      : "";
    return Response.json({ active: true, iss: ISSUER, aud: audience, sub: "user-1", exp: Math.floor(Date.now() / 1000) + 600 });
  });
  return seen;
}

afterEach(() => vi.restoreAllMocks());

describe("tenant secrets", () => {
  it("are written and listed through the admin API, never read back, and sealed at rest", async () => {
    const { admin, store } = setup();
    // A config naming a secret not stored yet is refused, naming the field, and nothing is written.
    const early = await admin("PUT", "/acme", tenant("acme"));
    expect(early.status).toBe(400);
    expect(JSON.stringify(await early.json())).toContain(
      "tenant acme: auth.introspection.clientSecretName: names the tenant secret introspection, which is not stored",
    );
    expect(store.entries.has("tenant:acme")).toBe(false);
    const put = await admin("PUT", "/acme/secrets/introspection", { value: SECRET });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ tenant: "acme", stored: "introspection", keyId: "k1" });
    expect((await admin("PUT", "/acme", tenant("acme"))).status).toBe(200);

    const listed = await admin("GET", "/acme/secrets");
    const listing = await listed.text();
    expect(JSON.parse(listing)).toMatchObject({ tenant: "acme", secrets: [{ name: "introspection", keyId: "k1" }] });
    expect(listing).not.toContain(SECRET);
    expect((await admin("GET", "/acme/secrets/introspection")).status).toBe(405);
    for (const { value } of store.entries.values()) expect(value).not.toContain(SECRET);
    expect(store.entries.get("secret:acme:introspection")?.value).toMatch(/^es1\.k1\./);
  });

  it("refuses bad input clearly, and stays behind the admin token", async () => {
    const { admin } = setup();
    expect((await admin("PUT", "/acme/secrets/bad name", { value: "x" })).status).toBe(400);
    expect((await admin("PUT", "/acme/secrets/a", { value: "" })).status).toBe(400);
    expect((await admin("PUT", "/acme/secrets/a", "just a string")).status).toBe(400);
    expect((await admin("PUT", "/acme/secrets/a", { value: "x".repeat(16 * 1024 + 1) })).status).toBe(413);
    expect((await admin("PUT", "/Acme/secrets/a", { value: "x" })).status).toBe(404);
    expect((await admin("PUT", "/acme/secrets/a/b", { value: "x" })).status).toBe(404);
    expect((await admin("DELETE", "/acme/secrets/none")).status).toBe(404);
    expect((await admin("PUT", "/acme/secrets/a", { value: "x" }, "wrong-token")).status).toBe(401);
    expect((await admin("GET", "/acme/secrets", undefined, "wrong-token")).status).toBe(401);
  });

  it("are off without MCP_SECRETS_KEY, saying how to turn them on; a malformed key is named, never echoed", async () => {
    const off = await setup(null).admin("PUT", "/acme/secrets/a", { value: "x" });
    expect(off.status).toBe(404);
    expect(await off.text()).toContain("set the MCP_SECRETS_KEY secret");
    const bad = await setup("k1:tooshortkeymaterial").admin("PUT", "/acme/secrets/a", { value: "x" });
    expect(bad.status).toBe(500);
    const text = await bad.text();
    expect(text).toContain("must be 32 bytes");
    expect(text).not.toContain("tooshortkeymaterial");
  });

  it("give a tenant's introspection its own client secret, and another tenant never gets it", async () => {
    const { admin, call, store } = setup();
    await admin("PUT", "/acme/secrets/introspection", { value: SECRET });
    await admin("PUT", "/acme", tenant("acme"));
    // globex's secret is stored with its config, then deleted: its requests must not fall back on anyone else's.
    await admin("PUT", "/globex/secrets/introspection", { value: "globex-value" });
    expect((await admin("PUT", "/globex", tenant("globex"))).status).toBe(200);
    expect((await admin("DELETE", "/globex/secrets/introspection")).status).toBe(200);
    const seen = introspectionEndpoint();

    const answered = await call("acme");
    expect(answered.status).toBe(200);
    expect(JSON.stringify(await answered.json())).toContain("hi user-1");
    expect(seen).toEqual([`Basic ${btoa(`mcp-acme:${SECRET}`)}`]);

    // globex has no secret of that name: its introspection cannot be asked (the log says why), and acme's secret is never sent for it.
    const logged: string[] = [];
    for (const level of ["error", "warn", "log"] as const)
      vi.spyOn(console, level).mockImplementation(
        (...args: unknown[]) => void logged.push(args.map((a) => (a instanceof Error ? `${a.message} ${String(a.cause)}` : String(a))).join(" ")),
      );
    const refused = await call("globex");
    expect(refused.status).toBe(503);
    expect(await refused.text()).not.toContain(SECRET);
    expect(logged.join("\n")).toContain("tenant globex has no secret introspection");
    expect(logged.join("\n")).not.toContain(SECRET);
    // Nor does acme's sealed value, copied under globex's key, open for globex.
    store.entries.set("secret:globex:introspection", store.entries.get("secret:acme:introspection") as { value: string });
    expect((await call("globex")).status).toBe(503);
    expect(seen.filter((h) => h.includes(btoa(`mcp-globex:${SECRET}`)))).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it("rotate: a new first key re-seals every secret of the tenant, and the old key can then be dropped", async () => {
    const { admin, env, store } = setup();
    await admin("PUT", "/acme/secrets/introspection", { value: SECRET });
    await admin("PUT", "/acme/secrets/api-key", { value: "another" });
    env.MCP_SECRETS_KEY = `k2:${key(2)},k1:${key(1)}`;
    const rotated = await admin("POST", "/acme/secrets/rotate");
    expect(await rotated.json()).toEqual({ tenant: "acme", resealed: 2, keyId: "k2" });
    expect(await (await admin("POST", "/acme/secrets/rotate")).json()).toMatchObject({ resealed: 0 });
    expect([...store.entries.keys()].filter((k) => k.startsWith("secret:")).map((k) => store.entries.get(k)?.value.split(".")[1])).toEqual(["k2", "k2"]);
    const listing = await (await admin("GET", "/acme/secrets")).json<{ secrets: { keyId: string }[] }>();
    expect(listing.secrets.map((s) => s.keyId)).toEqual(["k2", "k2"]);
  });
});
