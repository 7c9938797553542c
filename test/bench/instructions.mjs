#!/usr/bin/env node
// `npm run bench:instructions`: instructions (and simulated cache misses, mispredicted branches) per stateless
// tools/call add(2, 3), the demo against the floor, counted by valgrind's callgrind on workerd. Counts do not
// depend on what else the machine runs, where `npm run bench`'s CPU times do. See test/bench/README.md.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ROOT, bundle, checkBuiltFromDist, distDemoConfig } from "./bundling.mjs";
import { benchWorkerd, freePort } from "./bench-workerd.mjs";
import { CYCLE_WEIGHTS, capnpConfig, estimatedCycles, parseCallgrindTotals, perCall } from "./callgrind.mjs";

const { values: opt } = parseArgs({
  options: {
    calls: { type: "string", default: "1000" }, // measured calls per revision and repetition
    warmup: { type: "string", default: "1500" }, // calls per revision before any measurement
    reps: { type: "string", default: "2" }, // measurements per revision (revisions alternate)
    "cache-sim": { type: "boolean", default: true }, // simulated I1/D1/LL caches and branch predictors (--no-cache-sim: instructions only, ~2x faster)
    I1: { type: "string", default: "32768,8,64" }, // simulated caches: size,associativity,line (this machine's Zen cores)
    D1: { type: "string", default: "49152,12,64" },
    LL: { type: "string", default: "1048576,8,64" }, // a core's private L2 as the last level (L3 is shared with other cores)
    worker: { type: "string", multiple: true, default: [] }, // label=path/to/wrangler.toml: another Worker to count, bundled as configured
    jobs: { type: "string", default: "1" }, // Workers counted at once (counts do not depend on it; wall time does)
    keep: { type: "boolean", default: false }, // keep the temporary directory (callgrind dumps for callgrind_annotate)
    workerd: { type: "string" }, // another workerd binary (default: the one wrangler's miniflare runs, as `npm run bench` does)
    help: { type: "boolean", short: "h", default: false },
  },
  allowNegative: true,
});
if (opt.help) {
  console.log(`usage: node test/bench/instructions.mjs [--calls N] [--warmup N] [--reps N] [--no-cache-sim]
                    [--I1 size,assoc,line] [--D1 …] [--LL …] [--worker label=wrangler.toml]… [--jobs N] [--keep]
                    [--workerd path/to/workerd]
Counts instructions per stateless tools/call add(2, 3) of the demo (built against dist/) and the bench floor
under valgrind's callgrind on workerd; see test/bench/README.md ("Instruction counts").`);
  process.exit(0);
}
const count = (name) => {
  const n = Number(opt[name]);
  if (!Number.isSafeInteger(n) || n < 1) {
    console.error(`instructions: --${name} must be a whole number >= 1, got ${JSON.stringify(opt[name])}`);
    process.exit(2);
  }
  return n;
};
const CALLS = count("calls");
const WARMUP = count("warmup");
const REPS = count("reps");
const JOBS = count("jobs");
const log = (...args) => console.error(...args);

try {
  execFileSync("valgrind", ["--version"], { stdio: "ignore" });
  execFileSync("callgrind_control", ["--version"], { stdio: "ignore" });
} catch {
  console.error("instructions: needs valgrind (callgrind and callgrind_control); on Debian/Ubuntu: apt-get install -y valgrind");
  process.exit(2);
}
const WORKERD = opt.workerd ?? benchWorkerd();
if (!existsSync(WORKERD)) {
  console.error(`instructions: no workerd binary at ${WORKERD} (linux-x64 only); run npm ci`);
  process.exit(2);
}

// The bench's tools/call add(2, 3) in both revisions (as run.mjs sends it).
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const BASE = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const REVISIONS = {
  "2025-11-25": { headers: { ...BASE, "mcp-protocol-version": "2025-11-25" }, params: { name: "add", arguments: { a: 2, b: 3 } } },
  "2026-07-28": {
    headers: { ...BASE, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "add" },
    params: { name: "add", arguments: { a: 2, b: 3 }, _meta: META },
  },
};

/** `n` sequential calls on one keep-alive connection; each answer must be 200 and equal the first (its id aside). */
async function drive(port, revision, n) {
  const { headers, params } = REVISIONS[revision];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let first;
  try {
    for (let i = 1; i <= n; i++) {
      const body = JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params });
      const { status, text } = await new Promise((done, fail) => {
        const req = http.request(
          { host: "127.0.0.1", port, path: "/mcp", method: "POST", agent, headers: { ...headers, "content-length": Buffer.byteLength(body) } },
          (res) => {
            let t = "";
            res.setEncoding("utf8");
            res.on("data", (d) => (t += d));
            res.on("end", () => done({ status: res.statusCode, text: t }));
          },
        );
        req.setTimeout(120_000, () => req.destroy(new Error("no answer in 120 s")));
        req.on("error", fail);
        req.end(body);
      });
      const answer = text.replace(`"id":${i},`, "");
      if (status !== 200 || !answer.includes("The sum of 2 and 3 is 5") || !answer.includes('"structuredContent":{"sum":5}'))
        throw new Error(`${revision}: HTTP ${status}: ${text.slice(0, 300)}`);
      if (first === undefined) first = answer;
      else if (answer !== first) throw new Error(`${revision}: answer ${i} differs from the first: ${text.slice(0, 300)}`);
    }
  } finally {
    agent.destroy();
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts workerd under callgrind on one bundle, warms it up, counts each revision `REPS` times; resolves with the per-call figures. */
async function countWorker(b, workDir) {
  const dir = join(workDir, `run-${b.label}`);
  mkdirSync(join(dir, "bundle"), { recursive: true });
  cpSync(b.scriptPath, join(dir, "bundle/index.js"));
  const port = await freePort();
  writeFileSync(
    join(dir, "config.capnp"),
    capnpConfig({ port, compatibilityDate: b.compatibilityDate, compatibilityFlags: b.compatibilityFlags, vars: b.vars }),
  );
  const sim = opt["cache-sim"] ? ["--cache-sim=yes", "--branch-sim=yes", `--I1=${opt.I1}`, `--D1=${opt.D1}`, `--LL=${opt.LL}`] : [];
  // One dump per thread (cg.<pid>.<n>-<thread>, thread 01 the main one): the request's own work runs on the
  // main thread; V8's worker threads do concurrent GC marking and compiling, which comes in lumps.
  const args = [
    "--tool=callgrind",
    `--callgrind-out-file=${join(dir, "cg.%p")}`,
    "--separate-threads=yes",
    "--smc-check=all-non-file",
    ...sim,
    WORKERD,
    "serve",
    "config.capnp",
  ];
  const child = spawn("valgrind", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr = (stderr + d).slice(-4000)));
  const exited = new Promise((done) => child.on("exit", done));
  try {
    let up = false;
    for (let t = 0; t < 300 && !up && child.exitCode === null; t++) {
      await sleep(1000);
      up = await drive(port, "2025-11-25", 1).then(
        () => true,
        (e) => (e.code === "ECONNREFUSED" ? false : Promise.reject(e)),
      );
    }
    if (!up) throw new Error(`${b.label}: workerd under valgrind did not answer within 300 s:\n${stderr}`);
    const revisions = Object.keys(REVISIONS);
    log(`instructions: ${b.label}: up; ${WARMUP} warm-up calls per revision`);
    for (const rev of revisions) await drive(port, rev, WARMUP);
    const totals = Object.fromEntries(revisions.map((rev) => [rev, []]));
    for (let r = 0; r < REPS; r++) {
      for (const rev of r % 2 === 0 ? revisions : [...revisions].reverse()) {
        execFileSync("callgrind_control", ["-z", String(child.pid)], { stdio: "ignore" });
        await drive(port, rev, CALLS);
        const before = new Set(readdirSync(dir));
        execFileSync("callgrind_control", ["-d", String(child.pid)], { stdio: "ignore" });
        const dumps = readdirSync(dir).filter((f) => f.startsWith(`cg.${child.pid}.`) && !before.has(f));
        const main = dumps.find((f) => f.endsWith("-01"));
        if (main === undefined) throw new Error(`${b.label}: callgrind wrote no dump of the main thread (${dumps.join(", ")})`);
        const all = {};
        let mainIr = 0;
        for (const f of dumps) {
          const t = parseCallgrindTotals(readFileSync(join(dir, f), "utf8"));
          for (const [k, v] of Object.entries(t)) all[k] = (all[k] ?? 0) + v;
          if (f === main) mainIr = t.Ir ?? 0;
        }
        totals[rev].push({ all, mainIr });
        log(`instructions: ${b.label} ${rev}: ${Math.round((all.Ir ?? 0) / CALLS)} instructions per call (main thread ${Math.round(mainIr / CALLS)})`);
      }
    }
    // Every repetition's totals together, per call.
    return Object.fromEntries(
      revisions.map((rev) => {
        const sum = {};
        for (const t of totals[rev]) for (const [k, v] of Object.entries(t.all)) sum[k] = (sum[k] ?? 0) + v;
        // The main thread's median repetition: a major GC's pause lands on the main thread too, in one batch.
        const mains = totals[rev].map((t) => t.mainIr / CALLS).sort((x, y) => x - y);
        const half = mains.length >> 1;
        const main = mains.length % 2 ? mains[half] : (mains[half - 1] + mains[half]) / 2;
        return [
          rev,
          {
            ...perCall(sum, CALLS * REPS),
            spread: totals[rev].map((t) => Math.round(t.all.Ir / CALLS)),
            main,
            mainMean: totals[rev].reduce((n, t) => n + t.mainIr, 0) / (CALLS * REPS),
            mainSpread: totals[rev].map((t) => Math.round(t.mainIr / CALLS)),
          },
        ];
      }),
    );
  } finally {
    child.kill("SIGTERM");
    await Promise.race([exited, sleep(30_000)]);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
}

/** Runs `tasks` (functions returning promises) `jobs` at a time, in order; resolves with their results. */
async function limited(tasks, jobs) {
  const results = [];
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, tasks.length) }, lane));
  return results;
}

const k = (n) => (n === undefined ? "-" : n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : n.toFixed(n < 10 ? 2 : 0));
const ratio = (a, b) => (a === undefined || b === undefined || b === 0 ? "-" : `${(a / b).toFixed(3)}x`);

async function main() {
  const workDir = mkdtempSync(join(tmpdir(), "edge-mcp-instructions-"));
  try {
    log("instructions: building dist/ and bundling the floor and the demo as `npm run bench` does");
    log(`instructions: ${WORKERD} (${execFileSync(WORKERD, ["--version"], { encoding: "utf8" }).trim()})`);
    const extra = opt.worker.map((spec) => {
      const [label, config] = spec.split("=");
      if (!label || !config || !/^[\w-]+$/.test(label)) throw new Error(`--worker takes label=path/to/wrangler.toml, got ${spec}`);
      return { label, config: resolve(config) };
    });
    const [floor, demo, ...others] = await Promise.all([
      bundle("floor", join(ROOT, "test/bench/floor/wrangler.toml"), workDir),
      distDemoConfig(workDir).then((config) => bundle("demo", config, workDir)),
      ...extra.map((w) => bundle(w.label, w.config, workDir)),
    ]);
    checkBuiltFromDist(demo);
    const workers = [floor, demo, ...others];
    const counted = await limited(
      workers.map((b) => () => countWorker(b, workDir)),
      JOBS,
    );
    const rows = [
      [
        "worker",
        "revision",
        "instr/call",
        "(reps)",
        "main (median)",
        "(reps)",
        "other threads",
        "data refs",
        "I1 miss",
        "D1 miss",
        "LL i-miss",
        "LL d-miss",
        "mispred",
        "est. cycles",
        "instr vs floor",
        "main vs floor",
        "cycles vs floor",
      ],
    ];
    const ratios = {};
    for (const rev of Object.keys(REVISIONS)) {
      const base = counted[0][rev];
      workers.forEach((b, i) => {
        const c = counted[i][rev];
        const cycles = c.i1Misses === undefined ? undefined : estimatedCycles(c);
        const baseCycles = base.i1Misses === undefined ? undefined : estimatedCycles(base);
        rows.push([
          b.label,
          rev,
          k(c.instructions),
          c.spread.map(k).join(" "),
          k(c.main),
          c.mainSpread.map(k).join(" "),
          k(c.instructions - c.mainMean),
          k(c.dataRefs),
          k(c.i1Misses),
          k(c.d1Misses),
          k(c.llInstructionMisses),
          k(c.llDataMisses),
          k(c.mispredicts),
          k(cycles),
          ratio(c.instructions, base.instructions),
          ratio(c.main, base.main),
          ratio(cycles, baseCycles),
        ]);
        if (b.label === "demo") ratios[rev] = { all: c.instructions / base.instructions, main: c.main / base.main };
      });
    }
    const widths = rows[0].map((_, j) => Math.max(...rows.map((r) => r[j].length)));
    console.log(rows.map((r) => r.map((cell, j) => (j < 2 ? cell.padEnd(widths[j]) : cell.padStart(widths[j]))).join("  ")).join("\n"));
    console.log(
      opt["cache-sim"]
        ? `per call, warm (${WARMUP} calls per revision first), ${CALLS} calls x ${REPS}; caches simulated: I1 ${opt.I1}, D1 ${opt.D1}, LL ${opt.LL}; ` +
            `est. cycles = Ir + ${CYCLE_WEIGHTS.l1Miss} x (I1+D1 misses) + ${CYCLE_WEIGHTS.llMiss} x LL misses + ${CYCLE_WEIGHTS.mispredict} x mispredicts (user space only: the kernel is not counted)`
        : `per call, warm (${WARMUP} calls per revision first), ${CALLS} calls x ${REPS}; user space only: the kernel is not counted`,
    );
    console.log(
      "main: the main thread (the request's own work), the median repetition; other threads: V8's concurrent GC marking and compiling. " +
        "A major GC adds tens of millions of instructions to the batch it falls in, mostly on other threads, some on the main one",
    );
    console.log(`instructions (main thread): ratio_2025=${ratios["2025-11-25"].main.toFixed(3)} ratio_2026=${ratios["2026-07-28"].main.toFixed(3)}`);
    console.log(`instructions: ratio_2025=${ratios["2025-11-25"].all.toFixed(3)} ratio_2026=${ratios["2026-07-28"].all.toFixed(3)}`);
  } finally {
    if (opt.keep) log(`instructions: kept ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`instructions: FAILED: ${err?.stack ?? err}`);
  process.exitCode = 1;
});
