// A real MCP Apps host in a real browser: headless chromium loads a host page (the official v2 client
// and ext-apps' AppBridge) that calls the demo's show_tally over HTTP against `wrangler dev`, reads its
// ui:// resource, renders it in a sandboxed iframe under the declared CSP, and relays input and result;
// the app (ext-apps' App) calls the app-only tool tally_bump through the bridge and shows the answer.
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { build } from "esbuild";
import type { Browser, Frame, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePorts } from "../e2e/free-ports.ts";
import { startWranglerDev, type WranglerDev } from "../e2e/wrangler-dev.ts";
import { launchChromium } from "./chromium.ts";

const ARTIFACTS = new URL("../e2e/artifacts/", import.meta.url).pathname;
const WAIT_MS = 30_000;

let wrangler: WranglerDev | undefined;
let pageServer: Server | undefined;
let chromium: { browser: Browser; close(): Promise<void> } | undefined;
let hostUrl = "";

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [new URL("./host-page.ts", import.meta.url).pathname],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "warning",
  });
  const script = bundle.outputFiles[0]?.text ?? "";
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>e2e apps host</title></head>
<body><h1>MCP Apps host</h1><div id="frame"></div><ol id="log"></ol><script type="module" src="/host.js"></script></body></html>`;
  const [port] = await freePorts(1);
  pageServer = createServer((request, response) => {
    const js = request.url === "/host.js";
    response.writeHead(200, { "content-type": js ? "text/javascript" : "text/html" });
    response.end(js ? script : html);
  });
  await new Promise<void>((resolve) => pageServer?.listen(port, "127.0.0.1", resolve));
  wrangler = await startWranglerDev({ name: "apps demo" });
  const args = JSON.stringify({ label: "cups of tea", start: 2 });
  hostUrl = `http://127.0.0.1:${String(port)}/?server=${encodeURIComponent(wrangler.baseUrl)}&tool=show_tally&args=${encodeURIComponent(args)}`;
  chromium = await launchChromium();
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  await wrangler?.stop();
  await new Promise((resolve) => (pageServer ? pageServer.close(resolve) : resolve(undefined)));
});

/** The app's frame, once its document is the app's (not the initial about:blank). */
async function appFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector("iframe#app", { timeout: WAIT_MS });
  for (const deadline = Date.now() + WAIT_MS; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const frame = await handle?.contentFrame();
    if (frame && (await frame.$("#bump"))) return frame;
  }
  throw new Error("the app's document never loaded in its iframe");
}

const text = (frame: Frame, selector: string) => frame.$eval(selector, (element) => element.textContent);

describe("an MCP Apps host in headless chromium", () => {
  it("renders the app sandboxed under its CSP, relays input and result, and answers the app's call of an app-only tool", async () => {
    const page = await (chromium as { browser: Browser }).browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    await page.goto(hostUrl);
    await page.waitForSelector("body[data-host]", { timeout: WAIT_MS });
    const hostState = await page.$eval("body", (body) => body.dataset["host"]);
    const hostLog = await page.$$eval("#log li", (items) => items.map((item) => item.textContent));
    expect(hostState, hostLog.join("\n")).toBe("ready");

    // Sandboxed without same-origin access, with the policy built from the resource's _meta.ui.csp.
    const iframe = await page.$eval("iframe#app", (element) => ({
      sandbox: element.getAttribute("sandbox"),
      csp: element.dataset["csp"],
    }));
    expect(iframe.sandbox).toBe("allow-scripts");
    expect(iframe.csp).toContain("connect-src 'none'");

    const frame = await appFrame(page);
    expect(await frame.$eval('meta[http-equiv="Content-Security-Policy"]', (meta) => meta.getAttribute("content"))).toBe(iframe.csp);
    await frame.waitForFunction(() => document.getElementById("status")?.textContent === "result received", { timeout: WAIT_MS });
    expect(await text(frame, "#label")).toBe("cups of tea");
    expect(await text(frame, "#count")).toBe("2");

    await frame.click("#bump");
    await frame.waitForFunction(() => document.getElementById("status")?.textContent === "bumped", { timeout: WAIT_MS });
    expect(await text(frame, "#count")).toBe("3");

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}apps-host.png`, fullPage: true });
    const log = await page.$$eval("#log li", (items) => items.map((item) => item.textContent));
    expect(log).toEqual(expect.arrayContaining(["tool show_tally shows ui://tally/app.html", "app initialized"]));
    expect(errors).toEqual([]);
    await page.close();
  });
});
