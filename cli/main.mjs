// The `edge-mcp` command: picks the subcommand and returns the process exit code.

import { readFileSync } from "node:fs";
import { runStdio } from "./run-stdio.mjs";
import { STDIO_USAGE } from "./stdio-options.mjs";
import { TENANTS_USAGE, runTenants } from "./tenants.mjs";
import { UsageError } from "./usage-error.mjs";

const USAGE = `usage: edge-mcp <command> [options]

commands:
  stdio     run this project's Worker locally and speak MCP over stdin/stdout
  tenants   check tenant configs, and keep them one per key in a KV namespace

${STDIO_USAGE}

${TENANTS_USAGE}`;

/**
 * Runs `edge-mcp ARGS` and resolves with the exit code (2 for an unknown command).
 * @param {readonly string[]} args The arguments after the program name.
 * @returns {Promise<number>}
 */
export async function main(args) {
  const [command, ...rest] = args;
  if (command === "stdio") return runStdio(rest);
  if (command === "tenants") {
    try {
      return await runTenants(rest);
    } catch (error) {
      process.stderr.write(`edge-mcp tenants: ${error instanceof Error ? error.message : String(error)}\n`);
      if (error instanceof UsageError) process.stderr.write(`\n${TENANTS_USAGE}\n`);
      return error instanceof UsageError ? 2 : 1;
    }
  }
  if (command === "--version" || command === "-v") {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    process.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  if (command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  process.stderr.write(`${command === undefined ? "edge-mcp: no command given" : `edge-mcp: unknown command '${command}'`}\n\n${USAGE}\n`);
  return 2;
}
