#!/usr/bin/env node
// Measures `edge-mcp stdio` start-up: from spawn to the first initialize answer on stdout, and from EOF to exit.
//
//   npm run bench:stdio [-- --rounds N] [-- <edge-mcp stdio arguments>]
//
// Each round spawns `node bin/edge-mcp.mjs stdio` in the repository (the demo of the root
// wrangler.toml by default; other arguments are passed on), writes `initialize` at once (the
// host does not wait for anything), and times the answer. Durable Objects persist in a fresh
// temporary directory. Prints one line per round, then the medians:
//
//   stdio: initialize_ms_median=X exit_ms_median=Y rounds=N

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = join(ROOT, "bin/edge-mcp.mjs");
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
});

const args = process.argv.slice(2);
let rounds = 10;
const roundsAt = args.indexOf("--rounds");
if (roundsAt !== -1) {
  rounds = Number(args[roundsAt + 1]);
  args.splice(roundsAt, 2);
}
if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds wants a positive integer");

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function round() {
  const state = mkdtempSync(join(tmpdir(), "edge-mcp-bench-"));
  const spawned = performance.now();
  const child = spawn(process.execPath, [BIN, "stdio", "--persist-to", state, ...args], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  child.stdin.write(`${INITIALIZE}\n`);
  const line = await Promise.race([new Promise((resolve) => createInterface({ input: child.stdout }).once("line", resolve)), exited.then(() => undefined)]);
  const answered = performance.now();
  if (typeof line !== "string" || !JSON.parse(line).result?.serverInfo) throw new Error(`no initialize answer: ${line}\n${stderr}`);
  child.stdin.end();
  const code = await exited;
  const stopped = performance.now();
  rmSync(state, { recursive: true, force: true });
  if (code !== 0) throw new Error(`edge-mcp stdio exited with ${code}\n${stderr}`);
  return { initializeMs: answered - spawned, exitMs: stopped - answered };
}

const results = [];
for (let i = 1; i <= rounds; i++) {
  const result = await round();
  results.push(result);
  console.log(`round ${i}: initialize answered after ${result.initializeMs.toFixed(0)} ms, exit ${result.exitMs.toFixed(0)} ms after EOF`);
}
const initialize = results.map((r) => r.initializeMs);
const exit = results.map((r) => r.exitMs);
const span = (values) => `${Math.min(...values).toFixed(0)}..${Math.max(...values).toFixed(0)}`;
console.log(`min..max: initialize ${span(initialize)} ms, exit ${span(exit)} ms`);
console.log(`stdio: initialize_ms_median=${median(initialize).toFixed(0)} exit_ms_median=${median(exit).toFixed(0)} rounds=${rounds}`);
