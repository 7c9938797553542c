// Starts the project's Worker(s) in one miniflare instance, with the bindings their wrangler configs declare.

import { dirname, join, resolve } from "node:path";
import { bundleWorker } from "./bundle-worker.mjs";

/** @typedef {import("./project-tools.mjs").ProjectTools} ProjectTools */
/** @typedef {import("./stdio-options.mjs").StdioOptions} StdioOptions */

/**
 * @typedef {object} RunningWorkers
 * @property {import("./stdio-relay.mjs").Dispatch} dispatch Sends a request to the first (served) Worker.
 * @property {() => Promise<void>} dispose Stops workerd.
 */

/**
 * Reads each config (`--env` applied, `.dev.vars` included, as wrangler dev does), bundles each
 * Worker, and runs them together so service bindings between them resolve by Worker name.
 * Durable Objects and KV persist under `<first config's directory>/.wrangler/state/v3` (or
 * `--persist-to`), where `wrangler dev` keeps them too. Miniflare listens on a random loopback
 * port of its own for `dispatchFetch`; nothing is exposed for hosts to connect to.
 * @param {ProjectTools} tools
 * @param {StdioOptions} options
 * @param {string} cwd
 * @param {(line: string) => void} log Where the Workers' console output and miniflare's warnings go (stderr).
 * @returns {Promise<RunningWorkers>}
 */
export async function startWorkers(tools, options, cwd, log) {
  const paths = options.configs.length > 0 ? options.configs.map((config) => resolve(cwd, config)) : [undefined];
  /** @type {Record<string, unknown>[]} */
  const workers = [];
  /** @type {string | undefined} */
  let persistRoot;
  try {
    for (const [index, path] of paths.entries()) {
      const config = tools.wrangler.unstable_readConfig(
        { ...(path ? { config: path } : {}), ...(options.env ? { env: options.env } : {}) },
        { hideWarnings: true },
      );
      if (!config.configPath)
        throw new Error(
          `no wrangler.toml, wrangler.json or wrangler.jsonc in ${cwd} or above: run edge-mcp stdio in the Worker's project directory, or pass --config`,
        );
      if (!config.main) throw new Error(`${config.configPath} names no main module`);
      const { workerOptions } = tools.wrangler.unstable_getMiniflareWorkerOptions(config, options.env);
      if (index === 0) workerOptions["bindings"] = { ...workerOptions["bindings"], ...options.vars };
      const modules = await bundleWorker(tools.esbuild, config, resolve(dirname(config.configPath), config.main));
      workers.push({ name: config.name ?? "", ...workerOptions, ...modules });
      // wrangler dev's default: .wrangler/state beside the user's config.
      persistRoot ??= join(
        options.persistTo ? resolve(cwd, options.persistTo) : join(dirname(config.userConfigPath ?? config.configPath), ".wrangler", "state"),
        "v3",
      );
    }
  } finally {
    // esbuild keeps a service process for later builds; there are none.
    await tools.esbuild.stop?.();
  }

  const { Miniflare, Log, LogLevel } = tools.miniflare;
  const miniflareLog = new Log(LogLevel.WARN);
  miniflareLog.log = log;
  const miniflare = new Miniflare({
    workers,
    defaultPersistRoot: persistRoot,
    host: "127.0.0.1",
    port: 0,
    // The Host and origin the Worker sees (tenants are picked by Host); no request.cf download.
    upstream: `http://${options.host}`,
    cf: false,
    enableDevRegistry: false,
    log: miniflareLog,
    handleStructuredLogs: (/** @type {{ message: string }} */ entry) => log(entry.message),
  });
  try {
    await miniflare.ready;
  } catch (error) {
    await miniflare.dispose().catch(() => {});
    throw error;
  }
  return {
    dispatch: (url, init) => miniflare.dispatchFetch(url, init),
    dispose: () => miniflare.dispose(),
  };
}
