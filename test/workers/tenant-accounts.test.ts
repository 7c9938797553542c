// Connected accounts whose providers come from a tenant's config (`accounts.providers`), in workerd: checked when the
// admin API writes the config, the client secret read from the tenant's own secrets, and kept to the tenant that declares it.
import { afterEach, describe, expect, it, vi } from "vitest";
import { hashApiKey } from "../../src/auth/api-keys.ts";
import { defineTool } from "../../src/server/tools/tool.ts";
import { connectedAccounts } from "../../src/workers/accounts/connected-accounts.ts";
import { createMultiTenantWorker, type MultiTenantEnv } from "../../src/workers/create-multi-tenant-worker.ts";
import { keyedTenants } from "../../src/workers/keyed-tenant-store.ts";
import { cookieHeaderOf, memoryNamespace } from "../unit/workers/accounts/memory-namespace.ts";

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
const ADMIN = "admin-token-0123456789";
const CLIENT_SECRET = "corp-client-s3cret";
const ACCOUNTS_KEY = "a".repeat(43);
const BASE = "https://accounts.example";
const key = (fill: number) =>
  btoa(String.fromCharCode(...new Uint8Array(32).fill(fill)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

function memoryKv() {
  const entries = new Map<string, { value: string; metadata?: unknown }>();
  return {
    get: async (name: string) => entries.get(name)?.value ?? null,
    put: async (name: string, value: string, options?: { metadata?: unknown }) => void entries.set(name, { value, metadata: options?.metadata }),
    delete: async (name: string) => void entries.delete(name),
    list: async ({ prefix }: { prefix: string }) => ({
      keys: [...entries.entries()].filter(([k]) => k.startsWith(prefix)).map(([name, entry]) => ({ name, metadata: entry.metadata })),
      list_complete: true,
    }),
  } as unknown as KVNamespace;
}

/** Calls the corp API as the user: answers who the upstream token belongs to. */
const whoami = defineTool({
  name: "whoami_upstream",
  description: "Who the user is at corp.",
  inputSchema: { type: "object", properties: { provider: { type: "string" } } },
  handler: async (args, handler) => {
    const token = await handler.accounts!.token(args["provider"] ?? "corp");
    return (await fetch("https://api.corp.example/me", { headers: { authorization: `Bearer ${token}` } })).text();
  },
});

const accountsSection = (clientSecret: unknown = { tenantSecret: "corp-client" }) => ({
  providers: {
    corp: {
      title: "Corp",
      authorizationEndpoint: "https://login.corp.example/authorize",
      tokenEndpoint: "https://login.corp.example/token",
      clientId: "mcp-acme",
      clientSecret,
      scopes: ["profile"],
    },
  },
});

async function setup() {
  const accounts = connectedAccounts<MultiTenantEnv>({ baseUrl: BASE });
  const worker = accounts.routes(createMultiTenantWorker({ modules: { corp: { tools: [whoami] } }, tenantStore: keyedTenants(), accounts }));
  const auth = async (id: string) => ({
    resource: `https://${id}.example/mcp`,
    apiKeys: [
      { id: "ada", sha256: await hashApiKey(`${id}-ada-key`) },
      { id: "bob", sha256: await hashApiKey(`${id}-bob-key`) },
    ],
  });
  const tenant = async (id: string, accountsConfig?: unknown) => ({
    id,
    hosts: [`${id}.example`],
    modules: [{ name: "corp" }],
    auth: await auth(id),
    ...(accountsConfig === undefined ? {} : { accounts: accountsConfig }),
  });
  const env = {
    MCP_TENANTS_KV: memoryKv(),
    MCP_ADMIN_TOKEN: ADMIN,
    MCP_SECRETS_KEY: `k1:${key(1)}`,
    MCP_ACCOUNTS_KEY: ACCOUNTS_KEY,
    MCP_ACCOUNTS: memoryNamespace(ACCOUNTS_KEY),
  } as unknown as MultiTenantEnv;
  const admin = (method: string, path: string, body?: unknown) =>
    worker.fetch(
      new Request(`https://admin.example/admin/tenants${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
      env,
      ctx,
    );
  const call = async (id: string, user: string, provider?: string) =>
    (
      await worker.fetch(
        new Request(`https://${id}.example/mcp`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            authorization: `Bearer ${id}-${user}-key`,
            "mcp-protocol-version": "2025-11-25",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami_upstream", arguments: provider ? { provider } : {} } }),
        }),
        env,
        ctx,
      )
    ).json<{
      result?: { content: { text: string }[]; isError?: boolean };
      error?: { code: number; message: string; data?: { elicitations: { url: string }[] } };
    }>();
  return { worker, env, admin, call, tenant };
}

/** The provider: its token endpoint answers only the client's Basic credentials with the tenant's secret; the API echoes the token's user. */
function provider() {
  const seen: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : input.toString();
    const authorization = new Headers(init?.headers).get("authorization") ?? "";
    if (url === "https://login.corp.example/token") {
      seen.push(authorization);
      if (authorization !== `Basic ${btoa(`mcp-acme:${CLIENT_SECRET}`)}`) return Response.json({ error: "invalid_client" }, { status: 401 });
      return Response.json({ access_token: `upstream-token-of-${new URLSearchParams(init?.body as string).get("code") ?? ""}`, expires_in: 3600 });
    }
    return new Response(authorization.replace("Bearer upstream-token-of-", "corp user "));
  });
  return seen;
}

afterEach(() => vi.restoreAllMocks());

describe("providers from a tenant's config", () => {
  it("refuses a config whose accounts section is wrong or names a secret not stored, naming the field, writing nothing", async () => {
    const { admin, tenant } = await setup();
    const cases: [unknown, string][] = [
      [
        { providers: { corp: { ...accountsSection().providers.corp, clientSecret: CLIENT_SECRET } } },
        'accounts.providers.corp.clientSecret must be {"tenantSecret"',
      ],
      [{ providers: { corp: { ...accountsSection().providers.corp, clientID: "x" } } }, "accounts.providers.corp.clientID is not a known field; did you mean"],
      [{ provider: {} }, "accounts.provider is not a known field"],
      [{ providers: { corp: { clientId: "x" } } }, "accounts.providers.corp needs issuer, or authorizationEndpoint and tokenEndpoint"],
      [
        { providers: { corp: { ...accountsSection().providers.corp, tokenEndpoint: "http://login.corp.example/token" } } },
        "accounts.providers.corp.tokenEndpoint must be an https URL",
      ],
      [{ providers: { "bad name": { clientId: "x" } } }, "is not a provider name"],
      [accountsSection(), "accounts.providers.corp.clientSecret: names the tenant secret corp-client, which is not stored"],
    ];
    for (const [section, message] of cases) {
      const response = await admin("PUT", "/acme", await tenant("acme", section));
      expect(response.status, message).toBe(400);
      expect(JSON.stringify(await response.json())).toContain(message.replaceAll('"', '\\"'));
    }
    expect((await admin("GET", "/acme")).status).toBe(404);
  });

  it("asks an unconnected user to connect the tenant's provider, reads the client secret from the tenant's secrets, and keeps it to that tenant", async () => {
    const { worker, env, admin, call, tenant } = await setup();
    const seen = provider();
    expect((await admin("PUT", "/acme/secrets/corp-client", { value: CLIENT_SECRET })).status).toBe(200);
    expect((await admin("PUT", "/acme", await tenant("acme", accountsSection()))).status).toBe(200);
    expect((await admin("PUT", "/globex", await tenant("globex"))).status).toBe(200);

    const asked = await call("acme", "ada");
    expect(asked.error?.code).toBe(-32042);
    const url = asked.error?.data?.elicitations[0]?.url ?? "";
    expect(url.startsWith(`${BASE}/accounts/connect?state=`)).toBe(true);

    // The confirmation sends the browser to the tenant's provider with its client id; the callback exchanges the code with the tenant's secret.
    const state = new URL(url).searchParams.get("state") ?? "";
    const confirmed = await worker.fetch(
      new Request(`${BASE}/accounts/connect`, { method: "POST", headers: { origin: BASE }, body: new URLSearchParams({ state }) }),
      env,
      ctx,
    );
    expect(confirmed.status).toBe(303);
    const location = new URL(confirmed.headers.get("location") ?? "");
    expect(location.origin + location.pathname).toBe("https://login.corp.example/authorize");
    expect(location.searchParams.get("client_id")).toBe("mcp-acme");
    expect(location.searchParams.get("scope")).toBe("profile");
    const callback = await worker.fetch(
      new Request(`${BASE}/accounts/callback?state=${encodeURIComponent(state)}&code=ada`, { headers: { cookie: cookieHeaderOf(confirmed) } }),
      env,
      ctx,
    );
    expect(callback.status).toBe(200);
    expect(seen).toEqual([`Basic ${btoa(`mcp-acme:${CLIENT_SECRET}`)}`]);
    expect((await call("acme", "ada")).result?.content[0]?.text).toBe("corp user ada");
    // Another principal of the same tenant has no account yet.
    expect((await call("acme", "bob")).error?.code).toBe(-32042);

    // Tenant globex never sees acme's provider: a call for it is refused as unknown, and acme's link does not open there.
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const other = await call("globex", "ada");
    expect(other.result?.isError).toBe(true);
    expect(JSON.stringify(other)).not.toContain("accounts/connect");
    expect(JSON.stringify(other)).not.toContain("upstream-token");
    expect(logged.mock.calls.flat().join(" ")).toContain('no connected account provider "corp" is declared for this tenant');
    // An unknown provider name in acme is refused the same way.
    const unknown = await call("acme", "ada", "github");
    expect(unknown.result?.isError).toBe(true);
    expect(logged.mock.calls.flat().join(" ")).toContain('no connected account provider "github" is declared for this tenant');
  });
});
