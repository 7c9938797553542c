// The accounts page (list and disconnect, behind the sign-in) and the accounts admin route: each principal sees and removes
// only their own accounts, a form from elsewhere is refused, and a disconnected account asks to connect again.
import { afterEach, describe, expect, it, vi } from "vitest";
import { sha256, toBase64Url } from "../../../../src/core/bytes.ts";
import type { FeatureHost } from "../../../../src/server/feature.ts";
import type { TransportContext } from "../../../../src/server/context/transport.ts";
import type { BrowserSignIn } from "../../../../src/workers/accounts/browser-identity.ts";
import { connectedAccounts, type HandlerAccounts } from "../../../../src/workers/accounts/connected-accounts.ts";
import { admission, principal } from "../../../admission.ts";
import { transportContext } from "../../context.ts";
import { cookieHeaderOf, memoryNamespace } from "./memory-namespace.ts";

const KEY = "k".repeat(43);
const BASE = "https://mcp.test";
const ADMIN = "admin-token-0123456789";
const TOKEN = "ada-upstream-token-5d2c";
const ISSUER = "https://issuer.test/";
type Env = Record<string, unknown>;

function setup(adminToken: string | null = ADMIN) {
  const providers = (tenant: string) =>
    tenant === "acme"
      ? { fixture: { title: "Fixture", authorizationEndpoint: "https://provider.test/authorize", tokenEndpoint: "https://provider.test/token", clientId: "c" } }
      : undefined;
  // The sign-in: the code names the user and carries the PKCE challenge it was issued for (checked against the verifier).
  const challenges = new Map<string, string>();
  const signIn: BrowserSignIn<Env> = {
    authorizationUrl: async ({ state, codeChallenge }) => {
      challenges.set(state, codeChallenge);
      return `https://idp.test/authorize?state=${encodeURIComponent(state)}`;
    },
    principal: async ({ code, codeVerifier }) => {
      const [subject = "", challenge] = code.split(".");
      if (toBase64Url(await sha256(codeVerifier)) !== challenge) throw new Error("PKCE check failed");
      return { issuer: ISSUER, subject };
    },
  };
  const accounts = connectedAccounts<Env>({ providers, baseUrl: BASE, signIn });
  // The same accounts without the sign-in, to connect ada's account in the test without the identify step.
  const connector = connectedAccounts<Env>({ providers, baseUrl: BASE });
  const env: Env = { MCP_ACCOUNTS_KEY: KEY, MCP_ACCOUNTS: memoryNamespace(KEY), ...(adminToken === null ? {} : { MCP_ADMIN_TOKEN: adminToken }) };
  const routes = accounts.routes({ fetch: () => new Response("mcp") });
  const fetchAt = (path: string, init?: RequestInit, address = "1.2.3.4") => {
    const headers = new Headers(init?.headers);
    headers.set("cf-connecting-ip", address);
    return routes.fetch(new Request(`${BASE}${path}`, { ...init, headers }), env, {} as ExecutionContext);
  };
  const member = accounts.feature.install({} as FeatureHost).context?.["accounts"] as (transport: TransportContext) => HandlerAccounts;
  const base = transportContext();
  const ctx = (user: string, tenant = "acme") =>
    member(
      transportContext({ endpoint: { ...base.endpoint, env }, admission: admission(tenant, principal(user)), era: "legacy", protocolVersion: "2025-11-25" }),
    );

  async function connect(user: string): Promise<void> {
    const error = (await ctx(user)
      .token("fixture")
      .catch((thrown: unknown) => thrown)) as { data: { elicitations: { url: string }[] } };
    const state = new URL(error.data.elicitations[0]?.url ?? "").searchParams.get("state") ?? "";
    vi.stubGlobal("fetch", async () => Response.json({ access_token: TOKEN, expires_in: 3600 }));
    const plain = connector.routes({ fetch: () => new Response("mcp") });
    const confirmed = await plain.fetch(
      new Request(`${BASE}/accounts/connect`, { method: "POST", headers: { origin: BASE }, body: new URLSearchParams({ state }) }),
      env,
      {} as ExecutionContext,
    );
    const callback = new Request(`${BASE}/accounts/callback?state=${encodeURIComponent(state)}&code=c`, { headers: { cookie: cookieHeaderOf(confirmed) } });
    expect((await plain.fetch(callback, env, {} as ExecutionContext)).status).toBe(200);
  }

  /** Opens the page and signs in as `user` in one browser: answers the browser's cookies. */
  async function signInAs(user: string, tenant = "acme"): Promise<string> {
    const started = await fetchAt(`/accounts?tenant=${tenant}`);
    expect(started.status).toBe(303);
    const state = new URL(started.headers.get("location") ?? "").searchParams.get("state") ?? "";
    const browser = cookieHeaderOf(started);
    const done = await fetchAt(`/accounts/identify?state=${encodeURIComponent(state)}&code=${user}.${challenges.get(state) ?? ""}`, {
      headers: { cookie: browser },
    });
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe(`${BASE}/accounts?tenant=${tenant}`);
    return `${browser}; ${cookieHeaderOf(done)}`;
  }

  const csrfOf = async (cookie: string, tenant = "acme") =>
    /name="csrf" value="([^"]+)"/.exec(await (await fetchAt(`/accounts?tenant=${tenant}`, { headers: { cookie } })).text())?.[1] ?? "";
  const disconnect = (cookie: string, fields: Record<string, string>, origin: string | undefined = BASE) =>
    fetchAt("/accounts/disconnect", { method: "POST", headers: { cookie, ...(origin === undefined ? {} : { origin }) }, body: new URLSearchParams(fields) });
  const admin = (method: string, path: string, token = ADMIN) => fetchAt(path, { method, headers: { authorization: `Bearer ${token}` } }, "9.9.9.9");
  return { fetchAt, ctx, connect, signInAs, csrfOf, disconnect, admin, challenges };
}

afterEach(() => vi.unstubAllGlobals());

describe("the accounts page", () => {
  it("lists the signed-in principal's accounts without a token, and a disconnect makes the next call ask to connect again", async () => {
    const { connect, signInAs, fetchAt, csrfOf, disconnect, ctx } = setup();
    await connect("ada");
    expect(await ctx("ada").token("fixture")).toBe(TOKEN);
    const cookie = await signInAs("ada");
    const listing = await fetchAt("/accounts?tenant=acme", { headers: { cookie } });
    const html = await listing.text();
    expect(listing.status).toBe(200);
    expect(listing.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(html).toContain("<strong>Fixture</strong>: connected");
    expect(html).toContain("Signed in as <strong>ada</strong>");
    expect(html).not.toContain(TOKEN);
    const done = await disconnect(cookie, { tenant: "acme", provider: "fixture", csrf: await csrfOf(cookie) });
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/accounts?tenant=acme");
    expect(await (await fetchAt("/accounts?tenant=acme", { headers: { cookie } })).text()).toContain("No connected accounts.");
    await expect(ctx("ada").token("fixture")).rejects.toMatchObject({ code: -32042 });
  });

  it("never shows or removes another principal's accounts: bob sees none of ada's, and his disconnect leaves hers", async () => {
    const { connect, signInAs, fetchAt, csrfOf, disconnect, ctx } = setup();
    await connect("ada");
    const bob = await signInAs("bob");
    expect(await (await fetchAt("/accounts?tenant=acme", { headers: { cookie: bob } })).text()).toContain("No connected accounts.");
    await connect("bob");
    expect(await (await fetchAt("/accounts?tenant=acme", { headers: { cookie: bob } })).text()).toContain("<strong>Fixture</strong>: connected");
    expect((await disconnect(bob, { tenant: "acme", provider: "fixture", csrf: await csrfOf(bob) })).status).toBe(303);
    await expect(ctx("bob").token("fixture")).rejects.toMatchObject({ code: -32042 });
    expect(await ctx("ada").token("fixture")).toBe(TOKEN);
    await connect("bob");
    // bob's form token does not work with ada's sign-in, nor ada's with bob's.
    const ada = await signInAs("ada");
    expect((await disconnect(ada, { tenant: "acme", provider: "fixture", csrf: await csrfOf(bob) })).status).toBe(403);
    expect(await ctx("ada").token("fixture")).toBe(TOKEN);
  });

  it("refuses a disconnect without the form's token, from another site, or for another tenant than the sign-in's", async () => {
    const { connect, signInAs, fetchAt, csrfOf, disconnect, ctx } = setup();
    await connect("ada");
    const cookie = await signInAs("ada");
    const csrf = await csrfOf(cookie);
    expect((await disconnect(cookie, { tenant: "acme", provider: "fixture" })).status).toBe(403);
    expect((await disconnect(cookie, { tenant: "acme", provider: "fixture", csrf: "forged" })).status).toBe(403);
    expect((await disconnect(cookie, { tenant: "acme", provider: "fixture", csrf }, "https://evil.test")).status).toBe(403);
    expect((await disconnect("", { tenant: "acme", provider: "fixture", csrf })).status).toBe(403);
    expect((await disconnect(cookie, { tenant: "globex", provider: "fixture", csrf })).status).toBe(403);
    expect((await disconnect(cookie, { tenant: "acme", provider: "bad name", csrf })).status).toBe(400);
    expect((await fetchAt("/accounts/disconnect", { headers: { cookie } })).status).toBe(405);
    expect(await ctx("ada").token("fixture")).toBe(TOKEN);
    // The sign-in of acme does not open globex's page: it signs in again.
    expect((await fetchAt("/accounts?tenant=globex", { headers: { cookie } })).status).toBe(303);
    expect((await fetchAt("/accounts?tenant=Not_A_Tenant", { headers: { cookie } })).status).toBe(400);
  });

  it("counts only a sign-in finished in the browser that started it", async () => {
    const { fetchAt, challenges } = setup();
    const started = await fetchAt("/accounts?tenant=acme");
    const state = new URL(started.headers.get("location") ?? "").searchParams.get("state") ?? "";
    const code = `ada.${challenges.get(state) ?? ""}`;
    const elsewhere = await fetchAt(`/accounts/identify?state=${encodeURIComponent(state)}&code=${code}`, {
      headers: { cookie: "mcp_accounts_browser=" + "x".repeat(32) },
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.get("set-cookie")).toBeNull();
  });

  it("is rate-limited per client address", async () => {
    const { fetchAt } = setup();
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await fetchAt("/accounts?tenant=acme", undefined, "5.5.5.5")).status;
    expect(last).toBe(429);
    expect((await fetchAt("/accounts?tenant=acme", undefined, "6.6.6.6")).status).toBe(303);
  });
});

describe("the accounts admin route", () => {
  const ada = `issuer=${encodeURIComponent(ISSUER)}&subject=ada`;

  it("lists a principal's accounts of one tenant without tokens, and deletes one", async () => {
    const { connect, admin, ctx } = setup();
    await connect("ada");
    const listed = await admin("GET", `/admin/tenants/acme/accounts?${ada}`);
    const text = await listed.text();
    expect(listed.status).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ tenant: "acme", subject: "ada", accounts: [{ provider: "fixture", status: "connected" }] });
    expect(text).not.toContain(TOKEN);
    // Tenant-scoped: the same principal in another tenant has none; another principal has none.
    expect(await (await admin("GET", `/admin/tenants/globex/accounts?${ada}`)).json()).toMatchObject({ accounts: [] });
    expect(await (await admin("GET", `/admin/tenants/acme/accounts?issuer=${encodeURIComponent(ISSUER)}&subject=bob`)).json()).toMatchObject({ accounts: [] });
    expect((await admin("DELETE", `/admin/tenants/globex/accounts/fixture?${ada}`)).status).toBe(404);
    expect(await ctx("ada").token("fixture")).toBe(TOKEN);
    expect((await admin("DELETE", `/admin/tenants/acme/accounts/fixture?${ada}`)).status).toBe(200);
    await expect(ctx("ada").token("fixture")).rejects.toMatchObject({ code: -32042 });
    expect((await admin("DELETE", `/admin/tenants/acme/accounts/fixture?${ada}`)).status).toBe(404);
  });

  it("is off without MCP_ADMIN_TOKEN, refuses a wrong token, and checks its input", async () => {
    expect((await setup(null).admin("GET", `/admin/tenants/acme/accounts?${ada}`)).status).toBe(404);
    const { admin, fetchAt } = setup();
    expect((await admin("GET", `/admin/tenants/acme/accounts?${ada}`, "wrong-token")).status).toBe(401);
    expect((await fetchAt(`/admin/tenants/acme/accounts?${ada}`)).status).toBe(401);
    expect((await admin("GET", `/admin/tenants/acme/accounts?${ada}&token=${ADMIN}`)).status).toBe(401);
    expect((await admin("GET", `/admin/tenants/Acme!/accounts?${ada}`)).status).toBe(400);
    expect((await admin("GET", "/admin/tenants/acme/accounts?subject=ada")).status).toBe(400);
    expect((await admin("GET", `/admin/tenants/acme/accounts/bad%20name?${ada}`)).status).toBe(400);
    expect((await admin("POST", `/admin/tenants/acme/accounts?${ada}`)).status).toBe(405);
    expect((await admin("GET", `/admin/tenants/acme/accounts/fixture?${ada}`)).status).toBe(405);
  });

  it("is rate-limited per client address", async () => {
    const { admin } = setup();
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await admin("GET", `/admin/tenants/acme/accounts?${ada}`)).status;
    expect(last).toBe(429);
  });
});
