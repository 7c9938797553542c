// Finds the project's own wrangler, and the miniflare and esbuild that this wrangler uses.

import { createRequire } from "node:module";
import { join } from "node:path";

/**
 * The parts of wrangler's programmatic API the stdio command uses (wrangler ≥ 4.86).
 * @typedef {object} WranglerApi
 * @property {(args: { config?: string, env?: string }, options?: { hideWarnings?: boolean }) => WranglerConfig} unstable_readConfig
 * @property {(config: WranglerConfig, env?: string) => { workerOptions: Record<string, any>, main?: string }} unstable_getMiniflareWorkerOptions
 */

/**
 * The fields of a resolved wrangler config the command reads.
 * @typedef {object} WranglerConfig
 * @property {string} name
 * @property {string | undefined} main
 * @property {string | undefined} configPath
 * @property {string | undefined} userConfigPath The config the user named (differs from configPath after a redirect).
 * @property {string[]} compatibility_flags
 * @property {boolean | undefined} minify
 * @property {boolean} keep_names
 * @property {boolean | undefined} no_bundle
 * @property {Record<string, string>} define
 * @property {Record<string, string>} alias
 * @property {string | undefined} tsconfig
 * @property {string} jsx_factory
 * @property {string} jsx_fragment
 * @property {{ type: string, globs: string[] }[]} rules
 * @property {{ bindings: { class_name: string, script_name?: string }[] }} durable_objects
 */

/**
 * @typedef {object} ProjectTools
 * @property {WranglerApi} wrangler
 * @property {string} wranglerVersion
 * @property {any} miniflare The `miniflare` module wrangler itself runs (Miniflare, Log, LogLevel).
 * @property {any} esbuild The `esbuild` module wrangler itself bundles with.
 */

/**
 * Loads the project's wrangler, as `npx wrangler` would find it from each of `projectDirs` in
 * turn (the working directory, then the directories of the configs), falling back to the one
 * installed next to edge-mcp. miniflare and esbuild are resolved from that wrangler, so their
 * versions are the ones it was released with. Throws an Error that says what to install.
 * @param {readonly string[]} projectDirs
 * @returns {ProjectTools}
 */
export function loadProjectTools(projectDirs) {
  let entry;
  for (const dir of projectDirs) entry ??= resolveFrom(join(dir, "package.json"));
  entry ??= resolveFrom(import.meta.url);
  if (entry === undefined) throw new Error(`wrangler is not installed in ${projectDirs[0]}: run npm install --save-dev wrangler`);
  const require = createRequire(entry);
  const wrangler = require(entry);
  if (typeof wrangler.unstable_readConfig !== "function" || typeof wrangler.unstable_getMiniflareWorkerOptions !== "function") {
    throw new Error(`the wrangler at ${entry} lacks unstable_readConfig/unstable_getMiniflareWorkerOptions: edge-mcp stdio needs wrangler 4.86 or later`);
  }
  const version = require(require.resolve("wrangler/package.json")).version;
  return { wrangler, wranglerVersion: String(version), miniflare: require("miniflare"), esbuild: require("esbuild") };
}

/** @param {string} from a file path or URL to resolve from @returns {string | undefined} */
function resolveFrom(from) {
  try {
    return createRequire(from).resolve("wrangler");
  } catch {
    return undefined;
  }
}
