// The multi-tenant example under `wrangler dev` with its usage object and Analytics Engine dataset bound and
// MCP_ADMIN_TOKEN set: calls by two tenants and two callers, then the usage view (JSON, and the HTML page in
// headless Chromium, screenshot kept under test-artifacts/) shows exactly those counts.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SignJWT, importJWK, type JWK } from "jose";
import { launchChromium } from "../e2e-browser/chromium.ts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startOtlpReceiver, type OtlpReceiver } from "./otlp-receiver.ts";
import { startWranglerDev, type WranglerDev } from "./wrangler-dev.ts";

const ADMIN = "e2e-admin-token-not-a-secret";
const API_KEY = "emk_dev_initech_published_example_key_not_secret";
const ARTIFACTS = fileURLToPath(new URL("../../test-artifacts/", import.meta.url));

let server: WranglerDev;
let receiver: OtlpReceiver;
let state: string;

beforeAll(async () => {
  state = mkdtempSync(join(tmpdir(), "edge-mcp-usage-"));
  receiver = await startOtlpReceiver();
  server = await startWranglerDev({
    name: "multi-tenant with usage",
    configPath: ["examples/multi-tenant/wrangler.toml", "examples/tool-service/wrangler.toml"],
    vars: { MCP_ADMIN_TOKEN: ADMIN, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
    // A fresh state directory: the roll-ups start empty.
    args: ["--persist-to", state],
  });
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  if (state) rmSync(state, { recursive: true, force: true });
});

async function devToken(): Promise<string> {
  const key = JSON.parse(await readFile(new URL("../../examples/multi-tenant/dev-keys/private.jwk.json", import.meta.url), "utf8")) as JWK;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: "https://dev-issuer.edge-mcp.local",
    aud: "http://127.0.0.1:8787/t/initech/mcp",
    sub: "dev-user",
    scope: "invoices:read",
    exp: now + 600,
  })
    .setProtectedHeader({ alg: "ES256", kid: "edge-mcp-dev-es256-1" })
    .sign(await importJWK(key, "ES256"));
}

let nextId = 1;
async function call(path: string, name: string, args: object, authorization?: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": name,
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: nextId++,
      method: "tools/call",
      params: { name, arguments: args, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
    }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.text();
}

interface Report {
  tenant: string;
  total: { calls: number; errors: number };
  rows: { key: string; calls: number; errors: number }[];
  hours: { calls: number }[];
}

function view(query: string, authorization = `Bearer ${ADMIN}`): Promise<Response> {
  return fetch(`${server.baseUrl}/admin/usage?${query}`, { headers: { authorization } });
}

describe("usage of the multi-tenant example", () => {
  it("shows exactly the calls of each tenant, by tool and by caller", async () => {
    const jwt = `Bearer ${await devToken()}`;
    const key = `Bearer ${API_KEY}`;
    // initech: the API key's caller 3 calls, the JWT's caller 2; globex: an anonymous caller, 3 calls (one a tool error).
    await call("/t/initech/mcp", "invoice_total", { lines: [1, 2] }, key);
    await call("/t/initech/mcp", "invoice_total", { lines: [3] }, key);
    await call("/t/initech/mcp", "whoami", {}, key);
    await call("/t/initech/mcp", "whoami", {}, jwt);
    await call("/t/initech/mcp", "invoice_total", { lines: [4] }, jwt);
    await call("/t/globex/mcp", "hello", { name: "Ann" });
    await call("/t/globex/mcp", "hello", { name: "Bo" });
    await call("/t/globex/mcp", "hello", { wrong: true });

    const initech = await vi.waitFor(
      async () => {
        const report = await (await view("tenant=initech&by=caller")).json<Report>();
        if (report.total.calls < 5) throw new Error(`${report.total.calls} calls so far`);
        return report;
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(initech.total).toMatchObject({ calls: 5, errors: 0 });
    expect(initech.rows.map((row) => row.calls)).toEqual([3, 2]);
    expect(initech.rows.every((row) => /^[0-9a-f]{16}$/.test(row.key))).toBe(true);
    const byTool = await (await view("tenant=initech&by=tool")).json<Report>();
    expect(byTool.rows.map(({ key, calls }) => [key, calls])).toEqual([
      ["invoice_total", 3],
      ["whoami", 2],
    ]);

    const globex = await vi.waitFor(async () => {
      const report = await (await view("tenant=globex&by=tool")).json<Report>();
      if (report.total.calls < 3) throw new Error(`${report.total.calls} calls so far`);
      return report;
    });
    expect(globex.rows).toEqual([expect.objectContaining({ key: "hello", calls: 3, errors: 1 })]);
    expect((await (await view("tenant=acme")).json<Report>()).total.calls).toBe(0);

    expect((await view("tenant=initech", "Bearer wrong")).status).toBe(401);
    // Traced too: every call's server span reached the collector.
    await vi.waitFor(() => expect(receiver.spans().filter((span) => span.kind === 2 && span.name.startsWith("tools/call ")).length).toBe(8));
  });

  it("renders the usage page with its charts in headless Chromium", async () => {
    // The same launch as the browser tests: Debian's chromium, headless, no background networking.
    const chromium = await launchChromium();
    const browser = chromium.browser;
    try {
      const page = await browser.newPage();
      await page.setExtraHTTPHeaders({ authorization: `Bearer ${ADMIN}`, accept: "text/html" });
      await page.setViewport({ width: 800, height: 700 });
      const response = await page.goto(`${server.baseUrl}/admin/usage?tenant=initech`, { waitUntil: "load" });
      expect(response?.status()).toBe(200);
      // Expressions run in the page (this project's types have no DOM).
      const inPage = (expression: string): Promise<unknown> => page.evaluate(expression);
      expect(await inPage(`document.querySelector("#tenant").textContent`)).toBe("initech");
      expect(await inPage(`document.querySelector("#calls").textContent`)).toBe("5");
      expect(await inPage(`document.querySelectorAll("svg rect.calls").length`)).toBeGreaterThanOrEqual(1 + 2 + 2);
      expect(await inPage(`[...document.querySelectorAll("#tools g.row text")].map((el) => el.textContent)`)).toContain("invoice_total");
      expect(await inPage(`document.querySelectorAll("#callers g.row").length`)).toBe(2);
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, "usage-page.png"), fullPage: true });
    } finally {
      await chromium.close();
    }
  }, 60_000);
});
