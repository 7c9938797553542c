// An authorization server per tenant, end to end: a multi-tenant Worker with tenantSignIn() under wrangler dev, two
// path-routed tenants and a host-routed one stored through the admin API (each with its upstream client secret as a
// tenant secret), the local oidc-provider, and the official SDK v1 client signing in at a tenant through Chromium and
// calling a tool. The token is then refused at another tenant with that tenant's own challenge.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWranglerDev, type WranglerDev } from "../e2e/wrangler-dev.ts";
import { launchChromium } from "./chromium.ts";
import { TestOAuthProvider, signInInBrowser, startClientSite, type ClientSite } from "./oauth-client.ts";

/** scripts/local-oidc-provider.mjs (plain JavaScript, loaded by URL so the type check does not read it). */
interface LocalOidc {
  DEV_CLIENT: { clientId: string; clientSecret: string };
  freePortFrom(from: number): Promise<number>;
  startLocalOidcProvider(options: { port: number; workerOrigins: string[]; quiet?: boolean }): Promise<{ issuer: string; stop(): Promise<void> }>;
}
const local = (await import(new URL("../../scripts/local-oidc-provider.mjs", import.meta.url).href)) as LocalOidc;
const { DEV_CLIENT } = local;

const ADMIN = "fixture-admin-token-not-for-production";
const persist = mkdtempSync(join(tmpdir(), "edge-mcp-tenant-sign-in-"));
let wrangler: WranglerDev | undefined;
let oidc: { issuer: string; stop(): Promise<void> } | undefined;
let site: ClientSite | undefined;
let chromium: { browser: Browser; close(): Promise<void> } | undefined;

async function admin(method: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${wrangler?.baseUrl ?? ""}/admin/tenants${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

const tenant = (id: string, issuer: string, hosts?: string[]) => ({
  id,
  ...(hosts ? { hosts } : { pathPrefix: `/t/${id}` }),
  modules: [{ name: "tools" }],
  server: { title: `${id} tools` },
  signIn: { issuer, clientId: DEV_CLIENT.clientId, clientSecret: { tenantSecret: "oidc" }, upstreamName: "the local provider" },
});

beforeAll(async () => {
  [wrangler, site, chromium] = await Promise.all([
    startWranglerDev({ name: "tenant sign-in fixture", configPath: "test/e2e/fixtures/tenant-sign-in/wrangler.toml", args: ["--persist-to", persist] }),
    startClientSite(),
    launchChromium(),
  ]);
  const base = wrangler.baseUrl;
  const port = Number(new URL(base).port);
  // The provider's dev client takes the callbacks of both tenants' authorization servers.
  oidc = await local.startLocalOidcProvider({
    port: await local.freePortFrom(port + 1),
    workerOrigins: [`${base}/t/acme`, `${base}/t/globex`, localBase()],
    quiet: true,
  });
  for (const id of ["acme", "globex", "initech"]) {
    const secret = await admin("PUT", `/${id}/secrets/oidc`, { value: DEV_CLIENT.clientSecret });
    if (!secret.ok) throw new Error(`secret of ${id}: ${secret.status} ${await secret.text()}`);
  }
  const stored = await admin("POST", "", {
    tenants: [tenant("acme", oidc.issuer), tenant("globex", oidc.issuer), tenant("initech", oidc.issuer, ["localhost"])],
  });
  if (!stored.ok) throw new Error(`tenants: ${stored.status} ${await stored.text()}`);
}, 120_000);

/** The host-routed tenant initech is the Worker reached as localhost (the path-routed ones are at 127.0.0.1). */
function localBase(): string {
  return (wrangler?.baseUrl ?? "").replace("127.0.0.1", "localhost");
}

/** The SDK v1 client's own flow at `mcpUrl`: 401, sign-in in Chromium, the code, connected again with the token. */
async function sdkSignInAt(mcpUrl: URL, user: string): Promise<{ client: Client; provider: TestOAuthProvider; callback: URLSearchParams; pages: string[] }> {
  if (!site || !chromium) throw new Error("not started");
  let browsing: Promise<string[]> | undefined;
  const browser = chromium.browser;
  const callbackUrl = site.callbackUrl;
  const provider = new TestOAuthProvider(callbackUrl, (url) => {
    browsing = signInInBrowser(browser, url.href, user, callbackUrl);
  });
  const first = new Client({ name: "edge-mcp-e2e-tenant-sign-in", version: "0.0.0" });
  const refused = await first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(refused instanceof UnauthorizedError)) throw new Error(`expected the first connect to need sign-in; got ${String(refused)}`);
  const callback = await site.nextCallback();
  const pages = (await browsing) ?? [];
  await new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }).finishAuth(callback.get("code") ?? "");
  const client = new Client({ name: "edge-mcp-e2e-tenant-sign-in", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  return { client, provider, callback, pages };
}

afterAll(async () => {
  await chromium?.close();
  await site?.close();
  await wrangler?.stop();
  await oidc?.stop();
  rmSync(persist, { recursive: true, force: true });
});

describe("an authorization server per tenant, with the SDK v1 client", () => {
  it("serves each tenant's RFC 8414 path-inserted metadata, which its 401 and protected-resource metadata name", async () => {
    if (!wrangler) throw new Error("not started");
    const base = wrangler.baseUrl;
    for (const id of ["acme", "globex"]) {
      const challenge = await fetch(`${base}/t/${id}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(challenge.status).toBe(401);
      const prmUrl = /resource_metadata="([^"]+)"/.exec(challenge.headers.get("www-authenticate") ?? "")?.[1];
      expect(prmUrl).toBe(`${base}/.well-known/oauth-protected-resource/t/${id}/mcp`);
      const prm = (await (await fetch(prmUrl ?? "")).json()) as { resource: string; authorization_servers: string[] };
      expect(prm).toMatchObject({ resource: `${base}/t/${id}/mcp`, authorization_servers: [`${base}/t/${id}`] });
      const as = (await (await fetch(`${base}/.well-known/oauth-authorization-server/t/${id}`)).json()) as Record<string, unknown>;
      expect(as).toMatchObject({
        issuer: `${base}/t/${id}`,
        authorization_endpoint: `${base}/t/${id}/authorize`,
        token_endpoint: `${base}/t/${id}/oauth/token`,
        registration_endpoint: `${base}/t/${id}/oauth/register`,
        code_challenge_methods_supported: ["S256"],
      });
    }
  });

  it("lets the SDK v1 client register, sign in at acme through Chromium and the provider's login, and call whoami; acme's token is refused at globex", async () => {
    if (!wrangler || !site || !chromium) throw new Error("not started");
    const base = wrangler.baseUrl;
    const { client, provider, callback, pages } = await sdkSignInAt(new URL(`${base}/t/acme/mcp`), "ada");
    try {
      // The SDK found acme's authorization server from its metadata: the browser went to acme's endpoints, then the provider.
      expect(provider.authorizationUrl?.href.startsWith(`${base}/t/acme/authorize?`)).toBe(true);
      expect(pages.some((url) => url.startsWith(oidc?.issuer ?? "-"))).toBe(true);
      expect(callback.get("iss")).toBe(`${base}/t/acme`);
      const result = await client.callTool({ name: "whoami", arguments: {} });
      expect(result.content).toEqual([{ type: "text", text: `You are Ada Lovelace at ${base}/t/acme.` }]);
    } finally {
      await client.close();
    }

    const token = provider.tokens()?.access_token ?? "";
    expect(token).not.toBe("");
    const atGlobex = await fetch(`${base}/t/globex/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } }),
    });
    expect(atGlobex.status).toBe(401);
    expect(atGlobex.headers.get("www-authenticate")).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource/t/globex/mcp"`);
  });

  it("lets the SDK v1 client sign in at the host-routed tenant (issuer = its origin) and call whoami; that token is refused at acme", async () => {
    if (!wrangler) throw new Error("not started");
    const local = localBase();
    const { client, provider, callback } = await sdkSignInAt(new URL(`${local}/mcp`), "grace");
    try {
      expect(provider.authorizationUrl?.href.startsWith(`${local}/authorize?`)).toBe(true);
      expect(callback.get("iss")).toBe(local);
      const result = await client.callTool({ name: "whoami", arguments: {} });
      expect(result.content).toEqual([{ type: "text", text: `You are Grace Hopper at ${local}.` }]);
    } finally {
      await client.close();
    }
    const atAcme = await fetch(`${wrangler.baseUrl}/t/acme/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${provider.tokens()?.access_token ?? ""}`,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } }),
    });
    expect(atAcme.status).toBe(401);
  });
});
