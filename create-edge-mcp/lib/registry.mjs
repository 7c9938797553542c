// Whether the edge-mcp version a project pins can be installed from the npm registry, asked with `npm view`.

import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

/** How long `npm view` may take before the registry counts as unreachable. */
export const REGISTRY_TIMEOUT_MS = 5000;

/**
 * Asks the registry npm is configured with for `name@version`. Resolves `"published"` when npm
 * names that version, `"missing"` when it does not (E404), and `"unknown"` when npm runs offline
 * (`npm exec --offline` sets `npm_config_offline`), fails otherwise, or takes longer than
 * `timeoutMs`. It never throws.
 * @param {string} name
 * @param {string} version
 * @param {{ timeoutMs?: number, env?: NodeJS.ProcessEnv }} [options]
 * @returns {Promise<"published" | "missing" | "unknown">}
 */
export function registryHas(name, version, options = {}) {
  const env = options.env ?? process.env;
  if (env["npm_config_offline"] === "true") return Promise.resolve("unknown");
  return new Promise((resolve) => {
    execFile(
      "npm",
      ["view", `${name}@${version}`, "version", "--json"],
      { env, timeout: options.timeoutMs ?? REGISTRY_TIMEOUT_MS, shell: process.platform === "win32", windowsHide: true },
      (error, stdout, stderr) => {
        const output = `${stdout}\n${stderr}`;
        if (!error && stdout.includes(`"${version}"`)) resolve("published");
        else if (/E404|\b404\b/.test(output)) resolve("missing");
        else resolve("unknown");
      },
    );
  });
}

/**
 * The steps that install the project when edge-mcp@version is not on the registry: pack a
 * checkout of edge-mcp, then install the project with that tarball. When `here` holds the packed
 * checkout already (edge-mcp/edge-mcp-<version>.tgz), only the install and what follows.
 * @param {string} version
 * @param {string | undefined} cd the `cd` into the project, when it is not the current directory
 * @param {string} here the directory the checkout is cloned into (absolute)
 * @returns {string}
 */
export function checkoutSteps(version, cd, here) {
  const tarball = `edge-mcp-${version}.tgz`;
  // Made from a checkout's tarballs (docs/templates.md): the clone and the pack are done already.
  const packed = existsSync(join(here, "edge-mcp", tarball));
  return [
    ...(packed
      ? []
      : ["  git clone https://github.com/edge-mcp/edge-mcp.git", `  (cd edge-mcp && npm install && npm pack)   # builds dist/ and writes ${tarball}`]),
    ...(cd ? [`  cd ${cd}`] : []),
    `  npm install ${join(here, "edge-mcp", tarball)}   # the project's dependencies, with edge-mcp from the tarball`,
    "  npm run dev    # serves http://127.0.0.1:8787/mcp",
    "  npm test",
  ].join("\n");
}
