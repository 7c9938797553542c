import { afterEach, describe, expect, it, vi } from "vitest";
import { accountsSettings } from "../../../../src/workers/accounts/accounts-settings.ts";
import type { AccountProvider, ResolvedProvider } from "../../../../src/workers/accounts/account-provider.ts";
import { connectRoutes } from "../../../../src/workers/accounts/connect-routes.ts";
import { signConnectState } from "../../../../src/workers/accounts/connect-state.ts";
import { cookieHeaderOf, memoryNamespace } from "./memory-namespace.ts";

const KEY = "k".repeat(43);
const BASE = "https://mcp.test";
const FIXTURE: AccountProvider<Env> = {
  authorizationEndpoint: "https://provider.test/authorize",
  tokenEndpoint: "https://provider.test/token",
  clientId: "client",
};

interface Env {
  MCP_ACCOUNTS_KEY: string;
  MCP_ACCOUNTS: unknown;
}

const ADA = { tenant: "acme", issuer: "https://as.test", subject: "ada" };

function setup(signIn?: Parameters<typeof accountsSettings<Env>>[0]["signIn"]) {
  const settings = accountsSettings<Env>({
    providers: (tenant) => (tenant === "acme" ? { fixture: FIXTURE } : undefined),
    baseUrl: BASE,
    ...(signIn === undefined ? {} : { signIn }),
  });
  const next = vi.fn(() => new Response("the MCP Worker"));
  const routes = connectRoutes(settings, { fetch: next });
  const env: Env = { MCP_ACCOUNTS_KEY: KEY, MCP_ACCOUNTS: memoryNamespace(KEY) };
  // A pending connect in ada's object, as ctx.accounts.token makes one.
  const link = async (owner = ADA, provider = "fixture") => {
    const resolved: ResolvedProvider = {
      name: provider,
      title: provider,
      authorizationEndpoint: "https://provider.test/authorize",
      tokenEndpoint: "https://provider.test/token",
      clientId: "client",
      tokenAuth: "basic",
      scopes: [],
      authorizationParams: {},
    };
    const answer = await settings.object(env, owner).token(owner, "MCP_ACCOUNTS_KEY", resolved);
    if (answer.kind !== "connect") throw new Error("expected connect");
    return signConnectState(await settings.keys(env), { ...owner, provider, nonce: answer.nonce, expiresAt: answer.expiresAt });
  };
  const get = (path: string, init?: RequestInit) => routes.fetch(new Request(`${BASE}${path}`, init), env, {} as ExecutionContext);
  /** Confirms a link as a browser does: the cookies the confirmation set, as a Cookie header. */
  const confirm = async (state: string, cookie = "") => {
    const response = await get("/accounts/connect", { method: "POST", headers: { origin: BASE, cookie }, body: new URLSearchParams({ state }) });
    expect(response.status).toBe(303);
    return cookieHeaderOf(response);
  };
  return { settings, env, next, link, get, confirm };
}

afterEach(() => vi.unstubAllGlobals());

describe("connect routes", () => {
  it("passes every other path to the Worker", async () => {
    const { get, next } = setup();
    expect(await (await get("/mcp")).text()).toBe("the MCP Worker");
    expect(next).toHaveBeenCalledOnce();
  });

  it("shows a confirmation naming the principal and the provider, in a page that cannot be framed", async () => {
    const { get, link } = setup();
    const response = await get(`/accounts/connect?state=${encodeURIComponent(await link())}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const html = await response.text();
    expect(html).toContain("<strong>ada (signed in with https://as.test)</strong> is linking a <strong>fixture</strong> account");
    expect(html).toContain('id="connect"');
  });

  it("sends the confirmed browser to the provider with PKCE S256, the signed state and the registered callback", async () => {
    const { get, link } = setup();
    const state = await link();
    const response = await get("/accounts/connect", { method: "POST", headers: { origin: BASE }, body: new URLSearchParams({ state }) });
    expect(response.status).toBe(303);
    const target = new URL(response.headers.get("location") ?? "");
    expect(target.origin + target.pathname).toBe("https://provider.test/authorize");
    expect(Object.fromEntries(target.searchParams)).toMatchObject({
      response_type: "code",
      client_id: "client",
      redirect_uri: `${BASE}/accounts/callback`,
      state,
      code_challenge_method: "S256",
    });
    expect(target.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("refuses a confirmation posted from another site", async () => {
    const { get, link } = setup();
    const response = await get("/accounts/connect", {
      method: "POST",
      headers: { origin: "https://evil.test" },
      body: new URLSearchParams({ state: await link() }),
    });
    expect(response.status).toBe(403);
  });

  it("stores the account at the callback once: the replayed callback and the used link get a clear 400 page", async () => {
    const { get, link, confirm } = setup();
    const state = await link();
    const cookie = await confirm(state);
    vi.stubGlobal("fetch", async () => Response.json({ access_token: "upstream-access", refresh_token: "upstream-refresh", expires_in: 3600 }));
    const callback = `/accounts/callback?state=${encodeURIComponent(state)}&code=good`;
    const first = await get(callback, { headers: { cookie } });
    expect(first.status).toBe(200);
    const page = await first.text();
    expect(page).toContain("Connected fixture for ada");
    expect(page).not.toContain("upstream-access");
    for (const again of [await get(callback, { headers: { cookie } }), await get(`/accounts/connect?state=${encodeURIComponent(state)}`)]) {
      expect(again.status).toBe(400);
      expect(await again.text()).toContain("already used or has expired");
    }
  });

  it("finishes a connect only in the browser that confirmed it: the provider URL forwarded to another browser does not link", async () => {
    const { get, link, confirm } = setup();
    const state = await link();
    await confirm(state);
    const fetched = vi.fn(async () => Response.json({ access_token: "victim-access", expires_in: 3600 }));
    vi.stubGlobal("fetch", fetched);
    const callback = `/accounts/callback?state=${encodeURIComponent(state)}&code=victims-code`;
    const elsewhere = await get(callback);
    expect(elsewhere.status).toBe(403);
    expect(await elsewhere.text()).toContain("started in another browser");
    const otherBrowser = await get(callback, { headers: { cookie: `mcp_accounts_browser=${"z".repeat(32)}; mcp_accounts_confirmed=forged` } });
    expect(otherBrowser.status).toBe(403);
    expect(fetched).not.toHaveBeenCalled();
  });

  it("refuses a forged, a malformed and a missing state with a clear 400 page", async () => {
    const { get, link } = setup();
    const state = await link();
    const forged = `${state.slice(0, -3)}AAA`;
    for (const path of [
      `/accounts/connect?state=${encodeURIComponent(forged)}`,
      "/accounts/connect?state=nope",
      "/accounts/connect",
      "/accounts/callback?code=x",
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(400);
      expect(await response.text()).toContain("This connect link is not valid");
    }
  });

  it("refuses an expired link", async () => {
    const { get, settings, env } = setup();
    const expired = await signConnectState(await settings.keys(env), { ...ADA, provider: "fixture", nonce: "n", expiresAt: Date.now() - 1 });
    const response = await get(`/accounts/connect?state=${encodeURIComponent(expired)}`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("expired");
  });

  it("refuses a link of a tenant that has no such provider (tenant B never sees tenant A's providers)", async () => {
    const { get, settings, env } = setup();
    const otherTenant = await signConnectState(await settings.keys(env), {
      ...ADA,
      tenant: "globex",
      provider: "fixture",
      nonce: "n",
      expiresAt: Date.now() + 60_000,
    });
    expect((await get(`/accounts/connect?state=${encodeURIComponent(otherTenant)}`)).status).toBe(400);
    expect(await settings.providerOf(env, "globex", "fixture")).toBeUndefined();
    expect(await settings.providerOf(env, "acme", "constructor")).toBeUndefined();
  });

  it("refuses a link whose nonce names another principal's pending connect (a guessed or swapped state)", async () => {
    const { get, settings, env, link } = setup();
    const adas = await link();
    const fields = JSON.parse(Buffer.from(adas.split(".")[0] ?? "", "base64url").toString()) as string[];
    const nonce = fields[5] ?? "";
    const asBob = await signConnectState(await settings.keys(env), { ...ADA, subject: "bob", provider: "fixture", nonce, expiresAt: Date.now() + 60_000 });
    expect((await get(`/accounts/connect?state=${encodeURIComponent(asBob)}`)).status).toBe(400);
  });

  it("rate-limits the routes per client address", async () => {
    const { get } = setup();
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) statuses.push((await get("/accounts/connect", { headers: { "cf-connecting-ip": "198.51.100.7" } })).status);
    expect(statuses.slice(0, 30).every((status) => status === 400)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429]);
  });

  it("with a sign-in, sends the browser to sign in first and refuses one signed in as someone else", async () => {
    const signIn = {
      authorizationUrl: vi.fn(
        async (request: { redirectUri: string; state: string }) => `https://idp.test/authorize?redirect_uri=${encodeURIComponent(request.redirectUri)}`,
      ),
      principal: vi.fn(async () => ({ issuer: "https://as.test", subject: "mallory" })),
    };
    const { get, link } = setup(signIn);
    const state = await link();
    const first = await get(`/accounts/connect?state=${encodeURIComponent(state)}`);
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toContain(encodeURIComponent(`${BASE}/accounts/identify`));
    const browser = /mcp_accounts_browser=([^;]+)/.exec(first.headers.get("set-cookie") ?? "")?.[1] ?? "";
    const identified = await get(`/accounts/identify?state=${encodeURIComponent(state)}&code=c`, { headers: { cookie: `mcp_accounts_browser=${browser}` } });
    expect(identified.status).toBe(403);
    expect(await identified.text()).toContain("made for another user");
    // Skipping the sign-in does not help: the confirmation's POST needs the proof cookie.
    const posted = await get("/accounts/connect", {
      method: "POST",
      headers: { origin: BASE, cookie: `mcp_accounts_browser=${browser}` },
      body: new URLSearchParams({ state }),
    });
    expect(posted.status).toBe(403);
  });

  it("with a sign-in as the link's principal, shows the confirmation", async () => {
    const signIn = { authorizationUrl: async () => "https://idp.test/authorize", principal: async () => ({ issuer: "https://as.test", subject: "ada" }) };
    const { get, link } = setup(signIn);
    const state = await link();
    const first = await get(`/accounts/connect?state=${encodeURIComponent(state)}`);
    const browser = /mcp_accounts_browser=([^;]+)/.exec(first.headers.get("set-cookie") ?? "")?.[1] ?? "";
    const identified = await get(`/accounts/identify?state=${encodeURIComponent(state)}&code=c`, { headers: { cookie: `mcp_accounts_browser=${browser}` } });
    expect(identified.status).toBe(303);
    const proof = /mcp_accounts_signed_in=([^;]+)/.exec(identified.headers.get("set-cookie") ?? "")?.[1] ?? "";
    const cookie = `mcp_accounts_browser=${browser}; mcp_accounts_signed_in=${proof}`;
    expect((await get(`/accounts/connect?state=${encodeURIComponent(state)}`, { headers: { cookie } })).status).toBe(200);
    // The proof is for this browser: another browser's cookie does not carry it.
    expect(
      (
        await get(`/accounts/connect?state=${encodeURIComponent(state)}`, {
          headers: { cookie: `mcp_accounts_browser=${"x".repeat(32)}; mcp_accounts_signed_in=${proof}` },
        })
      ).status,
    ).toBe(303);
  });
});
