// Sign-in end to end: `npm run dev:oauth` (examples/oauth and its local oidc-provider), the official SDK v1
// client's OAuth support registering by DCR and by a loopback Client ID Metadata Document, the consent page
// and the provider's login driven in headless Chromium; then the v2 client and mcp-remote. Each client reaches
// tools/call with a token it obtained itself.
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
  UnauthorizedError as ModernUnauthorizedError,
  type OAuthClientProvider as ModernOAuthClientProvider,
} from "@modelcontextprotocol/client";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePorts } from "../e2e/free-ports.ts";
import { launchChromium } from "./chromium.ts";
import { startDevOAuth, type DevOAuth } from "./dev-oauth.ts";
import { TestOAuthProvider, sdkSignIn, signInInBrowser, startClientSite, type ClientSite } from "./oauth-client.ts";

let dev: DevOAuth | undefined;
let site: ClientSite | undefined;
let chromium: { browser: Browser; close(): Promise<void> } | undefined;

beforeAll(async () => {
  [dev, site, chromium] = await Promise.all([startDevOAuth(), startClientSite(), launchChromium()]);
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  await site?.close();
  await dev?.stop();
});

const text = (result: unknown): string => (result as { content: { text: string }[] }).content[0]?.text ?? "";

const signInWithSdk = (user: string, clientId?: string, scope?: string) => {
  if (!dev || !site || !chromium) throw new Error("not started");
  return sdkSignIn({
    baseUrl: dev.baseUrl,
    site,
    browser: chromium.browser,
    user,
    ...(clientId === undefined ? {} : { clientId }),
    ...(scope === undefined ? {} : { scope }),
  });
};

describe("sign-in through the MCP server's own authorization server", () => {
  it("serves metadata that agree: the 401 names the protected-resource metadata, which names this authorization server, which names the resource", async () => {
    if (!dev) throw new Error("not started");
    const challenge = await fetch(`${dev.baseUrl}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(challenge.status).toBe(401);
    const prmUrl = /resource_metadata="([^"]+)"/.exec(challenge.headers.get("www-authenticate") ?? "")?.[1];
    expect(prmUrl).toBe(`${dev.baseUrl}/.well-known/oauth-protected-resource/mcp`);
    const prm = (await (await fetch(prmUrl ?? "")).json()) as { resource: string; authorization_servers: string[] };
    expect(prm.resource).toBe(`${dev.baseUrl}/mcp`);
    const as = (await (await fetch(`${prm.authorization_servers[0]}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as).toMatchObject({
      issuer: dev.baseUrl,
      protected_resources: [`${dev.baseUrl}/mcp`],
      code_challenge_methods_supported: ["S256"],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
    expect(as["registration_endpoint"]).toBe(`${dev.baseUrl}/oauth/register`);
  });

  it("lets the SDK v1 client register by DCR, sign in through the consent page and the upstream login, and call whoami; the scoped tool is refused without its scope", async () => {
    const { client, provider } = await signInWithSdk("ada");
    try {
      expect(provider.clientInformation()?.client_id).toMatch(/^[A-Za-z0-9_-]+$/);
      const whoami = text(await client.callTool({ name: "whoami", arguments: {} }));
      expect(whoami).toContain("You are Ada Lovelace (ada@example.test)");
      // The principal's subject is the hashed user id: the upstream sub ("ada") is not in it.
      expect(whoami).toMatch(/as user [A-Za-z0-9_-]{32}\./);
      // The client asked for no scope, so the scoped tool is refused at admission (403 insufficient_scope).
      await expect(client.callTool({ name: "profile", arguments: {} })).rejects.toThrow(/insufficient_scope|Insufficient scope|403/);
      // Nothing the tools answered carries a token.
      const tokens = provider.tokens();
      expect(tokens?.access_token).toBeTruthy();
      expect(whoami).not.toContain(tokens?.access_token ?? "-");
    } finally {
      await client.close();
    }
  });

  it("lets the SDK v1 client use a loopback Client ID Metadata Document as its client_id, with the scope the scoped tool needs, and call the upstream API as the user", async () => {
    if (!site) throw new Error("not started");
    const clientId = `${site.origin}/client.json`;
    site.serve("/client.json", {
      client_id: clientId,
      client_name: "CIMD e2e client",
      redirect_uris: [site.callbackUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    });
    const { client, provider } = await signInWithSdk("grace", clientId, "profile:read");
    try {
      expect(provider.authorizationUrl?.searchParams.get("client_id")).toBe(clientId);
      expect(provider.tokens()?.scope).toBe("profile:read");
      expect(text(await client.callTool({ name: "whoami", arguments: {} }))).toContain("Grace Hopper");
      // profile calls the provider's userinfo endpoint with Grace's upstream token.
      const profile = await client.callTool({ name: "profile", arguments: {} });
      expect(profile.structuredContent).toMatchObject({ sub: "grace", name: "Grace Hopper", email: "grace@example.test" });
      expect(JSON.stringify(profile)).not.toContain(provider.tokens()?.access_token ?? "-");
    } finally {
      await client.close();
    }
  });

  it("lets the v2 client (2026-07-28, stateless) register by DCR, sign in in the browser and call whoami with the token it obtained", async () => {
    if (!dev || !site || !chromium) throw new Error("not started");
    const { browser } = chromium;
    const callbackUrl = site.callbackUrl;
    const mcpUrl = new URL(`${dev.baseUrl}/mcp`);
    let browsing: Promise<string[]> | undefined;
    const provider = new TestOAuthProvider(callbackUrl, (url) => {
      browsing = signInInBrowser(browser, url.href, "grace", callbackUrl);
    }) as unknown as ModernOAuthClientProvider;
    const options = { versionNegotiation: { mode: { pin: "2026-07-28" }, probe: { maxRetries: 0 } } } as const;
    const first = new ModernClient({ name: "edge-mcp-e2e-oauth-v2", version: "0.0.0" }, options);
    await expect(first.connect(new ModernTransport(mcpUrl, { authProvider: provider }))).rejects.toBeInstanceOf(ModernUnauthorizedError);
    const callback = await site.nextCallback();
    await browsing;
    await new ModernTransport(mcpUrl, { authProvider: provider }).finishAuth(callback);
    const client = new ModernClient({ name: "edge-mcp-e2e-oauth-v2", version: "0.0.0" }, options);
    await client.connect(new ModernTransport(mcpUrl, { authProvider: provider }));
    try {
      expect(text(await client.callTool({ name: "whoami", arguments: {} }))).toContain("You are Grace Hopper (grace@example.test)");
    } finally {
      await client.close();
    }
  });

  it("lets mcp-remote register by DCR, print its authorization URL, take the browser's callback and relay tools/call over stdio", async () => {
    if (!dev || !chromium) throw new Error("not started");
    const { browser } = chromium;
    const [callbackPort] = await freePorts(1);
    const config = mkdtempSync(join(tmpdir(), "edge-mcp-mcp-remote-"));
    const proxy = fileURLToPath(new URL("../../node_modules/mcp-remote/dist/proxy.js", import.meta.url));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [proxy, `${dev.baseUrl}/mcp`, String(callbackPort), "--host", "127.0.0.1", "--allow-http"],
      // No browser to open here (BROWSER is a command that fails): mcp-remote prints the URL, the test's browser follows it.
      env: { ...(process.env as Record<string, string>), MCP_REMOTE_CONFIG_DIR: config, BROWSER: "false", DISPLAY: "" },
      stderr: "pipe",
    });
    let log = "";
    let browsing: Promise<string[]> | undefined;
    transport.stderr?.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      const url = /Please authorize this client by visiting:\s+(\S+)/.exec(log)?.[1];
      if (url !== undefined && browsing === undefined) browsing = signInInBrowser(browser, url, "ada", `http://127.0.0.1:${callbackPort}/`);
    });
    const client = new Client({ name: "edge-mcp-e2e-mcp-remote", version: "0.0.0" });
    try {
      await client.connect(transport);
      expect(await browsing).toBeDefined();
      expect(text(await client.callTool({ name: "whoami", arguments: {} }))).toContain("You are Ada Lovelace");
    } catch (error) {
      throw new Error(`mcp-remote failed: ${String(error)}\n--- its log ---\n${log}`, { cause: error });
    } finally {
      await client.close();
      rmSync(config, { recursive: true, force: true });
    }
  }, 60_000);
});
