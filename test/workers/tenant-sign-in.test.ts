// An authorization server per tenant (tenantSignIn()): each tenant with `signIn` signs users in with its own provider and issues
// tokens only its own endpoint accepts. Host-routed tenants (issuer = origin) and path-routed ones (issuer = origin + prefix, RFC 8414
// path-inserted metadata), KV keys under the tenant's prefix, the config checked at the admin API.
import { afterEach, describe, expect, it, vi } from "vitest";
import { tenantSignIn } from "../../src/oauth/tenant-sign-in.ts";
import { defineTool } from "../../src/server/tools/tool.ts";
import { createMultiTenantWorker, type MultiTenantEnv } from "../../src/workers/create-multi-tenant-worker.ts";
import { keyedTenants } from "../../src/workers/keyed-tenant-store.ts";
import { IDP, callTool, mockIdentityProvider, signIn } from "./sign-in-flow.ts";

const signInOptIn = tenantSignIn();
const whoami = defineTool({
  name: "whoami",
  description: "Says who is signed in.",
  inputSchema: { type: "object" },
  handler: (_args, ctx) =>
    `${ctx.principal?.issuer} ${ctx.principal?.subject} ${String(signInOptIn.user(ctx)?.claims["name"])} ${signInOptIn.upstreamToken(ctx)}`,
});
const admin = defineTool({ name: "admin", description: "Needs a scope.", inputSchema: { type: "object" }, handler: () => "done" });
const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
const ADMIN = "admin-token-0123456789";
const SECRETS_KEY = `k1:${btoa(String.fromCharCode(...new Uint8Array(32).fill(7)))
  .replaceAll("+", "-")
  .replaceAll("/", "_")
  .replace(/=+$/, "")}`;

/** A KV namespace in memory: get (one key or many), put, delete, list by prefix with a cursor. */
function memoryKv() {
  const entries = new Map<string, string>();
  const kv = {
    get: async (key: string, options?: unknown) => {
      const type = typeof options === "string" ? options : (options as { type?: string } | undefined)?.type;
      const value = entries.get(key) ?? null;
      return value !== null && type === "json" ? (JSON.parse(value) as unknown) : value;
    },
    put: async (key: string, value: string) => void entries.set(key, value),
    delete: async (key: string) => void entries.delete(key),
    list: async ({ prefix = "", limit = 1000, cursor }: { prefix?: string; limit?: number; cursor?: string } = {}) => {
      const names = [...entries.keys()].filter((k) => k.startsWith(prefix)).sort();
      const start = cursor === undefined ? 0 : Number(cursor);
      const keys = names.slice(start, start + limit).map((name) => ({ name }));
      const complete = start + limit >= names.length;
      return { keys, list_complete: complete, ...(complete ? {} : { cursor: String(start + limit) }) };
    },
  } as unknown as KVNamespace;
  return { kv, entries };
}

const signInOf = (clientId: string, extra: Record<string, unknown> = {}) => ({
  issuer: IDP,
  clientId,
  clientSecret: { tenantSecret: "oidc" },
  scopes: ["tools:admin"],
  toolScopes: { admin: ["tools:admin"] },
  ...extra,
});

const TENANTS = [
  { id: "a", hosts: ["a.example"], modules: [{ name: "tools" }], rateLimits: { principal: "PRINCIPAL_LIMIT" }, signIn: signInOf("client-a") },
  { id: "b", hosts: ["b.example"], modules: [{ name: "tools" }], signIn: signInOf("client-b") },
  { id: "c", pathPrefix: "/t/c", modules: [{ name: "tools" }], signIn: signInOf("client-c") },
  { id: "d", pathPrefix: "/t/d", modules: [{ name: "tools" }], signIn: signInOf("client-d") },
  { id: "plain", hosts: ["plain.example"], modules: [{ name: "tools" }] },
];

/** A rate limiting binding that allows 4 calls per key, and records the keys it was asked about. */
function principalLimit() {
  const counts = new Map<string, number>();
  return { counts, limit: async ({ key }: { key: string }) => ({ success: counts.set(key, (counts.get(key) ?? 0) + 1).get(key)! <= 4 }) };
}

async function setup() {
  const store = memoryKv();
  const limiter = principalLimit();
  const oauth = memoryKv();
  const worker = createMultiTenantWorker({ modules: { tools: { tools: [whoami, admin] } }, tenantStore: keyedTenants(), signIn: signInOptIn });
  const env = {
    MCP_TENANTS_KV: store.kv,
    MCP_ADMIN_TOKEN: ADMIN,
    MCP_SECRETS_KEY: SECRETS_KEY,
    OAUTH_KV: oauth.kv,
    ALLOWED_HOSTS: "shared.example",
    PRINCIPAL_LIMIT: limiter,
  } as unknown as MultiTenantEnv;
  const fetch = async (request: Request) => worker.fetch(request as Parameters<typeof worker.fetch>[0], env, ctx);
  const adminCall = (method: string, path: string, body?: unknown) =>
    fetch(
      new Request(`https://admin.example/admin/tenants${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
  return { store, oauth, fetch, adminCall, limiter };
}

async function withTenants() {
  const setUp = await setup();
  for (const { id } of TENANTS.filter((t) => t.signIn)) {
    const put = await setUp.adminCall("PUT", `/${id}/secrets/oidc`, { value: `secret-of-${id}` });
    expect(put.status).toBe(200);
  }
  const stored = await setUp.adminCall("POST", "", { tenants: TENANTS });
  expect(stored.status, await stored.clone().text()).toBe(200);
  return setUp;
}

const text = async (response: Response) => {
  const body = await response.text();
  const data = body.startsWith("{") ? body : (/^data: (.*)$/m.exec(body)?.[1] ?? body);
  return (JSON.parse(data) as { result?: { content?: { text: string }[]; isError?: boolean } }).result;
};

afterEach(() => vi.restoreAllMocks());

describe("an authorization server per tenant, by host", () => {
  it("signs in at tenant a and calls its tool; a's token is refused at b with b's challenge, and at a tenant without signIn", async () => {
    const { fetch, oauth } = await withTenants();
    const idp = await mockIdentityProvider("client-a");
    const { tokens, response } = await signIn(fetch, "https://a.example", "https://a.example/mcp", idp);
    expect(response.origin + response.pathname).toBe("https://client.example/cb");
    expect(response.searchParams.get("iss")).toBe("https://a.example");
    // The code exchange upstream used a's own secret (tenant secret "oidc"), by Basic authentication.
    expect(idp.tokenRequests.at(-1)?.authorization).toBe(`Basic ${btoa("client-a:secret-of-a")}`);

    const called = await callTool(fetch, "https://a.example/mcp", "whoami", tokens.access_token);
    expect(called.status).toBe(200);
    const [issuer, subject, name, upstream] = (await text(called))?.content?.[0]?.text.split(" ") ?? [];
    expect(issuer).toBe("https://a.example");
    expect(subject).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(name).toBe("Ada");
    expect(upstream).toBe("upstream-access");

    const atB = await callTool(fetch, "https://b.example/mcp", "whoami", tokens.access_token);
    expect(atB.status).toBe(401);
    const challenge = atB.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain('resource_metadata="https://b.example/.well-known/oauth-protected-resource/mcp"');
    expect(challenge).toContain('error="invalid_token"');
    // A tenant without signIn (and without auth) is not this server's resource: the token means nothing there, and the bearer is not honoured as a principal.
    const plain = await callTool(fetch, "https://plain.example/mcp", "whoami", tokens.access_token);
    expect((await text(plain))?.content?.[0]?.text).not.toContain("upstream-access");

    // Every key the authorization server wrote is under a's prefix.
    const keys = [...oauth.entries.keys()];
    expect(keys.length).toBeGreaterThan(2);
    expect(keys.filter((key) => !key.startsWith("t:a:"))).toEqual([]);
  });

  it("checks tool scopes in the one admission: the scope a client did not ask for is refused with 403 insufficient_scope", async () => {
    const { fetch } = await withTenants();
    const idp = await mockIdentityProvider("client-a");
    const { tokens } = await signIn(fetch, "https://a.example", "https://a.example/mcp", idp);
    const refused = await callTool(fetch, "https://a.example/mcp", "admin", tokens.access_token);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    const none = await callTool(fetch, "https://a.example/mcp", "whoami");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain('resource_metadata="https://a.example/.well-known/oauth-protected-resource/mcp"');
  });

  it("counts the signed-in principal in the tenant's rate limits, keyed by the tenant's issuer: the fifth call is refused with 429", async () => {
    const { fetch, limiter } = await withTenants();
    const idp = await mockIdentityProvider("client-a");
    const { tokens } = await signIn(fetch, "https://a.example", "https://a.example/mcp", idp);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await callTool(fetch, "https://a.example/mcp", "whoami", tokens.access_token)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    expect([...limiter.counts.keys()].every((key) => key.includes("https://a.example"))).toBe(true);
  });

  it("publishes metadata of each tenant that agrees with its protected-resource metadata", async () => {
    const { fetch } = await withTenants();
    for (const host of ["a.example", "b.example"]) {
      const as = await (await fetch(new Request(`https://${host}/.well-known/oauth-authorization-server`))).json<Record<string, unknown>>();
      const prm = await (await fetch(new Request(`https://${host}/.well-known/oauth-protected-resource/mcp`))).json<Record<string, unknown>>();
      expect(as["issuer"]).toBe(`https://${host}`);
      expect(as["authorization_endpoint"]).toBe(`https://${host}/authorize`);
      expect(as["token_endpoint"]).toBe(`https://${host}/oauth/token`);
      expect(as["code_challenge_methods_supported"]).toEqual(["S256"]);
      expect(prm["resource"]).toBe(`https://${host}/mcp`);
      expect(prm["authorization_servers"]).toEqual([as["issuer"]]);
    }
  });
});

describe("an authorization server per tenant, by path", () => {
  it("serves RFC 8414 path-inserted metadata naming the issuer with its path, which the RFC 9728 metadata names", async () => {
    const { fetch } = await withTenants();
    for (const id of ["c", "d"]) {
      const asResponse = await fetch(new Request(`https://shared.example/.well-known/oauth-authorization-server/t/${id}`));
      expect(asResponse.status).toBe(200);
      const as = await asResponse.json<Record<string, unknown>>();
      const prm = await (await fetch(new Request(`https://shared.example/.well-known/oauth-protected-resource/t/${id}/mcp`))).json<Record<string, unknown>>();
      expect(as["issuer"]).toBe(`https://shared.example/t/${id}`);
      expect(as["authorization_endpoint"]).toBe(`https://shared.example/t/${id}/authorize`);
      expect(as["token_endpoint"]).toBe(`https://shared.example/t/${id}/oauth/token`);
      expect(as["registration_endpoint"]).toBe(`https://shared.example/t/${id}/oauth/register`);
      expect(prm["resource"]).toBe(`https://shared.example/t/${id}/mcp`);
      expect(prm["authorization_servers"]).toEqual([as["issuer"]]);
    }
    // HEAD and a CORS preflight of the path-inserted URL are answered too (no body to rewrite).
    expect((await fetch(new Request("https://shared.example/.well-known/oauth-authorization-server/t/c", { method: "HEAD" }))).status).toBe(200);
    const preflight = await fetch(
      new Request("https://shared.example/.well-known/oauth-authorization-server/t/c", {
        method: "OPTIONS",
        headers: { origin: "https://client.example", "access-control-request-method": "GET" },
      }),
    );
    expect(preflight.status).toBe(204);
    // The origin's own well-known URL belongs to no path-routed tenant.
    expect((await fetch(new Request("https://shared.example/.well-known/oauth-authorization-server"))).status).toBe(404);
    expect((await fetch(new Request("https://shared.example/.well-known/oauth-authorization-server/t/nobody"))).status).toBe(404);
  });

  it("signs in at /t/c (iss names c's issuer); c's token is refused at /t/d with d's challenge, and c's keys are under t:c:", async () => {
    const { fetch, oauth } = await withTenants();
    const idp = await mockIdentityProvider("client-c");
    const { tokens, response, callback, cookies } = await signIn(fetch, "https://shared.example/t/c", "https://shared.example/t/c/mcp", idp);
    expect(callback.pathname).toBe("/t/c/oauth/callback");
    // Tenants on one origin keep their browser state apart: c's consent and upstream cookies are c's own.
    expect(cookies.length).toBeGreaterThan(0);
    expect(cookies.every((name) => name.startsWith("__Host-t-c-"))).toBe(true);
    expect(response.searchParams.get("iss")).toBe("https://shared.example/t/c");
    const called = await callTool(fetch, "https://shared.example/t/c/mcp", "whoami", tokens.access_token);
    expect(called.status, await called.clone().text()).toBe(200);
    expect((await text(called))?.content?.[0]?.text.startsWith("https://shared.example/t/c ")).toBe(true);
    const atD = await callTool(fetch, "https://shared.example/t/d/mcp", "whoami", tokens.access_token);
    expect(atD.status).toBe(401);
    expect(atD.headers.get("www-authenticate")).toContain('resource_metadata="https://shared.example/.well-known/oauth-protected-resource/t/d/mcp"');
    expect([...oauth.entries.keys()].filter((key) => !key.startsWith("t:c:"))).toEqual([]);
  });

  it("refreshes at /t/c (the new token works there); c's refresh token at /t/d's token endpoint is refused and changes nothing", async () => {
    const { fetch, oauth } = await withTenants();
    const idp = await mockIdentityProvider("client-c");
    const { tokens, clientId } = await signIn(fetch, "https://shared.example/t/c", "https://shared.example/t/c/mcp", idp);
    const refresh = (prefix: string) =>
      fetch(
        new Request(`https://shared.example${prefix}/oauth/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh_token ?? "", client_id: clientId }),
        }),
      );
    const before = [...oauth.entries.keys()].sort();
    const atD = await refresh("/t/d");
    expect(atD.status).toBeGreaterThanOrEqual(400);
    expect(atD.status).toBeLessThan(500);
    expect([...oauth.entries.keys()].sort()).toEqual(before);
    const atC = await refresh("/t/c");
    expect(atC.status).toBe(200);
    const renewed = await atC.json<{ access_token: string }>();
    expect((await callTool(fetch, "https://shared.example/t/c/mcp", "whoami", renewed.access_token)).status).toBe(200);
  });
});

describe("the upstream sign-in and clients of a tenant's authorization server", () => {
  it("refreshes the upstream token with the grant, with the tenant's own client secret; the tool then has the new upstream token", async () => {
    const { fetch } = await withTenants();
    const idp = await mockIdentityProvider("client-c");
    idp.expiresIn = 100;
    const { tokens, clientId } = await signIn(fetch, "https://shared.example/t/c", "https://shared.example/t/c/mcp", idp);
    // The MCP token ends before the upstream one (100 s, less 30 s of margin).
    expect(tokens.expires_in).toBeLessThanOrEqual(71);
    const refreshed = await fetch(
      new Request("https://shared.example/t/c/oauth/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh_token ?? "", client_id: clientId }),
      }),
    );
    expect(refreshed.status, await refreshed.clone().text()).toBe(200);
    const upstreamRefresh = idp.tokenRequests.at(-1);
    expect(upstreamRefresh?.form.get("grant_type")).toBe("refresh_token");
    expect(upstreamRefresh?.authorization).toBe(`Basic ${btoa("client-c:secret-of-c")}`);
    const renewed = await refreshed.json<{ access_token: string }>();
    const called = await callTool(fetch, "https://shared.example/t/c/mcp", "whoami", renewed.access_token);
    expect((await text(called))?.content?.[0]?.text.endsWith(" upstream-access-1")).toBe(true);
  });

  it("refuses a metadata-document client on a private or link-local host before anything is fetched", async () => {
    const { fetch } = await withTenants();
    const fetched = vi.spyOn(globalThis, "fetch");
    for (const clientId of ["https://169.254.169.254/latest/client.json", "https://10.1.2.3/client.json", "https://localhost/client.json"]) {
      const url = new URL("https://shared.example/t/c/authorize");
      url.searchParams.set("client_id", clientId);
      url.searchParams.set("response_type", "code");
      url.searchParams.set("redirect_uri", "https://client.example/cb");
      const refused = await fetch(new Request(url));
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: "invalid_client" });
    }
    expect(fetched).not.toHaveBeenCalled();
  });
});

describe("the signIn section", () => {
  it("is checked at the admin API: an unknown field, a missing secret, a bad issuer, signIn with auth: 400 naming the field, nothing written", async () => {
    const { adminCall, store } = await setup();
    const before = [...store.entries.keys()];
    const cases: [unknown, string][] = [
      [{ ...signInOf("x"), clientSecret: undefined, scope: ["a"] }, "signIn.scope is not a known field; did you mean signIn.scopes?"],
      [signInOf("x"), "signIn.clientSecret: names the tenant secret oidc, which is not stored"],
      [{ ...signInOf("x"), clientSecret: undefined, issuer: "http://idp.example" }, "signIn.issuer must be"],
      [{ ...signInOf("x"), clientSecret: "inline-secret" }, 'signIn.clientSecret must be {"tenantSecret": "name"}'],
      [{ ...signInOf("x"), clientSecret: undefined, clientId: undefined }, "signIn.clientId is required"],
    ];
    for (const [section, problem] of cases) {
      const response = await adminCall("PUT", "/x", { id: "x", hosts: ["x.example"], modules: [{ name: "tools" }], signIn: section });
      expect(response.status).toBe(400);
      expect((await response.json<{ problems: string[] }>()).problems.join("\n")).toContain(problem);
    }
    const both = await adminCall("PUT", "/x", {
      id: "x",
      hosts: ["x.example"],
      modules: [{ name: "tools" }],
      auth: { issuer: IDP },
      signIn: { issuer: IDP, clientId: "x" },
    });
    expect(JSON.stringify(await both.json())).toContain("signIn and auth cannot both be set");
    expect([...store.entries.keys()]).toEqual(before);
  });

  it("with a client list takes no dynamic registrations and refuses a client not listed before its consent page", async () => {
    const { fetch, adminCall } = await setup();
    await adminCall("PUT", "/e/secrets/oidc", { value: "s" });
    const tenant = { id: "e", hosts: ["e.example"], modules: [{ name: "tools" }], signIn: signInOf("client-e", { clients: ["https://claude.ai/"] }) };
    expect((await adminCall("PUT", "/e", tenant)).status).toBe(200);
    const registration = await fetch(
      new Request("https://e.example/oauth/register", { method: "POST", body: "{}", headers: { "content-type": "application/json" } }),
    );
    expect(registration.status).toBe(404);
    const refused = await fetch(new Request("https://e.example/authorize?response_type=code&client_id=https%3A%2F%2Fevil.example%2Fclient.json"));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("unauthorized_client");
    const metadata = await (await fetch(new Request("https://e.example/.well-known/oauth-authorization-server"))).json<Record<string, unknown>>();
    expect(metadata["registration_endpoint"]).toBeUndefined();
    // At the token endpoint too, by form or by HTTP Basic: 401 invalid_client.
    const tokenAs = (headers: Record<string, string>, form: Record<string, string>) =>
      fetch(
        new Request("https://e.example/oauth/token", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
          body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "a:b:c", ...form }),
        }),
      );
    for (const response of [
      await tokenAs({}, { client_id: "https://evil.example/client.json" }),
      await tokenAs({ authorization: `Basic ${btoa("registered-earlier:secret")}` }, {}),
    ]) {
      expect(response.status).toBe(401);
      expect((await response.json<{ error: string }>()).error).toBe("invalid_client");
    }
  });

  it("from a tenants document, a section that does not parse makes its tenant unavailable alone (503 naming the field)", async () => {
    const broken = { id: "x", hosts: ["x.example"], modules: [{ name: "tools" }], signIn: { issuer: IDP, clientId: "x", scope: ["a"] } };
    const worker = createMultiTenantWorker({ modules: { tools: { tools: [whoami] } }, tenants: { tenants: [broken, TENANTS[4]] }, signIn: tenantSignIn() });
    const env = { OAUTH_KV: memoryKv().kv } as unknown as MultiTenantEnv;
    const response = await worker.fetch(new Request("https://x.example/.well-known/oauth-authorization-server"), env, ctx);
    expect(response.status).toBe(503);
    expect(await response.text()).toContain("signIn.scope is not a known field");
    expect((await worker.fetch(new Request("https://plain.example/mcp", { method: "POST", body: "{}" }), env, ctx)).status).not.toBe(503);
  });

  it("a tenant with signIn on a Worker that did not opt in is unavailable alone (503 naming tenantSignIn)", async () => {
    const worker = createMultiTenantWorker({ modules: { tools: { tools: [whoami] } }, tenants: { tenants: [TENANTS[0], TENANTS[4]] } });
    const response = await worker.fetch(new Request("https://a.example/mcp", { method: "POST", body: "{}" }), {}, ctx);
    expect(response.status).toBe(503);
    expect(await response.text()).toContain("tenantSignIn()");
  });
});
