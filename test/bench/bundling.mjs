// How the benches build a Worker as `wrangler deploy` would (run.mjs, instructions.mjs): the bundle, the demo's
// config aliased to the built package (dist/), and the check that the demo's bundle came from dist/.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

// Nothing may leave the machine: no telemetry, no banner update check, no Request.cf download. Set
// when this module loads, so before any bench that imports it starts wrangler or miniflare.
Object.assign(process.env, {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  WRANGLER_HIDE_BANNER: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  NO_COLOR: "1",
});

/** The repository's root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const WRANGLER_BIN = join(ROOT, "node_modules", ".bin", "wrangler");

/** Runs a command to its end; resolves with its stdout and stderr together, rejects on a non-zero exit. */
export async function runCommand(cmd, args, cwd = ROOT) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"], env: process.env });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolveRun(out) : reject(new Error(`${cmd} ${args.join(" ")} exited ${code}:\n${out}`))));
  });
}

/**
 * Bundles a Worker like `wrangler deploy` into `workDir/label`. With `durableObjects`, its Durable
 * Object bindings are kept for the caller (the main rounds run the demo without them: `add` touches none).
 */
export async function bundle(label, configPath, workDir, extraArgs = [], { durableObjects = false } = {}) {
  const outdir = join(workDir, label);
  await runCommand(WRANGLER_BIN, ["deploy", "--dry-run", "--config", configPath, "--outdir", outdir, ...extraArgs], ROOT);
  const { unstable_readConfig } = await import("wrangler");
  const config = unstable_readConfig({ config: configPath });
  const scriptPath = join(outdir, "index.js");
  const code = readFileSync(scriptPath);
  const extra = readdirSync(outdir).filter((f) => !["index.js", "index.js.map", "README.md"].includes(f));
  if (extra.length > 0) throw new Error(`bench: ${label}: bundle has more than index.js (${extra.join(", ")}); the benches only load index.js`);
  return {
    label,
    scriptPath,
    outdir,
    bytes: code.length,
    gzipBytes: gzipSync(code).length, // as wrangler computes "gzip:" (zlib defaults)
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags ?? [],
    vars: Object.fromEntries(Object.entries(config.vars ?? {}).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])),
    ...(durableObjects ? { durableObjects: durableObjectsOf(config) } : {}),
  };
}

/**
 * The demo as a user deploys it: built against the published package (dist/, built here with
 * `npm run build`), not the sources the repository's [alias] points at. Writes a copy of the root
 * wrangler.toml whose `main` and [alias] are absolute, the alias pointing at dist/ (wrangler 4.86's
 * `deploy --alias` does not override the config's [alias], so a config it is).
 */
export async function distDemoConfig(workDir) {
  await runCommand("npm", ["run", "build"], ROOT);
  const text = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  const replacements = [
    [/^main = "([^"]+)"$/m, (_, main) => `main = ${JSON.stringify(join(ROOT, main))}`],
    // The [assets] directory is relative to the config, as main is.
    [/^directory = "([^"]+)"$/m, (_, directory) => `directory = ${JSON.stringify(join(ROOT, directory))}`],
    [/^"edge-mcp" = "[^"]+"$/m, () => `"edge-mcp" = ${JSON.stringify(join(ROOT, "dist/index.js"))}`],
    [/^"edge-mcp\/workers" = "[^"]+"$/m, () => `"edge-mcp/workers" = ${JSON.stringify(join(ROOT, "dist/workers/index.js"))}`],
  ];
  let config = text;
  for (const [pattern, replace] of replacements) {
    if (!pattern.test(config)) throw new Error(`bench: the root wrangler.toml has no line matching ${pattern}; distDemoConfig needs updating`);
    config = config.replace(pattern, replace);
  }
  const dir = join(workDir, "demo-config");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "wrangler.toml"), config);
  return join(dir, "wrangler.toml");
}

/** Throws unless every edge-mcp module in the bundle came from dist/ (read from its source map). */
export function checkBuiltFromDist(b) {
  const map = JSON.parse(readFileSync(join(b.outdir, "index.js.map"), "utf8"));
  const ours = map.sources
    .map((s) => resolve(b.outdir, map.sourceRoot ?? "", s))
    .filter((s) => s.startsWith(join(ROOT, "src") + "/") || s.startsWith(join(ROOT, "dist") + "/"));
  if (ours.length === 0 || ours.some((s) => !s.startsWith(join(ROOT, "dist") + "/")))
    throw new Error(`bench: the ${b.label} bundle is not built from dist/ (${ours.slice(0, 3).join(", ")})`);
}

/** miniflare's `durableObjects` option from a wrangler config: binding → class, SQLite-backed as its migrations say. */
export function durableObjectsOf(config) {
  const sqlite = new Set((config.migrations ?? []).flatMap((m) => m.new_sqlite_classes ?? []));
  return Object.fromEntries((config.durable_objects?.bindings ?? []).map((b) => [b.name, { className: b.class_name, useSQLite: sqlite.has(b.class_name) }]));
}
