// The command line of `edge-mcp stdio`: which Worker configs to run and which endpoint to relay to.

import { UsageError } from "./usage-error.mjs";

export const STDIO_USAGE = `usage: edge-mcp stdio [--config wrangler.toml]... [--env NAME] [--var KEY:VALUE]...
                      [--tenant-host HOST] [--path /mcp] [--header "Name: value"]...
                      [--persist-to DIR] [--max-in-flight N]

Runs the Worker of this project in miniflare (local workerd, no listening port for hosts to
reach) and speaks MCP over stdin/stdout: one JSON-RPC message per line. Logs go to stderr;
MCP_DEBUG=true also logs every message.

  --config PATH        wrangler config (default: wrangler.toml, wrangler.json or wrangler.jsonc);
                       repeat it to run more Workers, reachable through service bindings (the
                       first one is served)
  --env NAME           the [env.NAME] section of every config
  --var KEY:VALUE      override a var of the served Worker (repeatable)
  --tenant-host HOST   the Host the Worker sees, e.g. acme.localhost (default: localhost)
  --path PATH          the MCP endpoint's path, e.g. /t/globex/mcp (default: /mcp)
  --header "N: V"      an extra header on every request, e.g. "Authorization: Bearer …"
  --persist-to DIR     where Durable Objects and KV keep their data (default: .wrangler/state,
                       shared with wrangler dev)
  --max-in-flight N    at most N requests relayed at once (default: 64); later lines wait, and
                       stdin is read no further while they do`;

/**
 * @typedef {object} StdioOptions
 * @property {string[]} configs Config paths as given; empty means the default wrangler config.
 * @property {string | undefined} env
 * @property {Record<string, string>} vars
 * @property {string} host
 * @property {string} path
 * @property {Record<string, string>} headers Header names lower-cased.
 * @property {string | undefined} persistTo
 * @property {number} maxInFlight
 */

const VALUE_OPTIONS = new Set(["config", "c", "env", "e", "var", "tenant-host", "path", "header", "persist-to", "max-in-flight"]);
const MAX_IN_FLIGHT_CEILING = 10_000;
const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$/;
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Parses the arguments after `stdio`; throws {@link UsageError} naming the bad argument.
 * Accepts `--name value` and `--name=value`.
 * @param {readonly string[]} args
 * @returns {StdioOptions}
 */
export function parseStdioOptions(args) {
  /** @type {StdioOptions} */
  const options = { configs: [], env: undefined, vars: {}, host: "localhost", path: "/mcp", headers: {}, persistTo: undefined, maxInFlight: 64 };
  for (let i = 0; i < args.length; i++) {
    const arg = /** @type {string} */ (args[i]);
    const match = /^--?([a-z-]+)(?:=(.*))?$/s.exec(arg);
    const name = match?.[1];
    if (!match || name === undefined || !VALUE_OPTIONS.has(name)) throw new UsageError(`unknown argument '${arg}'`);
    let value = match[2];
    if (value === undefined) {
      value = args[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
    }
    switch (name) {
      case "config":
      case "c":
        options.configs.push(value);
        break;
      case "env":
      case "e":
        options.env = value;
        break;
      case "var": {
        const colon = value.indexOf(":");
        if (colon <= 0) throw new UsageError(`--var wants KEY:VALUE; received '${value}'`);
        options.vars[value.slice(0, colon)] = value.slice(colon + 1);
        break;
      }
      case "tenant-host":
        if (!HOST.test(value)) throw new UsageError(`--tenant-host wants a host name such as acme.localhost; received '${value}'`);
        options.host = value;
        break;
      case "path":
        if (!value.startsWith("/") || /[\s?#]/.test(value)) throw new UsageError(`--path wants an absolute path such as /t/globex/mcp; received '${value}'`);
        options.path = value;
        break;
      case "header": {
        const colon = value.indexOf(":");
        const headerName = value.slice(0, colon).trim();
        if (colon <= 0 || !HEADER_NAME.test(headerName)) throw new UsageError(`--header wants "Name: value"; received '${value}'`);
        options.headers[headerName.toLowerCase()] = value.slice(colon + 1).trim();
        break;
      }
      case "persist-to":
        options.persistTo = value;
        break;
      case "max-in-flight": {
        const n = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
        if (!(n >= 1 && n <= MAX_IN_FLIGHT_CEILING))
          throw new UsageError(`--max-in-flight wants a whole number from 1 to ${MAX_IN_FLIGHT_CEILING}; received '${value}'`);
        options.maxInFlight = n;
        break;
      }
    }
  }
  return options;
}
