// `npm run bench:bundle:attribution`: where the bytes of a Worker's bundle come from. Bundles the one-tool
// Worker, the demo without its opt-ins (demo-core) and the demo against dist/ as bench:bundle does
// (wrangler deploy --dry-run, with --metafile) and prints each source module's minified bytes in the
// bundle, by module and by folder, largest first.
// --no-build reuses dist/; --top N rows per table (default 25); --config path.toml [--config …] instead of the three.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { distConfig } from "./bundle-sizes.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const WRANGLER = join(ROOT, "node_modules/.bin/wrangler");
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_HIDE_BANNER: "true", CLOUDFLARE_CF_FETCH_ENABLED: "false" };

const args = process.argv.slice(2);
const top = Number(args[args.indexOf("--top") + 1]) || 25;
const configs = args.flatMap((a, i) => (args[i - 1] === "--config" ? [a] : []));
const workers =
  configs.length > 0
    ? configs.map((config, i) => [config, `worker-${i}`])
    : [
        ["test/bench/one-tool/wrangler.toml", "one-tool"],
        ["test/bench/demo-core/wrangler.toml", "demo-core"],
        ["wrangler.toml", "demo"],
      ];

/**
 * A module's name for the tables: `edge-mcp/<path in src>` for dist/, `<package>/<path>` for
 * node_modules. Metafile paths are relative to the directory of the config copy (`base`).
 */
function moduleName(path, base) {
  const full = resolve(base, path);
  const dist = join(ROOT, "dist") + "/";
  if (full.startsWith(dist)) return `edge-mcp/${full.slice(dist.length)}`;
  const packaged = full.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/);
  if (packaged) return `${packaged[1]}/${packaged[2]}`;
  return relative(ROOT, full);
}

/** The folder a module is counted under: edge-mcp's folder (server/tools), a package, or the Worker's own code. */
function folderOf(name) {
  if (name.startsWith("edge-mcp/")) return name.split("/").slice(0, -1).join("/");
  const packaged = name.match(/^((?:@[^/]+\/)?[^/]+)\//);
  return packaged && !name.startsWith("examples/") && !name.startsWith("test/") ? packaged[1] : "(the Worker's own code)";
}

function table(title, rows, total) {
  console.log(`\n${title}`);
  for (const [name, bytes] of rows.slice(0, top)) {
    console.log(`${(bytes / 1024).toFixed(2).padStart(7)} KiB ${((100 * bytes) / total).toFixed(1).padStart(5)} %  ${name}`);
  }
  if (rows.length > top) console.log(`  … ${rows.length - top} more`);
}

if (!args.includes("--no-build")) execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "pipe" });
const work = mkdtempSync(join(tmpdir(), "edge-mcp-attribution-"));
try {
  for (const [config, label] of workers) {
    const outdir = join(work, label);
    const metafile = join(work, `${label}.meta.json`);
    execFileSync(WRANGLER, ["deploy", "--dry-run", "--config", distConfig(config, work, label), "--outdir", outdir, "--metafile", metafile], {
      cwd: ROOT,
      env,
      stdio: "pipe",
    });
    const code = readFileSync(join(outdir, "index.js"));
    const meta = JSON.parse(readFileSync(metafile, "utf8"));
    const output = Object.entries(meta.outputs).find(([path]) => path.endsWith("index.js"))?.[1];
    if (!output) throw new Error(`${label}: the metafile has no index.js output`);
    const byModule = new Map();
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = moduleName(path, work);
      byModule.set(name, (byModule.get(name) ?? 0) + bytesInOutput);
    }
    const byFolder = new Map();
    for (const [name, bytes] of byModule) byFolder.set(folderOf(name), (byFolder.get(folderOf(name)) ?? 0) + bytes);
    const sorted = (map) => [...map].filter(([, bytes]) => bytes > 0).sort((a, b) => b[1] - a[1]);
    const total = [...byModule.values()].reduce((a, b) => a + b, 0);
    console.log(
      `\n== ${label}: ${(gzipSync(code).length / 1024).toFixed(1)} KiB gzip, ${(code.length / 1024).toFixed(1)} KiB raw ` +
        `(${(total / 1024).toFixed(1)} KiB from ${byModule.size} modules, minified)`,
    );
    table(`${label}, by folder`, sorted(byFolder), total);
    table(`${label}, by module`, sorted(byModule), total);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
