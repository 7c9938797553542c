// `edge-mcp tenants`: checks tenant configs and keeps them one per key in a KV namespace, through the project's wrangler.

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adminApiBackend } from "./tenants-admin-api.mjs";
import { SECRETS_USAGE, runTenantSecrets } from "./tenant-secrets.mjs";
import { UsageError } from "./usage-error.mjs";

export const TENANTS_USAGE = `edge-mcp tenants <command> [options]

  validate FILE     check a tenants document ({"tenants": [...]}) or one tenant's config; exit 1 naming each problem
  import FILE       check FILE, then write each tenant as its own keys (tenant:<id>, host:<host>, path:<prefix>)
  put FILE          the same as import, for a file of one tenant or a few
  get ID            print a tenant's stored config
  list              print the id of every stored tenant
  diff FILE         say for each tenant of FILE whether it is new, changed or the same as stored
  disable ID        remove the tenant's host and path routes (its requests get 404), keeping its config
  delete ID         remove the tenant's config and routes
  secrets …         a tenant's sealed secrets, through --url only (below)

options (every command but validate):
  --url URL         work through the Worker's admin API at URL (token in MCP_ADMIN_TOKEN): a change
                    reaches every isolate within its recheckMs (5 s) instead of the KV bound below
  --binding NAME    the KV binding in wrangler.toml (default MCP_TENANTS_KV)
  --local           the local namespace of wrangler dev (default: the deployed one)
  --persist-to DIR  where the local namespace is kept (wrangler's --persist-to)
  --config FILE     the wrangler config (default: wrangler's own lookup)

A change is in force on every isolate within the Worker's keyedTenants() ttlMs (default 60 s) plus KV's
propagation (up to 60 s); see docs/tenants.md, "Many tenants".

${SECRETS_USAGE}`;

/**
 * @typedef {{ binding: string, local: boolean, persistTo: string | undefined, config: string | undefined, url: string | undefined, positional: string[] }} TenantsOptions
 * @typedef {import("./tenants-admin-api.mjs").TenantBackend} TenantBackend
 * @typedef {{ key: string, value: string }} Entry
 * @typedef {{ config: { id: string }, entries: Entry[] }} CheckedTenant
 * @typedef {{ log(line: string): void, err(line: string): void }} Output
 */

/** @param {unknown} error */
const messageOf = (error) => (error instanceof Error ? error.message : String(error));

/**
 * The runtime's checks, from the built package (dist/ ships with it; in a checkout, \`npm run build\` makes it). */
/** @returns {Promise<(value: unknown) => { tenants: CheckedTenant[], problems: string[] }>} */
async function checker() {
  try {
    return (await import(new URL("../dist/host.js", import.meta.url).href)).checkTenants;
  } catch (error) {
    throw new UsageError(`cannot load edge-mcp's tenant checks from dist/ (in a checkout of edge-mcp, run npm run build first): ${messageOf(error)}`);
  }
}

/** @param {string} file */
function readJson(file) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${messageOf(error)}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON: ${messageOf(error)}`);
  }
}

/**
 * @param {readonly string[]} args
 * @returns {TenantsOptions}
 */
function parseArgs(args) {
  /** @type {TenantsOptions} */
  const options = { binding: "MCP_TENANTS_KV", local: false, persistTo: undefined, config: undefined, url: undefined, positional: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = /** @type {string} */ (args[i]);
    const value = () => {
      const next = args[++i];
      if (next === undefined || next.startsWith("--")) throw new UsageError(`${arg} needs a value`);
      return next;
    };
    if (arg === "--local") options.local = true;
    else if (arg === "--binding") options.binding = value();
    else if (arg === "--url") options.url = value();
    else if (arg === "--persist-to") options.persistTo = value();
    else if (arg === "--config" || arg === "-c") options.config = value();
    else if (arg.startsWith("-")) throw new UsageError(`unknown option ${arg}`);
    else options.positional.push(arg);
  }
  return options;
}

/**
 * Runs `wrangler kv ARGS` of the project (npx finds the project's own) on the namespace the options name.
 * @param {TenantsOptions} options
 * @param {string[]} args
 */
function kv(options, args) {
  const where = [
    "--binding",
    options.binding,
    ...(options.local ? ["--local"] : ["--remote"]),
    ...(options.persistTo ? ["--persist-to", options.persistTo] : []),
    ...(options.config ? ["--config", options.config] : []),
  ];
  return spawnSync("npx", ["--no-install", "wrangler", "kv", ...args, ...where], {
    encoding: "utf8",
    maxBuffer: 1024 * 1024 * 1024,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_HIDE_BANNER: "true" },
  });
}

/**
 * `wrangler kv ARGS`' output, or an error with wrangler's message.
 * @param {TenantsOptions} options
 * @param {string[]} args
 */
function wrangler(options, args) {
  const result = kv(options, args);
  if (result.status !== 0) throw new Error(`wrangler kv ${args[0]} ${args[1]} failed:\n${(result.stderr || result.stdout).trim()}`);
  return result.stdout;
}

/**
 * A stored value, or undefined when the key is absent.
 * @param {TenantsOptions} options
 * @param {string} key
 */
function getKey(options, key) {
  const result = kv(options, ["key", "get", key, "--text"]);
  if (result.status !== 0 || /^Value not found/m.test(result.stdout)) return undefined;
  return result.stdout;
}

/** Checks FILE and prints its problems; the valid tenants, or undefined when there is any problem. */
/**
 * @param {string} file
 * @param {Output} out
 */
async function checked(file, out) {
  const { tenants, problems } = (await checker())(readJson(file));
  for (const problem of problems) out.err(`${file}: ${problem}`);
  return problems.length > 0 ? undefined : tenants;
}

/** Writes entries with `wrangler kv bulk put` from a temporary file. */
/**
 * @param {TenantsOptions} options
 * @param {Entry[]} entries
 */
function bulkPut(options, entries) {
  const dir = mkdtempSync(join(tmpdir(), "edge-mcp-tenants-"));
  try {
    const file = join(dir, "entries.json");
    writeFileSync(file, JSON.stringify(entries));
    wrangler(options, ["bulk", "put", file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The backend of a KV namespace through the project's wrangler.
 * @param {TenantsOptions} options
 * @returns {TenantBackend}
 */
function kvBackend(options) {
  /** @param {string} id */
  const routesOf = (id) => {
    const text = getKey(options, `tenant:${id}`);
    if (text === undefined) throw new UsageError(`no tenant ${id} is stored`);
    /** @type {{ hosts?: string[], pathPrefix?: string }} */
    const config = JSON.parse(text);
    return [...(config.hosts ?? []).map((h) => `host:${h.toLowerCase()}`), ...(config.pathPrefix ? [`path:${config.pathPrefix}`] : [])];
  };
  return {
    put: async (tenants) =>
      bulkPut(
        options,
        tenants.flatMap((t) => t.entries),
      ),
    get: async (id) => getKey(options, `tenant:${id}`),
    async list() {
      /** @type {{ name: string }[]} */
      const keys = JSON.parse(wrangler(options, ["key", "list", "--prefix", "tenant:"]));
      return keys.map(({ name }) => name.slice("tenant:".length));
    },
    async disable(id) {
      for (const key of routesOf(id)) wrangler(options, ["key", "delete", key]);
    },
    async remove(id) {
      for (const key of [...routesOf(id), `tenant:${id}`]) wrangler(options, ["key", "delete", key]);
    },
  };
}

/**
 * Runs `edge-mcp tenants ARGS`; resolves with the exit code.
 * @param {readonly string[]} args
 * @param {Output} out
 * @returns {Promise<number>}
 */
export async function runTenants(args, out = { log: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) }) {
  const [command, ...rest] = args;
  const options = parseArgs(rest);
  const target = options.positional[0];
  /** @type {TenantBackend | undefined} */
  let made;
  // Made when a command needs it: validate needs neither wrangler nor a token.
  const store = () => (made ??= options.url === undefined ? kvBackend(options) : adminApiBackend(options.url, process.env["MCP_ADMIN_TOKEN"]));
  const where = options.url === undefined ? `${options.binding}${options.local ? " (local)" : ""}` : options.url;
  /** @param {string} what */
  const needs = (what) => {
    if (target === undefined) throw new UsageError(`edge-mcp tenants ${command} needs ${what}`);
    return target;
  };
  switch (command) {
    case "validate": {
      const tenants = await checked(needs("a FILE"), out);
      if (!tenants) return 1;
      out.log(`${target}: ${tenants.length} tenant${tenants.length === 1 ? "" : "s"}, all valid`);
      return 0;
    }
    case "import":
    case "put": {
      const tenants = await checked(needs("a FILE"), out);
      if (!tenants) {
        out.err("nothing was written");
        return 1;
      }
      await store().put(tenants);
      out.log(`wrote ${tenants.length} tenant${tenants.length === 1 ? "" : "s"} to ${where}`);
      return 0;
    }
    case "get": {
      const text = await store().get(needs("an ID"));
      if (text === undefined) {
        out.err(`no tenant ${target} is stored`);
        return 1;
      }
      out.log(JSON.stringify(JSON.parse(text), null, 2));
      return 0;
    }
    case "list": {
      for (const id of await store().list()) out.log(id);
      return 0;
    }
    case "diff": {
      const tenants = await checked(needs("a FILE"), out);
      if (!tenants) return 1;
      for (const { config, entries } of tenants) {
        const stored = await store().get(config.id);
        const same = stored !== undefined && JSON.stringify(JSON.parse(stored)) === entries[0]?.value;
        out.log(`${stored === undefined ? "new" : same ? "same" : "changed"} ${config.id}`);
      }
      return 0;
    }
    case "disable":
    case "delete": {
      const id = needs("an ID");
      await (command === "delete" ? store().remove(id) : store().disable(id));
      out.log(`${command === "delete" ? "deleted" : "disabled"} tenant ${target}`);
      return 0;
    }
    case "secrets":
      return runTenantSecrets(options.positional, options.url, out);
    default:
      throw new UsageError(command === undefined ? "edge-mcp tenants needs a command" : `unknown tenants command '${command}'`);
  }
}
