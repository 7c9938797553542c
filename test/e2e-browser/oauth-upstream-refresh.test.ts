// The upstream token refreshed with the grant: `npm run dev:oauth` with the local provider's sign-in tokens living 100 s.
// The MCP access token then lives no longer than the upstream one; a client's refresh refreshes the upstream token
// (the provider counts it), and a tool calls the upstream API with the fresh one. A provider that refuses the refresh
// ends the grant: the client gets invalid_grant, and its tokens stop working.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./chromium.ts";
import { startDevOAuth, type DevOAuth } from "./dev-oauth.ts";
import { TestOAuthProvider, sdkSignIn, startClientSite, tokenRequest, type ClientSite } from "./oauth-client.ts";

/** The sign-in's upstream access tokens live this long at the local provider. */
const UPSTREAM_SECONDS = 100;

let dev: DevOAuth | undefined;
let site: ClientSite | undefined;
let chromium: { browser: Browser; close(): Promise<void> } | undefined;

beforeAll(async () => {
  [dev, site, chromium] = await Promise.all([startDevOAuth({ DEV_OAUTH_SIGN_IN_ACCESS_TTL: String(UPSTREAM_SECONDS) }), startClientSite(), launchChromium()]);
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  await site?.close();
  await dev?.stop();
});

const started = () => {
  if (!dev || !site || !chromium) throw new Error("not started");
  return { dev, site, browser: chromium.browser };
};

const signInGrants = async (): Promise<{ authorization_code: number; refresh_token: number }> =>
  (await (await fetch(`${started().dev.issuer}/dev/sign-in-grants`)).json()) as { authorization_code: number; refresh_token: number };

/** A client that starts with the tokens given (no sign-in of its own). */
async function clientWith(tokens: OAuthTokens, clientId: string): Promise<Client> {
  const { dev, site } = started();
  const provider = new TestOAuthProvider(site.callbackUrl, () => {
    throw new Error("the client was sent to sign in again");
  });
  provider.saveClientInformation({ client_id: clientId });
  provider.saveTokens(tokens);
  const client = new Client({ name: "refreshed", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${dev.baseUrl}/mcp`), { authProvider: provider }));
  return client;
}

describe("the upstream token, refreshed with the grant", () => {
  it("gives an MCP token that ends before the upstream one; a refresh refreshes the upstream token, and the tool calls the API with it", async () => {
    const { dev, site, browser } = started();
    const { client, provider } = await sdkSignIn({ baseUrl: dev.baseUrl, site, browser, user: "ada", scope: "profile:read" });
    const clientId = provider.clientInformation()?.client_id ?? "";
    try {
      const first = provider.tokens();
      // 100 s upstream, less 30 s of margin: about 70 s (seconds are rounded on both sides), never the default hour.
      expect(first?.expires_in).toBeGreaterThanOrEqual(60);
      expect(first?.expires_in).toBeLessThanOrEqual(UPSTREAM_SECONDS - 29);
      expect((await client.callTool({ name: "profile", arguments: {} })).structuredContent).toMatchObject({ sub: "ada" });
    } finally {
      await client.close();
    }
    const before = await signInGrants();
    const refreshed = await tokenRequest(dev.baseUrl, {
      grant_type: "refresh_token",
      refresh_token: provider.tokens()?.refresh_token ?? "",
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
    // The upstream token had under two minutes left, so the provider saw one refresh of it.
    expect((await signInGrants()).refresh_token).toBe(before.refresh_token + 1);
    expect(refreshed.body["expires_in"]).toBeLessThanOrEqual(UPSTREAM_SECONDS - 29);
    const again = await clientWith(refreshed.body as unknown as OAuthTokens, clientId);
    try {
      const profile = await again.callTool({ name: "profile", arguments: {} });
      expect(profile.structuredContent).toMatchObject({ sub: "ada", name: "Ada Lovelace" });
    } finally {
      await again.close();
    }
    // The provider rotated its refresh token and the grant keeps the new one: a second refresh works too.
    const second = await tokenRequest(dev.baseUrl, {
      grant_type: "refresh_token",
      refresh_token: String(refreshed.body["refresh_token"]),
      client_id: clientId,
    });
    expect(second.status).toBe(200);
    expect((await signInGrants()).refresh_token).toBe(before.refresh_token + 2);
    expect(dev.output()).not.toContain(String(second.body["access_token"]));
  });

  it("ends the grant when the provider refuses the refresh: invalid_grant, and the client's access token stops working", async () => {
    const { dev, site, browser } = started();
    const { client, provider } = await sdkSignIn({ baseUrl: dev.baseUrl, site, browser, user: "grace" });
    const clientId = provider.clientInformation()?.client_id ?? "";
    const tokens = provider.tokens();
    await client.close();
    // Grace removes the app at the provider.
    const revoked = (await (await fetch(`${dev.issuer}/dev/revoke-sign-in?account=grace`, { method: "POST" })).json()) as { revoked: number };
    expect(revoked.revoked).toBeGreaterThan(0);
    const refused = await tokenRequest(dev.baseUrl, { grant_type: "refresh_token", refresh_token: tokens?.refresh_token ?? "", client_id: clientId });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: "invalid_grant", error_description: "the upstream sign-in has ended; sign in again" });
    // The grant is gone with every token of it: the access token that worked a moment ago is refused.
    const call = await fetch(`${dev.baseUrl}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${tokens?.access_token ?? ""}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(call.status).toBe(401);
    // The provider's own words stay in the log (wrangler prints it a moment later); nothing of the refresh token is printed.
    await expect.poll(() => dev.output(), { timeout: 5_000 }).toContain("refused to refresh");
    expect(dev.output()).not.toContain(tokens?.refresh_token ?? "-");
  });
});
