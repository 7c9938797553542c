#!/usr/bin/env node
// Measures `edge-mcp stdio` under a flood: N request lines written at once, peak memory until every one is answered.
//
//   node test/bench/stdio-flood.mjs [--lines N] [-- <edge-mcp stdio arguments>]
//
// Spawns `node bin/edge-mcp.mjs stdio` on the demo (root wrangler.toml), opens a 2025-11-25
// session, then writes N `ping` requests in one write. Samples the resident memory of the
// edge-mcp process and of the whole process tree (edge-mcp and workerd) every 50 ms from
// /proc (Linux), and prints:
//
//   stdio-flood: lines=N answered=N seconds=S peak_rss_edge_mcp_mb=A peak_rss_tree_mb=B

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = join(ROOT, "bin/edge-mcp.mjs");
const args = process.argv.slice(2);
let lines = 10_000;
const at = args.indexOf("--lines");
if (at !== -1) {
  lines = Number(args[at + 1]);
  args.splice(at, 2);
}
if (args[0] === "--") args.shift();

/** Resident set of one process, in bytes (0 when it is gone). */
function rss(pid) {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? 0 : Number(kb) * 1024;
  } catch {
    return 0;
  }
}

/** A process and every descendant. */
function tree(pid) {
  const all = [pid];
  for (let i = 0; i < all.length; i++) {
    for (const task of safeList(`/proc/${all[i]}/task`)) {
      const children = safeRead(`/proc/${all[i]}/task/${task}/children`).trim();
      if (children !== "") all.push(...children.split(/\s+/).map(Number));
    }
  }
  return all;
}
const safeList = (dir) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};
const safeRead = (file) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
};

const state = mkdtempSync(join(tmpdir(), "edge-mcp-flood-"));
const child = spawn(process.execPath, [BIN, "stdio", "--persist-to", state, ...args], {
  cwd: ROOT,
  stdio: ["pipe", "pipe", "pipe"],
  env: { ...process.env, WRANGLER_SEND_METRICS: "false", ...(process.env["FLOOD_NODE_OPTIONS"] ? { NODE_OPTIONS: process.env["FLOOD_NODE_OPTIONS"] } : {}) },
});
let stderr = "";
child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4000)));
const out = createInterface({ input: child.stdout });
const answers = [];
let wake = () => {};
out.on("line", (line) => {
  answers.push(line);
  wake();
});
const until = async (count) => {
  while (answers.length < count) await new Promise((resolve) => (wake = resolve));
};

child.stdin.write(
  `${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "flood", version: "1" } } })}\n`,
);
await until(1);
child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);

const peak = { edge: 0, tree: 0 };
const sampler = setInterval(() => {
  peak.edge = Math.max(peak.edge, rss(child.pid));
  peak.tree = Math.max(
    peak.tree,
    tree(child.pid).reduce((sum, pid) => sum + rss(pid), 0),
  );
}, 50);
const started = performance.now();
let text = "";
for (let i = 1; i <= lines; i++) text += `${JSON.stringify({ jsonrpc: "2.0", id: i, method: "ping" })}\n`;
child.stdin.write(text);
await until(1 + lines);
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
const answered = answers.slice(1).filter((line) => JSON.parse(line).result !== undefined).length;
child.stdin.end();
await new Promise((resolve) => child.once("exit", resolve));
rmSync(state, { recursive: true, force: true });
const mb = (bytes) => (bytes / 2 ** 20).toFixed(0);
console.log(
  `stdio-flood: lines=${lines} answered=${answered} seconds=${seconds.toFixed(1)} peak_rss_edge_mcp_mb=${mb(peak.edge)} peak_rss_tree_mb=${mb(peak.tree)}`,
);
if (answered !== lines) console.error(stderr);
