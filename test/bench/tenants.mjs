// `npm run bench:tenants`: the multi-tenant Worker with tenants one KV key each (keyedTenants) at 100, 10,000 and
// 100,000 tenants, imported into a persisted local namespace by `edge-mcp tenants import`, served by wrangler dev.
// Per size: the first answer of tenants not yet held (20 distinct, on a fresh wrangler dev whose isolate has
// answered one probe), steady answers of one tenant held (200), and workerd's memory after 300 distinct tenants
// were served (the bench Worker holds at most 100). Last line:
//   tenants: first_ratio_100k=X steady_ratio=Y rss_mib_100=A rss_mib_100k=B
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./bench-workerd.mjs";
import { ROOT } from "./bundling.mjs";

const SIZES = (process.env.TENANT_SIZES ?? "100,10000,100000").split(",").map(Number);
// Local KV takes about 60 writes a second (a file and a row per value), so 100,000 tenants take about an hour
// to import: TENANT_STATE_DIR keeps each size's namespace (<dir>/<size>) and imports only what is not there yet.
const STATE_DIR = process.env.TENANT_STATE_DIR;
const ONLY_IMPORT = process.argv.includes("--import-only");
const FIRSTS = 20;
const STEADY = 200;
const TOUCHED = 300;
// Then this many more distinct tenants: with at most 100 held (index.ts), memory must stay where it was.
const MANY = 3000;
const NEW_ROUNDS = Number(process.env.TENANT_NEW_ROUNDS ?? 3);
const CONFIG = join(ROOT, "test/bench/tenants/wrangler.toml");
const ENV = { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_HIDE_BANNER: "true", CLOUDFLARE_CF_FETCH_ENABLED: "false" };

const idOf = (i) => `t${String(i).padStart(6, "0")}`;
const hostOf = (i) => `${idOf(i)}.bench.test`;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function importTenants(count, persistTo) {
  mkdirSync(persistTo, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), "edge-mcp-tenants-doc-"));
  try {
    const file = join(dir, "tenants.json");
    const tenants = Array.from({ length: count }, (_, i) => ({ id: idOf(i), hosts: [hostOf(i)], modules: [{ name: "greetings" }] }));
    writeFileSync(file, JSON.stringify({ tenants }));
    const started = performance.now();
    const result = spawnSync(
      process.execPath,
      [join(ROOT, "bin/edge-mcp.mjs"), "tenants", "import", file, "--local", "--persist-to", persistTo, "--config", CONFIG],
      { encoding: "utf8", env: ENV, cwd: ROOT },
    );
    if (result.status !== 0) throw new Error(`tenants import failed:\n${result.stderr}${result.stdout}`);
    return (performance.now() - started) / 1000;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function call(port, host) {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "hello", arguments: {} } });
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "POST",
        headers: { host, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString(), ms: performance.now() - started }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Resident memory of the workerd processes under `pid`, in MiB: the Worker's (started with an
 * inspector address) and wrangler's own proxy's, which grows with every request whatever it serves.
 */
function workerdRssMib(pid) {
  const rss = { worker: 0, proxy: 0 };
  const children = (p) => {
    try {
      return readFileSync(`/proc/${p}/task/${p}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const walk = (p) => {
    for (const child of children(p)) {
      try {
        const status = readFileSync(`/proc/${child}/status`, "utf8");
        if (/^Name:\s+workerd/m.test(status)) {
          const mib = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024;
          if (readFileSync(`/proc/${child}/cmdline`, "utf8").includes("--inspector-addr")) rss.worker += mib;
          else rss.proxy += mib;
        }
      } catch {
        // gone
      }
      walk(child);
    }
  };
  walk(pid);
  return rss;
}

async function startDev(persistTo) {
  const [port, inspector] = [await freePort(), await freePort()];
  const child = spawn(
    "npx",
    [
      "--no-install",
      "wrangler",
      "dev",
      "--config",
      CONFIG,
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(inspector),
      "--persist-to",
      persistTo,
    ],
    { cwd: ROOT, env: ENV, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  const deadline = Date.now() + 60_000;
  while (!/Ready on/.test(log)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`wrangler dev did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // One answer of the isolate (an unknown host: a KV miss) so that the figures below are of tenants, not of the boot.
  const probe = await call(port, "probe.bench.test");
  if (probe.status !== 404) throw new Error(`the probe got ${probe.status}: ${probe.body}`);
  return {
    port,
    pid: child.pid,
    stop: () => {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
    },
  };
}

const results = [];
for (const size of SIZES) {
  const persistTo = STATE_DIR ? join(STATE_DIR, String(size)) : mkdtempSync(join(tmpdir(), "edge-mcp-tenants-kv-"));
  try {
    const done = join(persistTo, "imported");
    const importS = existsSync(done) ? 0 : importTenants(size, persistTo);
    if (STATE_DIR) writeFileSync(done, `${size}\n`);
    if (ONLY_IMPORT) {
      console.log(`tenants=${size}: imported in ${importS.toFixed(1)} s`);
      continue;
    }
    const dev = await startDev(persistTo);
    try {
      const picks = new Set();
      while (picks.size < Math.min(FIRSTS, size)) picks.add(Math.floor(Math.random() * size));
      const firsts = [];
      for (const i of picks) {
        const answer = await call(dev.port, hostOf(i));
        if (!answer.body.includes(`hi from ${idOf(i)}`)) throw new Error(`tenant ${idOf(i)} answered ${answer.status}: ${answer.body}`);
        firsts.push(answer.ms);
      }
      const [held] = picks;
      const steady = [];
      for (let n = 0; n < STEADY; n++) steady.push((await call(dev.port, hostOf(held))).ms);
      for (let i = 0; i < Math.min(TOUCHED, size); i++) await call(dev.port, hostOf(i));
      await new Promise((r) => setTimeout(r, 1000));
      const rss = workerdRssMib(dev.pid);
      // The control: as many requests again, all to tenants the isolate already holds (the last 100 touched).
      const heldFrom = Math.max(0, Math.min(TOUCHED, size) - 100);
      for (let n = 0; n < MANY; n++) await call(dev.port, hostOf(heldFrom + (n % Math.min(100, size))));
      await new Promise((r) => setTimeout(r, 1000));
      const rssHeld = workerdRssMib(dev.pid);
      // New tenants in rounds of MANY: memory that the bound holds grows in the first round at most, not in every round.
      const rounds = [];
      for (let round = 0; round < NEW_ROUNDS; round++) {
        const from = TOUCHED + round * MANY;
        for (let i = from; i < Math.min(from + MANY, size); i++) await call(dev.port, hostOf(i));
        await new Promise((r) => setTimeout(r, 1000));
        rounds.push(workerdRssMib(dev.pid));
      }
      const rssMany = rounds.at(-1) ?? rssHeld;
      const row = {
        size,
        importS,
        firstMs: median(firsts),
        steadyMs: median(steady),
        rssMib: rss.worker + rss.proxy,
        workerMib: rss.worker,
        workerHeldMib: rssHeld.worker,
        workerManyMib: rssMany.worker,
      };
      results.push(row);
      console.log(
        `tenants=${size}: import ${importS.toFixed(1)} s, first answer ${row.firstMs.toFixed(2)} ms (median of ${firsts.length}), steady ${row.steadyMs.toFixed(2)} ms, the Worker's rss ${rss.worker.toFixed(0)} MiB after ${Math.min(TOUCHED, size)} tenants, ${rssHeld.worker.toFixed(0)} after ${MANY} more requests to held tenants, then ${rounds.map((r) => r.worker.toFixed(0)).join(", ")} after each ${MANY} requests to new tenants; wrangler's proxy ${rss.proxy.toFixed(0)} → ${rssHeld.proxy.toFixed(0)} → ${rssMany.proxy.toFixed(0)} MiB`,
      );
    } finally {
      dev.stop();
    }
  } finally {
    if (!STATE_DIR) rmSync(persistTo, { recursive: true, force: true });
  }
}
if (ONLY_IMPORT) process.exit(0);
const smallest = results[0];
const largest = results[results.length - 1];
console.log(
  `tenants: first_ratio_${largest.size >= 1000 ? `${largest.size / 1000}k` : largest.size}=${(largest.firstMs / smallest.firstMs).toFixed(2)} steady_ratio=${(largest.steadyMs / smallest.steadyMs).toFixed(2)} rss_mib_${smallest.size}=${smallest.rssMib.toFixed(0)} rss_mib_${largest.size >= 1000 ? `${largest.size / 1000}k` : largest.size}=${largest.rssMib.toFixed(0)}`,
);
