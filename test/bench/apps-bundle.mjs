// MCP Apps bench (bundle): what apps cost a Worker's bundle, the part of its startup that grows
// with what it carries. Bundles (esbuild, minified, as wrangler would) a one-tool Worker without
// apps, the same with 20 apps of 200 KiB whose HTML is a static asset, and the same with the HTML
// inlined as strings; prints raw and gzip sizes. Run: node test/bench/apps-bundle.mjs
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const ROOT = new URL("../../", import.meta.url).pathname;
const APPS = 20;
const HTML_BYTES = 200 * 1024;

const head = `import { apps, createServer, defineApp, defineTool } from "edge-mcp";
import { createWorker, staticAssets } from "edge-mcp/workers";
const echo = defineTool({ name: "echo", description: "Echoes.", inputSchema: { type: "object" }, handler: () => "ok" });
const tool = (i) => defineTool({ name: "show_" + i, description: "Shows app " + i + ".", inputSchema: { type: "object" }, handler: () => "shown" });
`;
const filler = (i) => JSON.stringify(`<!doctype html><title>app ${i}</title><p>${"x".repeat(HTML_BYTES - 40)}</p>`);
const variants = {
  "no apps": `${head}export default createWorker(createServer({ info: { name: "b", version: "1" }, tools: [echo] }));\n`,
  "20 apps × 200 KiB, static assets": `${head}const list = Array.from({ length: ${APPS} }, (_, i) => defineApp({ uri: "ui://app" + i + "/index.html", name: "app" + i, html: { asset: "/app" + i + ".html" }, tools: [tool(i)] }));
export default createWorker(createServer({ info: { name: "b", version: "1" }, tools: [echo], features: [apps(list, { assets: staticAssets() })] }));\n`,
  "20 apps × 200 KiB, inline strings": `${head}const html = [${Array.from({ length: APPS }, (_, i) => filler(i)).join(",")}];
const list = html.map((page, i) => defineApp({ uri: "ui://app" + i + "/index.html", name: "app" + i, html: page, tools: [tool(i)] }));
export default createWorker(createServer({ info: { name: "b", version: "1" }, tools: [echo], features: [apps(list)] }));\n`,
};

const dir = mkdtempSync(join(tmpdir(), "edge-mcp-apps-bench-"));
try {
  const rows = [];
  for (const [name, source] of Object.entries(variants)) {
    const entry = join(dir, `${rows.length}.js`);
    writeFileSync(entry, source);
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
    const bytes = out.outputFiles[0].contents;
    rows.push({ name, kib: bytes.length / 1024, gzipKib: gzipSync(bytes).length / 1024 });
  }
  for (const row of rows) console.log(`${row.name.padEnd(36)} ${row.kib.toFixed(1).padStart(8)} KiB  ${row.gzipKib.toFixed(1).padStart(7)} KiB gzip`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
