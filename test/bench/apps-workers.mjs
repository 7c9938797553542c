// The Workers of the MCP Apps benches (apps-bundle.mjs, apps-boot.mjs): one tool Worker without apps, the
// same with 20 apps of 200 KiB whose HTML is a static asset, and the same with the HTML inlined as
// strings; bundled from the sources with esbuild (minified, as wrangler would).
import { join } from "node:path";
import { build } from "esbuild";

const ROOT = new URL("../../", import.meta.url).pathname;
export const APPS = 20;
export const HTML_BYTES = 200 * 1024;

/** The HTML of app `i`: exactly HTML_BYTES bytes. */
export const appHtml = (i) => {
  const start = `<!doctype html><title>app ${String(i).padStart(2, "0")}</title><p>`;
  return `${start}${"x".repeat(HTML_BYTES - start.length - 4)}</p>`;
};

// Every Worker has `echo` (the boot probe) and `blob`, a tool whose text is as long as one app's HTML.
const head = `import { apps, createServer, defineApp, defineTool } from "edge-mcp";
import { createWorker, staticAssets } from "edge-mcp/workers";
const echo = defineTool({ name: "echo", description: "Echoes.", inputSchema: { type: "object" }, handler: () => "ok" });
const blob = defineTool({ name: "blob", description: "A text as long as one app.", inputSchema: { type: "object" }, handler: () => "x".repeat(${HTML_BYTES}) });
const tool = (i) => defineTool({ name: "show_" + i, description: "Shows app " + i + ".", inputSchema: { type: "object" }, handler: () => "shown" });
const info = { name: "b", version: "1" };
`;

/** The Workers by name; `assets`: it is started with the apps' HTML as static assets (binding ASSETS). */
export const VARIANTS = {
  "no apps": { assets: false, source: `${head}export default createWorker(createServer({ info, tools: [echo, blob] }));\n` },
  "no apps, assets bound": { assets: true, source: `${head}export default createWorker(createServer({ info, tools: [echo, blob] }));\n` },
  "20 apps × 200 KiB, static assets": {
    assets: true,
    source: `${head}const list = Array.from({ length: ${APPS} }, (_, i) => defineApp({ uri: "ui://app" + i + "/index.html", name: "app" + i, html: { asset: "/app" + i + ".html" }, tools: [tool(i)] }));
export default createWorker(createServer({ info, tools: [echo, blob], features: [apps(list, { assets: staticAssets() })] }));\n`,
  },
  "20 apps × 200 KiB, inline strings": {
    assets: false,
    source: `${head}const html = [${Array.from({ length: APPS }, (_, i) => JSON.stringify(appHtml(i))).join(",")}];
const list = html.map((page, i) => defineApp({ uri: "ui://app" + i + "/index.html", name: "app" + i, html: page, tools: [tool(i)] }));
export default createWorker(createServer({ info, tools: [echo, blob], features: [apps(list)] }));\n`,
  },
};

/** Bundles the Worker whose entry module is at `entry` (edge-mcp from the sources); returns its bytes. */
export async function bundle(entry) {
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    minify: true,
    write: false,
    external: ["cloudflare:*"],
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    alias: { "edge-mcp": join(ROOT, "src/index.ts"), "edge-mcp/workers": join(ROOT, "src/workers/index.ts") },
    nodePaths: [join(ROOT, "node_modules")],
    logLevel: "error",
  });
  return out.outputFiles[0].contents;
}
