// Bundles a Worker's entry with esbuild the way `wrangler dev` does, into modules for miniflare (in memory).

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { basename, dirname, join, resolve } from "node:path";

/** @typedef {import("./project-tools.mjs").WranglerConfig} WranglerConfig */
/** @typedef {{ type: string, path: string, contents: string | Uint8Array }} ModuleDefinition */
/**
 * @typedef {{ modulesRoot: string, modules: ModuleDefinition[] }
 *   | { modulesRoot: string, modules: true, scriptPath: string, modulesRules: unknown[] }} WorkerModules
 */

// wrangler's defaults for non-JavaScript imports; a config's own [[rules]] come first.
const DEFAULT_RULES = [
  { type: "Text", globs: ["**/*.txt", "**/*.html", "**/*.sql"] },
  { type: "Data", globs: ["**/*.bin"] },
  { type: "CompiledWasm", globs: ["**/*.wasm", "**/*.wasm?module"] },
];
const SUPPORTED_RULE_TYPES = new Set(["Text", "Data", "CompiledWasm"]);
const NODE_COMPAT_FLAGS = ["nodejs_compat", "nodejs_compat_v2", "nodejs_als"];

/** A glob of a module rule as a regular expression (`**` any directories, `*` and `?` within a name). @param {string} glob */
function globToRegExp(glob) {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = /** @type {string} */ (glob[i]);
    if (glob.startsWith("**/", i)) {
      source += "(?:.*/)?";
      i += 2;
    } else if (ch === "*") source += glob[i + 1] === "*" ? ((i += 1), ".*") : "[^/]*";
    else if (ch === "?") source += "[^/]";
    else source += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`(?:^|/)${source}$`);
}

/**
 * Imports matched by a module rule (text, data, wasm) become modules of their own, named by a
 * hash of their content as wrangler names them, instead of being bundled.
 * @param {WranglerConfig} config
 * @param {ModuleDefinition[]} collected
 * @param {string} outdir
 */
function moduleRulesPlugin(config, collected, outdir) {
  const rules = [...config.rules, ...DEFAULT_RULES].map((rule) => ({ type: rule.type, patterns: rule.globs.map(globToRegExp) }));
  // One filter over every glob, so esbuild calls into JavaScript only for the imports a rule may match.
  const filter = new RegExp(rules.flatMap((rule) => rule.patterns.map((pattern) => pattern.source)).join("|"));
  return {
    name: "edge-mcp-module-rules",
    /** @param {any} build */
    setup(build) {
      build.onResolve({ filter }, (/** @type {{ path: string, resolveDir: string }} */ args) => {
        const rule = rules.find((r) => r.patterns.some((pattern) => pattern.test(args.path)));
        if (!rule || rule.type === "ESModule" || rule.type === "CommonJS") return undefined;
        if (!SUPPORTED_RULE_TYPES.has(rule.type))
          return { errors: [{ text: `edge-mcp stdio cannot load ${args.path}: module rules of type ${rule.type} are not supported` }] };
        const file = resolve(args.resolveDir, args.path.replace(/\?module$/, ""));
        const contents = readFileSync(file);
        const name = `./${createHash("sha1").update(contents).digest("hex")}-${basename(file)}`;
        if (!collected.some((m) => m.path === join(outdir, name)))
          collected.push({ type: rule.type, path: join(outdir, name), contents: new Uint8Array(contents) });
        return { path: name, external: true };
      });
    },
  };
}

/**
 * Builds the Worker of `config` (entry `main`) into in-memory ES modules: one bundle plus any
 * text/data/wasm modules it imports. Follows wrangler's esbuild settings (target, conditions,
 * JSX loaders, define, alias, minify, keep_names, tsconfig); with `nodejs_compat`, Node built-ins
 * are left to workerd (wrangler's unenv polyfills are not applied). A `no_bundle` Worker is
 * handed to miniflare as it is. Throws esbuild's failure or an Error naming what is missing.
 * @param {any} esbuild
 * @param {WranglerConfig} config
 * @param {string} main Absolute path of the entry module.
 * @returns {Promise<WorkerModules>}
 */
export async function bundleWorker(esbuild, config, main) {
  const projectRoot = config.configPath ? dirname(config.configPath) : process.cwd();
  if (config.no_bundle) {
    const modulesRules = [...config.rules, ...DEFAULT_RULES].map((rule) => ({ type: rule.type, include: rule.globs }));
    return { modulesRoot: dirname(main), modules: true, scriptPath: main, modulesRules };
  }
  const outdir = join(projectRoot, ".wrangler", "tmp", "edge-mcp-stdio", config.name || "worker");
  /** @type {ModuleDefinition[]} */
  const collected = [];
  const nodeCompat = config.compatibility_flags.some((flag) => NODE_COMPAT_FLAGS.includes(flag));
  const nodeEnv = JSON.stringify(process.env["NODE_ENV"] || "development");
  const result = await esbuild.build({
    entryPoints: [main],
    entryNames: "index",
    bundle: true,
    absWorkingDir: projectRoot,
    outdir,
    write: false,
    metafile: true,
    format: "esm",
    target: "es2024",
    supported: { "import-source": true },
    loader: { ".js": "jsx", ".mjs": "jsx", ".cjs": "jsx" },
    conditions: process.env["WRANGLER_BUILD_CONDITIONS"]?.split(",") ?? ["workerd", "worker", "browser"],
    ...(process.env["WRANGLER_BUILD_PLATFORM"] ? { platform: process.env["WRANGLER_BUILD_PLATFORM"] } : {}),
    define: { "process.env.NODE_ENV": nodeEnv, "global.process.env.NODE_ENV": nodeEnv, "globalThis.process.env.NODE_ENV": nodeEnv, ...config.define },
    alias: config.alias,
    minify: config.minify ?? false,
    keepNames: config.keep_names,
    jsxFactory: config.jsx_factory,
    jsxFragment: config.jsx_fragment,
    ...(config.tsconfig ? { tsconfig: config.tsconfig } : {}),
    external: ["__STATIC_CONTENT_MANIFEST", "cloudflare:*", ...(nodeCompat ? ["node:*", ...builtinModules] : [])],
    plugins: [moduleRulesPlugin(config, collected, outdir)],
    logLevel: "silent",
  });
  const bundle = result.outputFiles.find((/** @type {{ path: string }} */ file) => file.path.endsWith(".js"));
  const output = Object.values(result.metafile.outputs).find((/** @type {{ entryPoint?: string }} */ out) => out.entryPoint !== undefined);
  const exports = /** @type {string[]} */ (output?.exports ?? []);
  if (!bundle || exports.length === 0) throw new Error(`${main} exports nothing: edge-mcp stdio runs ES module Workers (export default { fetch })`);
  const missing = config.durable_objects.bindings.filter((b) => !b.script_name && !exports.includes(b.class_name)).map((b) => b.class_name);
  if (missing.length > 0) throw new Error(`the Worker binds Durable Object classes its entry ${main} does not export: ${missing.join(", ")}`);
  return { modulesRoot: outdir, modules: [{ type: "ESModule", path: bundle.path, contents: bundle.text }, ...collected] };
}
