// MCP Apps bench (boot and reads): a Worker with 20 apps of 200 KiB whose HTML is a static asset
// against the same Worker without apps, each started in a fresh workerd (wrangler's own miniflare,
// as run.mjs starts Workers) for several rounds in rotating order; medians. Boot is from
// `new Miniflare()` to the first right answer (a tools/call), in wall ms and in workerd CPU ms.
// In the apps Worker it then reads one app's ui:// resource (the first read fetches the asset and
// hashes it; later reads serve the kept bytes) against a tools/call whose text is as long.
// Run: node test/bench/apps-boot.mjs [--rounds N] [--reads N]   (npm run bench:apps runs it after apps-bundle.mjs)
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { APPS, HTML_BYTES, VARIANTS, appHtml, bundle } from "./apps-workers.mjs";

process.env.WRANGLER_SEND_METRICS = "false";
process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
const require = createRequire(import.meta.url);
const { Miniflare } = createRequire(require.resolve("wrangler/package.json"))("miniflare");

const { values: opt } = parseArgs({ options: { rounds: { type: "string", default: "7" }, reads: { type: "string", default: "200" } } });
const ROUNDS = Number(opt.rounds);
const READS = Number(opt.reads);
const TARGET = 1.1; // boot with the apps from assets, against without
const WITH_APPS = "20 apps × 200 KiB, static assets";
const log = (...args) => console.error(...args);

// --- workerd CPU, from /proc (as run.mjs reads it) -------------------------------------------

function childPids(pid) {
  const out = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === pid) out.push({ pid: Number(entry), comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) });
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

/** CPU ns of a process tree: the sum of its threads' schedstat. */
function cpuNs(root) {
  const pids = [root];
  for (let i = 0; i < pids.length; i++) for (const child of childPids(pids[i])) pids.push(child.pid);
  let ns = 0;
  for (const pid of pids) {
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        try {
          ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
        } catch {
          // the thread ended
        }
      }
    } catch {
      // the process ended
    }
  }
  return ns;
}

// --- requests (2025-11-25, stateless: one POST each, JSON answers) ---------------------------

let nextId = 1;
async function rpc(base, method, params) {
  const response = await fetch(new URL("/mcp", base), {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
  });
  const body = await response.json();
  if (response.status !== 200 || body.error) throw new Error(`${method}: ${response.status} ${JSON.stringify(body.error ?? body)}`);
  return body.result;
}

const echo = async (base) => {
  const result = await rpc(base, "tools/call", { name: "echo", arguments: {} });
  if (result.content?.[0]?.text !== "ok") throw new Error(`echo answered ${JSON.stringify(result)}`);
};
const readApp = async (base, i) => {
  const [content] = (await rpc(base, "resources/read", { uri: `ui://app${i}/index.html` })).contents;
  if (content?.text !== appHtml(i) || content.mimeType !== "text/html;profile=mcp-app") throw new Error(`ui://app${i}: wrong contents`);
};
const blob = async (base) => {
  const result = await rpc(base, "tools/call", { name: "blob", arguments: {} });
  if (result.content?.[0]?.text?.length !== HTML_BYTES) throw new Error("blob: wrong length");
};

// --- one fresh workerd per measurement --------------------------------------------------------

async function start(variant, dir) {
  const before = new Set(childPids(process.pid).map((c) => c.pid));
  const t0 = performance.now();
  const mf = new Miniflare({
    modules: true,
    scriptPath: join(dir, variant.file),
    modulesRoot: dir,
    compatibilityDate: "2026-04-01",
    compatibilityFlags: ["enable_request_signal"],
    host: "127.0.0.1",
    port: 0,
    cf: false,
    unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
    ...(variant.assets
      ? { assets: { directory: join(dir, "public"), binding: "ASSETS", routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: true } } }
      : {}),
  });
  await mf.ready;
  const base = await mf.unsafeGetDirectURL();
  const spawned = childPids(process.pid).filter((c) => !before.has(c.pid) && c.comm.startsWith("workerd"));
  if (spawned.length !== 1) throw new Error(`expected one new workerd, found ${JSON.stringify(spawned)}`);
  const pid = spawned[0].pid;
  await echo(base);
  return { mf, pid, base, bootMs: performance.now() - t0, bootCpuMs: cpuNs(pid) / 1e6 };
}

async function stop({ mf, pid }) {
  await mf.dispose();
  for (let i = 0; i < 100 && existsSync(`/proc/${pid}`); i++) await new Promise((r) => setTimeout(r, 50));
}

/** workerd CPU µs and wall µs per call of `call`, over `n` sequential calls. */
async function perCall(worker, n, call) {
  const cpu0 = cpuNs(worker.pid);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await call();
  return { cpuUs: (cpuNs(worker.pid) - cpu0) / 1000 / n, wallUs: ((performance.now() - t0) * 1000) / n };
}

// --- the rounds ---------------------------------------------------------------------------------

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ", 1)[0];

const dir = mkdtempSync(join(tmpdir(), "edge-mcp-apps-boot-"));
try {
  mkdirSync(join(dir, "public"));
  for (let i = 0; i < APPS; i++) writeFileSync(join(dir, "public", `app${i}.html`), appHtml(i));
  const names = Object.keys(VARIANTS);
  const variants = {};
  for (const [i, name] of names.entries()) {
    const file = `worker${i}.js`;
    writeFileSync(join(dir, `entry${i}.js`), VARIANTS[name].source);
    writeFileSync(join(dir, file), await bundle(join(dir, `entry${i}.js`)));
    variants[name] = { ...VARIANTS[name], file };
  }
  const boots = Object.fromEntries(names.map((name) => [name, []]));
  const reads = { first: [], firstCpu: [], read: [], readWall: [], blob: [], blobWall: [], inlineRead: [] };
  log(`apps-boot: ${ROUNDS} rounds of ${names.length} fresh workerd each, load average ${load()} at the start`);
  for (let round = 0; round < ROUNDS; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const name of order) {
      const worker = await start(variants[name], dir);
      try {
        boots[name].push(worker);
        if (name === WITH_APPS) {
          const cpu0 = cpuNs(worker.pid);
          const t0 = performance.now();
          await readApp(worker.base, 0);
          reads.first.push(performance.now() - t0);
          reads.firstCpu.push((cpuNs(worker.pid) - cpu0) / 1e6);
          for (let i = 0; i < 20; i++) await Promise.all([readApp(worker.base, 0), blob(worker.base)]); // warm-up
          const read = await perCall(worker, READS, () => readApp(worker.base, 0));
          const call = await perCall(worker, READS, () => blob(worker.base));
          reads.read.push(read.cpuUs);
          reads.readWall.push(read.wallUs);
          reads.blob.push(call.cpuUs);
          reads.blobWall.push(call.wallUs);
        } else if (name === "20 apps × 200 KiB, inline strings") {
          for (let i = 0; i < 20; i++) await readApp(worker.base, 0);
          reads.inlineRead.push((await perCall(worker, READS, () => readApp(worker.base, 0))).cpuUs);
        }
      } finally {
        await stop(worker);
      }
    }
    log(`round ${round + 1}: ${order.map((name) => `${name} ${boots[name].at(-1).bootMs.toFixed(0)} ms`).join(", ")} (load ${load()})`);
  }

  const f = (value, digits = 1) => value.toFixed(digits);
  console.log(`\nBoot, from new Miniflare() to the first tools/call answer: medians of ${ROUNDS} rounds, a fresh workerd each`);
  console.log(`${"Worker".padEnd(36)} ${"wall ms".padStart(8)} ${"workerd CPU ms".padStart(15)}`);
  for (const name of names) {
    console.log(`${name.padEnd(36)} ${f(median(boots[name].map((b) => b.bootMs))).padStart(8)} ${f(median(boots[name].map((b) => b.bootCpuMs))).padStart(15)}`);
  }
  /** The median over rounds of a ratio taken within each round. */
  const ratio = (a, b, key) => median(boots[a].map((x, i) => x[key] / boots[b][i][key]));
  const against = (b) => `wall ${f(ratio(WITH_APPS, b, "bootMs"), 2)}×, CPU ${f(ratio(WITH_APPS, b, "bootCpuMs"), 2)}×`;
  console.log(`\n20 apps from assets against no apps: ${against("no apps")}`);
  console.log(`20 apps from assets against no apps with the same assets bound: ${against("no apps, assets bound")}`);
  console.log(
    `20 apps inline against no apps: wall ${f(ratio("20 apps × 200 KiB, inline strings", "no apps", "bootMs"), 2)}×, CPU ${f(ratio("20 apps × 200 KiB, inline strings", "no apps", "bootCpuMs"), 2)}×`,
  );
  console.log(`\nReading one app of ${HTML_BYTES / 1024} KiB (2025-11-25 resources/read), ${READS} sequential reads after a warm-up, medians:`);
  console.log(`  first read in an isolate (asset fetch + SHA-256): ${f(median(reads.first))} ms wall, ${f(median(reads.firstCpu), 2)} ms workerd CPU`);
  console.log(`  later reads, from assets: ${f(median(reads.read), 0)} µs workerd CPU, ${f(median(reads.readWall), 0)} µs wall`);
  console.log(`  later reads, inline string: ${f(median(reads.inlineRead), 0)} µs workerd CPU`);
  console.log(`  tools/call of a ${HTML_BYTES / 1024} KiB text: ${f(median(reads.blob), 0)} µs workerd CPU, ${f(median(reads.blobWall), 0)} µs wall`);
  const bootRatio = ratio(WITH_APPS, "no apps, assets bound", "bootCpuMs");
  console.log(
    `\napps-boot: boot_cpu_ratio=${f(bootRatio, 2)} (target ${TARGET}) boot_cpu_ratio_no_assets=${f(ratio(WITH_APPS, "no apps", "bootCpuMs"), 2)} read_vs_text=${f(median(reads.read) / median(reads.blob), 2)} load_end=${load()}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
