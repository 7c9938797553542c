// Connected accounts end to end: `npm run dev:oauth` (examples/oauth, its local oidc-provider as the sign-in
// provider and as the `fixture` provider of connected accounts), the SDK v1 client signed in through Chromium, and
// `whoami_upstream`, which calls the provider's userinfo API with the user's connected account. The first call
// answers -32042 with a connect URL; Chromium follows it through the confirmation page and the provider's login;
// the retried call succeeds; an expired access token is refreshed once for 20 concurrent calls; a revoked grant
// asks to connect again. A 2026-07-28 call gets the URL request in `input_required`. `whoami_exchanged` exchanges
// the account's token at the provider (RFC 8693) once for concurrent calls. Traces go to a collector in this
// process and usage to the Worker's roll-ups; neither, nor the Worker's output, holds a token the provider issued.
import { createServer, type Server } from "node:http";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./chromium.ts";
import { freePorts } from "../e2e/free-ports.ts";
import { startDevOAuth, type DevOAuth } from "./dev-oauth.ts";
import { sdkSignIn, startClientSite, type ClientSite, type TestOAuthProvider } from "./oauth-client.ts";

/** Seconds the connected accounts' access tokens live at the local provider in this run. */
const ACCESS_TTL = 4;

const ADMIN_TOKEN = "local-e2e-admin-token-not-for-production";

let dev: DevOAuth | undefined;
let site: ClientSite | undefined;
let chromium: { browser: Browser; close(): Promise<void> } | undefined;
/** An OTLP/HTTP collector on loopback: the bodies of the trace exports it received. */
let collector: { server: Server; exports: string[] } | undefined;

async function startCollector(port: number): Promise<{ server: Server; exports: string[] }> {
  const exports: string[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      if (request.url === "/v1/traces") exports.push(body);
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { server, exports };
}

beforeAll(async () => {
  const [collectorPort] = await freePorts(1);
  collector = await startCollector(collectorPort ?? 0);
  [dev, site, chromium] = await Promise.all([
    startDevOAuth({
      DEV_OAUTH_ACCOUNTS_ACCESS_TTL: String(ACCESS_TTL),
      DEV_OAUTH_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`,
      DEV_OAUTH_ADMIN_TOKEN: ADMIN_TOKEN,
    }),
    startClientSite(),
    launchChromium(),
  ]);
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  await site?.close();
  await dev?.stop();
  await new Promise((resolve) => collector?.server.close(resolve));
});

function started(): { dev: DevOAuth; site: ClientSite; browser: Browser } {
  if (!dev || !site || !chromium) throw new Error("not started");
  return { dev, site, browser: chromium.browser };
}

const text = (result: unknown): string => (result as { content: { text: string }[] }).content[0]?.text ?? "";

/** The connect URL of a call answered with -32042 (2025-11-25 URL elicitation required). */
async function connectUrlOf(client: Client): Promise<{ url: string; elicitationId: string }> {
  const error = await client.callTool({ name: "whoami_upstream", arguments: {} }).then(
    (result) => new Error(`expected -32042, got a result: ${JSON.stringify(result)}`),
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof McpError) || error.code !== -32042) throw error;
  const elicitation = (error.data as { elicitations: { mode: string; url: string; elicitationId: string }[] }).elicitations[0];
  expect(elicitation?.mode).toBe("url");
  return { url: elicitation?.url ?? "", elicitationId: elicitation?.elicitationId ?? "" };
}

/**
 * Follows a connect URL in a fresh browser context: the sign-in as `user` at the Worker's provider, the
 * confirmation, the provider's consent for the accounts client, to the callback page (or a page that
 * refuses); the confirmation's text and the last page's.
 */
async function connectInBrowser(url: string, user: string): Promise<{ confirmation: string; final: string }> {
  const { dev, browser } = started();
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  let confirmation = "";
  try {
    await page.goto(url, { waitUntil: "domcontentloaded" });
    for (let step = 0; step < 12; step++) {
      const final = page.url().startsWith(`${dev.baseUrl}/accounts/`) && !(await page.$("#connect")) && !(await page.$("form"));
      if (final) return { confirmation, final: await page.$eval("body", (body) => body.innerText) };
      const navigation = page.waitForNavigation({ waitUntil: "domcontentloaded", timeout: 20_000 });
      if (await page.$("#connect")) {
        confirmation = await page.$eval("body", (body) => body.innerText);
        await page.click("#connect");
      } else if (await page.$("input[name=login]")) {
        await page.type("input[name=login]", user);
        await page.type("input[name=password]", "any-password");
        await page.click("button[type=submit]");
      } else if (await page.$("button[type=submit]")) await page.click("button[type=submit]");
      else throw new Error(`connect stuck at ${page.url()}: ${(await page.content()).slice(0, 500)}`);
      await navigation;
    }
    throw new Error(`connect did not reach the callback: ${page.url()}`);
  } finally {
    await context.close();
  }
}

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";

async function tokenGrants(): Promise<{ authorization_code: number; refresh_token: number; [TOKEN_EXCHANGE]: number }> {
  return (await fetch(`${started().dev.issuer}/dev/accounts-grants`)).json() as Promise<{
    authorization_code: number;
    refresh_token: number;
    [TOKEN_EXCHANGE]: number;
  }>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("connected accounts through the oauth example", () => {
  let ada: { client: Client; provider: TestOAuthProvider } | undefined;

  it("answers the first call with a URL elicitation, connects in the browser, and the retried call acts as the user", async () => {
    const { dev, site, browser } = started();
    ada = await sdkSignIn({ baseUrl: dev.baseUrl, site, browser, user: "ada" });
    const { url, elicitationId } = await connectUrlOf(ada.client);
    expect(url.startsWith(`${dev.baseUrl}/accounts/connect?state=`)).toBe(true);
    expect(elicitationId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const { confirmation, final } = await connectInBrowser(url, "ada");
    expect(confirmation).toContain("is linking a the fixture provider account");
    expect(final).toContain("Connected the fixture provider for");
    expect(text(await ada.client.callTool({ name: "whoami_upstream", arguments: {} }))).toBe("At the fixture provider you are Ada Lovelace (sub ada).");
    // The link works once: opened again, it is refused with a clear page.
    const replay = await fetch(url);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain("already used or has expired");
  });

  it("exchanges the account's token for the fixture API's audience at the provider (RFC 8693) once for 10 concurrent calls", async () => {
    if (!ada) throw new Error("needs the first test");
    const client = ada.client;
    const before = await tokenGrants();
    const results = await Promise.all(Array.from({ length: 10 }, () => client.callTool({ name: "whoami_exchanged", arguments: {} })));
    expect(new Set(results.map(text))).toEqual(new Set(["At the fixture API (audience https://api.fixture.example) you are sub ada."]));
    expect((await tokenGrants())[TOKEN_EXCHANGE] - before[TOKEN_EXCHANGE]).toBe(1);
    // Kept until it expires: the next call exchanges nothing.
    expect(text(await client.callTool({ name: "whoami_exchanged", arguments: {} }))).toContain("you are sub ada");
    expect((await tokenGrants())[TOKEN_EXCHANGE] - before[TOKEN_EXCHANGE]).toBe(1);
  });

  it("refreshes an expired access token once for 20 concurrent calls", async () => {
    if (!ada) throw new Error("needs the first test");
    const before = await tokenGrants();
    await sleep(ACCESS_TTL * 1000 + 500);
    const client = ada.client;
    const results = await Promise.all(Array.from({ length: 20 }, () => client.callTool({ name: "whoami_upstream", arguments: {} })));
    expect(new Set(results.map(text))).toEqual(new Set(["At the fixture provider you are Ada Lovelace (sub ada)."]));
    expect((await tokenGrants()).refresh_token - before.refresh_token).toBe(1);
  });

  it("keeps principals apart: grace is asked to connect her own account and never gets ada's", async () => {
    const { dev, site, browser } = started();
    const grace = await sdkSignIn({ baseUrl: dev.baseUrl, site, browser, user: "grace" });
    const { url } = await connectUrlOf(grace.client);
    await connectInBrowser(url, "grace");
    expect(text(await grace.client.callTool({ name: "whoami_upstream", arguments: {} }))).toBe("At the fixture provider you are Grace Hopper (sub grace).");
    expect(text(await ada?.client.callTool({ name: "whoami_upstream", arguments: {} }))).toBe("At the fixture provider you are Ada Lovelace (sub ada).");
  });

  it("refuses a connect link forwarded to another user: a browser signed in as mallory cannot link her account to carol", async () => {
    const { dev, site, browser } = started();
    const carol = await sdkSignIn({ baseUrl: dev.baseUrl, site, browser, user: "carol" });
    const { url } = await connectUrlOf(carol.client);
    const { confirmation, final } = await connectInBrowser(url, "mallory");
    expect(confirmation).toBe("");
    expect(final).toContain("This connect link was made for another user");
    // Carol's link still works for carol.
    expect((await connectInBrowser(url, "carol")).final).toContain("Connected the fixture provider for");
    expect(text(await carol.client.callTool({ name: "whoami_upstream", arguments: {} }))).toBe("At the fixture provider you are carol (sub carol).");
  });

  it("lists the user's accounts on the accounts page, without a token, and its Disconnect makes the next call ask to connect again", async () => {
    const { dev, site, browser } = started();
    const dora = await sdkSignIn({ baseUrl: dev.baseUrl, site, browser, user: "dora" });
    await connectInBrowser((await connectUrlOf(dora.client)).url, "dora");
    expect(text(await dora.client.callTool({ name: "whoami_upstream", arguments: {} }))).toBe("At the fixture provider you are dora (sub dora).");
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    try {
      await page.goto(`${dev.baseUrl}/accounts`, { waitUntil: "domcontentloaded" });
      // The page's sign-in: the provider's login (and consent) in this fresh browser, back to the page.
      for (let step = 0; step < 8 && !page.url().startsWith(`${dev.baseUrl}/accounts?`); step++) {
        const navigation = page.waitForNavigation({ waitUntil: "domcontentloaded", timeout: 20_000 });
        if (await page.$("input[name=login]")) {
          await page.type("input[name=login]", "dora");
          await page.type("input[name=password]", "any-password");
          await page.click("button[type=submit]");
        } else if (await page.$("button[type=submit]")) await page.click("button[type=submit]");
        else throw new Error(`the accounts page's sign-in is stuck at ${page.url()}`);
        await navigation;
      }
      const listing = await page.content();
      expect(listing).toContain("<strong>the fixture provider</strong>: connected");
      expect(listing).toContain("Signed in as");
      for (const token of (await (await fetch(`${dev.issuer}/dev/accounts-tokens`)).json()) as string[]) expect(listing).not.toContain(token);
      // A form posted from elsewhere (no page token, no sign-in cookie) is refused.
      const forged = await fetch(`${dev.baseUrl}/accounts/disconnect`, { method: "POST", body: new URLSearchParams({ provider: "fixture" }) });
      expect(forged.status).toBe(403);
      const navigation = page.waitForNavigation({ waitUntil: "domcontentloaded", timeout: 20_000 });
      await page.click("#accounts button[type=submit]");
      await navigation;
      expect(await page.$eval("body", (body) => body.innerText)).toContain("No connected accounts.");
    } finally {
      await context.close();
    }
    await connectUrlOf(dora.client);
  });

  it("answers a 2026-07-28 call with the URL request in input_required", async () => {
    const { dev, site, browser } = started();
    const bob = await sdkSignIn({ baseUrl: dev.baseUrl, site, browser, user: "bob" });
    const token = bob.provider.tokens()?.access_token ?? "";
    const call = (capabilities: object) =>
      fetch(`${dev.baseUrl}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${token}`,
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "whoami_upstream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: {
            name: "whoami_upstream",
            arguments: {},
            _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": capabilities },
          },
        }),
      });
    const asked = (await (await call({ elicitation: { url: {} } })).json()) as { result: Record<string, unknown> };
    expect(asked.result["resultType"]).toBe("input_required");
    const request = (asked.result["inputRequests"] as Record<string, { method: string; params: { mode: string; url: string } }>)["connect_fixture"];
    expect(request?.method).toBe("elicitation/create");
    expect(request?.params.mode).toBe("url");
    expect(request?.params.url.startsWith(`${dev.baseUrl}/accounts/connect?state=`)).toBe(true);
    // A client without URL elicitation is told which capability it lacks.
    const refused = (await (await call({})).json()) as { error: { code: number } };
    expect(refused.error.code).toBe(-32021);
  });

  it("asks to connect again after the provider revoked the grant", async () => {
    if (!ada) throw new Error("needs the first test");
    const { dev } = started();
    expect(((await (await fetch(`${dev.issuer}/dev/revoke-accounts?account=ada`, { method: "POST" })).json()) as { revoked: number }).revoked).toBeGreaterThan(
      0,
    );
    await sleep(ACCESS_TTL * 1000 + 500);
    await connectUrlOf(ada.client);
  });

  it("never writes a token the provider issued to the Worker's output, its spans or its usage records", async () => {
    const { dev } = started();
    const issued = (await (await fetch(`${dev.issuer}/dev/accounts-tokens`)).json()) as string[];
    expect(issued.length).toBeGreaterThan(5);
    // Spans leave in a window of a second after the answers: wait for the last export.
    await sleep(2500);
    const spans = collector?.exports.join("\n") ?? "";
    expect(spans).toContain("tools/call whoami_upstream");
    expect(spans).toContain("whoami_exchanged");
    const usage = await Promise.all(
      ["tool", "caller"].map(async (by) => {
        const response = await fetch(`${dev.baseUrl}/admin/usage?tenant=default&by=${by}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
        expect(response.status).toBe(200);
        return response.text();
      }),
    );
    expect(usage[0]).toContain("whoami_upstream");
    const output = dev.output();
    for (const token of issued) {
      expect(spans).not.toContain(token);
      expect(usage.join("\n")).not.toContain(token);
      expect(output).not.toContain(token);
    }
  });

  it("never writes an upstream token or the accounts key to the Worker's output", () => {
    const output = started().dev.output();
    expect(output).not.toContain("local-development-accounts-key-not-for-production");
    expect(output).not.toContain("local-accounts-secret-not-for-production");
    expect(output).not.toMatch(/access_token|refresh_token|Bearer [A-Za-z0-9._~+/-]{16,}/);
  });
});
