// Code mode's memory over many programs (docs/code-mode.md): starts `wrangler dev` of the multi-tenant example
// on free loopback ports, runs N sequential `execute` calls on the globex tenant and prints the workerd processes' RSS
// (Linux /proc) at 0, 500, 1000, ... N programs, then once more after a few seconds idle. A loader that keeps every
// program's Worker shows as RSS that keeps rising; a bounded one levels off.
// `--direct` makes the same number of direct `hello` calls instead (the baseline: what workerd under wrangler dev grows
// by per request with no code mode at all). Each row also gives each of wrangler's two workerd processes.
//   node test/bench/code-mode-memory.mjs [N=2000] [--direct] [--program <body of an execute>]
import { spawn } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./bundling.mjs";
import { freePort } from "./bench-workerd.mjs";

const args = process.argv.slice(2);
const N = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 2000);
const DIRECT = args.includes("--direct");
const PROGRAM = args.includes("--program")
  ? String(args[args.indexOf("--program") + 1])
  : 'const xs = []; for (let i = 0; i < 100; i++) xs.push(i * 2); return await tools.hello({ name: "m" + xs.length });';
const STEP = 500;
const port = await freePort();
const inspectorPort = await freePort();
const wrangler = spawn(
  join(ROOT, "node_modules/.bin/wrangler"),
  [
    "dev",
    ...["-c", "examples/multi-tenant/wrangler.toml", "-c", "examples/tool-service/wrangler.toml"],
    ...["--ip", "127.0.0.1", "--port", String(port), "--inspector-ip", "127.0.0.1", "--inspector-port", String(inspectorPort)],
    ...["--log-level", "warn", "--show-interactive-dev-session=false", "--live-reload=false"],
  ],
  {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: "false",
      WRANGLER_SEND_ERROR_REPORTS: "false",
      WRANGLER_HIDE_BANNER: "true",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
    },
  },
);
const stop = () => {
  try {
    process.kill(-(/** @type {number} */ (wrangler.pid)), "SIGTERM");
  } catch {
    // already gone
  }
};
process.once("exit", stop);
process.once("SIGINT", () => process.exit(130));

const BASE = `http://127.0.0.1:${port}`;
const MCP = `${BASE}/t/globex/mcp`;
const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
let id = 1;
/** One tools/call; throws unless it answers 200 without isError. */
async function call(name, toolArgs) {
  const response = await fetch(MCP, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": name,
      // Anonymous callers are rate-limited by address (20 calls a minute a tool): spread over a /24 of documentation addresses.
      "cf-connecting-ip": `198.51.100.${id % 250}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name, arguments: toolArgs, _meta: meta } }),
  });
  const text = await response.text();
  if (response.status !== 200 || text.includes('"isError":true')) throw new Error(`${name} answered ${response.status}: ${text.slice(0, 400)}`);
}
const run = () => (DIRECT ? call("hello", { name: "m" + id }) : call("execute", { code: PROGRAM }));

/** The workerd processes of this wrangler dev (its process group). */
function workerdPids() {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
        return Number(stat[2]) === wrangler.pid && readFileSync(`/proc/${d}/cmdline`, "utf8").includes("workerd");
      } catch {
        return false;
      }
    });
}
/** One process's RSS, in MiB. */
const rssOf = (pid) => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Number(line[1]) / 1024 : 0;
};
const rssMiB = () => workerdPids().reduce((sum, pid) => sum + rssOf(pid), 0);
// wrangler dev runs two workerd processes: the Worker's (with its Dynamic Workers) and its own proxy's.
// The Worker's process is the one with an inspector address.
const roleOf = (pid) => (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--inspector-addr") ? "Worker" : "proxy");
const perProcess = () =>
  workerdPids()
    .map((pid) => `${roleOf(pid)} ${rssOf(pid).toFixed(1)}`)
    .join(", ");

const deadline = Date.now() + 90_000;
for (;;) {
  try {
    await call("execute", { code: "return 1;" });
    break;
  } catch (error) {
    if (Date.now() > deadline) throw error;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
// A few warm-up runs so the first point is the loaded Worker, not its start.
for (let i = 0; i < 20; i++) await run();
const rows = [];
const t0 = performance.now();
rows.push({ programs: 0, rssMiB: rssMiB(), seconds: 0, each: perProcess() });
for (let i = 1; i <= N; i++) {
  await run();
  if (i % STEP === 0 || i === N) rows.push({ programs: i, rssMiB: rssMiB(), seconds: (performance.now() - t0) / 1000, each: perProcess() });
}
await new Promise((resolve) => setTimeout(resolve, 3000));
rows.push({ programs: `${N} + 3 s idle`, rssMiB: rssMiB(), seconds: (performance.now() - t0) / 1000, each: perProcess() });
console.log(`workerd RSS over ${N} sequential ${DIRECT ? "direct hello" : "execute"} calls (globex, pids ${workerdPids().join(",")}):`);
for (const row of rows)
  console.log(`  ${String(row.programs).padStart(16)}  ${row.rssMiB.toFixed(1).padStart(7)} MiB  ${row.seconds.toFixed(1).padStart(6)} s   (${row.each})`);
const first = rows[0]?.rssMiB ?? 0;
const last = rows.at(-2)?.rssMiB ?? 0;
console.log(`  growth: ${(last - first).toFixed(1)} MiB, ${(((last - first) * 1024) / N).toFixed(1)} KiB a call`);
stop();
process.exit(0);
