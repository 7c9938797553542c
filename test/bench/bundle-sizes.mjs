// `npm run bench:bundle`: the deployable gzip size of a one-tool Worker, of the demo as issue 19 sized it
// (handles, a skill, a task tool) and of the whole demo (with its MCP App and observability()), each
// bundled the way a user deploys it (against dist/, the built package), with wrangler deploy --dry-run.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const WRANGLER = join(ROOT, "node_modules/.bin/wrangler");
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_HIDE_BANNER: "true", CLOUDFLARE_CF_FETCH_ENABLED: "false" };

/** A copy of a wrangler.toml whose `main` is absolute and whose [alias] points at dist/. */
export function distConfig(config, work, label) {
  const dir = dirname(join(ROOT, config));
  let text = readFileSync(join(ROOT, config), "utf8");
  text = text.replace(/^main = "([^"]+)"$/m, (_, main) => `main = ${JSON.stringify(join(dir, main))}`);
  // [assets] directory: relative to the config, as main is.
  text = text.replace(/^directory = "([^"]+)"$/m, (_, directory) => `directory = ${JSON.stringify(join(dir, directory))}`);
  text = text.replace(/^"edge-mcp" = "[^"]+"$/m, () => `"edge-mcp" = ${JSON.stringify(join(ROOT, "dist/index.js"))}`);
  text = text.replace(/^"edge-mcp\/workers" = "[^"]+"$/m, () => `"edge-mcp/workers" = ${JSON.stringify(join(ROOT, "dist/workers/index.js"))}`);
  const path = join(work, `${label}.toml`);
  writeFileSync(path, text);
  return path;
}

/** Gzip and raw KiB of a Worker's deployable bundle. */
export function bundleSize(config, label, work) {
  const outdir = join(work, label);
  execFileSync(WRANGLER, ["deploy", "--dry-run", "--config", distConfig(config, work, label), "--outdir", outdir], { cwd: ROOT, env, stdio: "pipe" });
  const code = readFileSync(join(outdir, "index.js"));
  return { label, gzipKiB: gzipSync(code).length / 1024, rawKiB: code.length / 1024 };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "pipe" });
  const work = mkdtempSync(join(tmpdir(), "edge-mcp-bundle-"));
  try {
    for (const [config, label] of [
      ["test/bench/one-tool/wrangler.toml", "one-tool"],
      ["test/bench/demo-core/wrangler.toml", "demo-core"],
      ["wrangler.toml", "demo"],
    ]) {
      const size = bundleSize(config, label, work);
      console.log(`${label}: ${size.gzipKiB.toFixed(1)} KiB gzip (${size.rawKiB.toFixed(1)} KiB raw)`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
