#!/usr/bin/env node
// `npm run bench`: the demo Worker (root wrangler.toml) against a bare Hono floor (test/bench/floor),
// each bundled like `wrangler deploy` and served alone by workerd through miniflare's API on 127.0.0.1.
// What is measured and how: test/bench/README.md. Options: node test/bench/run.mjs --help.
// Then the task runs (test/bench/tasks.mjs): a task-creating call and a tasks/get poll against a plain call;
// the scale runs (test/bench/scale.mjs): 10 vs 10,000 tools, big results, many SSE streams;
// and the session run (test/bench/session.mjs): a call inside a 2025-11-25 session against stateless.
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual, parseArgs } from "node:util";
import { batchSizes, corePinning, interleave, pairedRatio, sumBatches } from "./paired.mjs";
import { bundle, checkBuiltFromDist, distDemoConfig } from "./bundling.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(import.meta.url);

const { values: opt } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    requests: { type: "string", default: "3000" }, // sequential tools/call per revision (CPU, c=1 req/s, c=1 latency)
    duration: { type: "string", default: "3" }, // seconds of c=32 load per revision
    "flow-duration": { type: "string", default: "2" }, // seconds of cold flows per revision
    "flow-concurrency": { type: "string", default: "4" }, // cold flows in flight at once
    "noise-budget": { type: "string", default: "60" }, // seconds per phase (main rounds, scale runs) to spend waiting out / redoing noisy measurements
    "via-entry": { type: "boolean", default: false }, // go through miniflare's entry worker instead of the Worker's own socket
    batch: { type: "string", default: "200" }, // sequential calls per batch of a paired comparison (the sides take turns)
    pin: { type: "boolean", default: true }, // pin workerd to one core and the load generator to the other (--no-pin: don't)
    scale: { type: "boolean", default: true }, // the scale runs after the main rounds (--no-scale skips them)
    "scale-only": { type: "boolean", default: false }, // only the scale runs
    "scale-rounds": { type: "string", default: "5" }, // fresh workerds per round: instances differ by up to ~10%, so rounds beat requests
    "scale-requests": { type: "string", default: "2000" }, // sequential tools/list and tools/call per size and revision
    "scale-sizes": { type: "string", default: "10,100,10000" }, // registry sizes; the first and last are compared
    session: { type: "boolean", default: true }, // the session run after the scale runs (--no-session skips it)
    "session-only": { type: "boolean", default: false }, // only the session run (with --scale-only: both)
    "session-rounds": { type: "string", default: "5" }, // fresh workerds, one per round
    "session-requests": { type: "string", default: "2000" }, // sequential tools/call per round, stateless and in a session each
    "session-opens": { type: "string", default: "200" }, // sessions opened and deleted per round (measured)
    tasks: { type: "boolean", default: true }, // the task runs after the main rounds (--no-tasks skips them)
    "tasks-rounds": { type: "string", default: "3" }, // fresh workerds for the task runs
    "tasks-only": { type: "boolean", default: false }, // only the task runs
    notifications: { type: "boolean", default: false }, // the notifications run (notifications.mjs) after the others
    observe: { type: "boolean", default: false }, // the observe runs (observe.mjs): observability() absent, off, exporter, metering
    "observe-only": { type: "boolean", default: false }, // only the observe runs
    "observe-rounds": { type: "string", default: "3" }, // fresh workerds per variant
    "notifications-only": { type: "boolean", default: false }, // only the notifications run (npm run bench:notifications)
    "notify-listeners": { type: "string", default: "1,100,500" }, // listen streams per run; the largest runs --notify-cycles cycles
    "notify-changes": { type: "string", default: "50" }, // changes per cycle
    "notify-rate": { type: "string", default: "20" }, // changes per second
    "notify-cycles": { type: "string", default: "5" }, // open → changes → close cycles at the largest listener count
    "notify-idle": { type: "string", default: "15" }, // seconds of idle CPU measurement (one heartbeat period by default)
    "notify-raw": { type: "string", default: "500" }, // raw hub subscriptions for the hub's own cost
    "notify-heartbeat-ms": { type: "string" }, // listen streams' heartbeat (default: the runtime's)
    verbose: { type: "boolean", short: "v", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
  allowNegative: true,
});
if (opt.help) {
  console.log(`usage: node test/bench/run.mjs [--rounds N] [--requests N] [--duration S] [--flow-duration S]
                    [--flow-concurrency N] [--noise-budget S] [--via-entry] [--batch N] [--no-pin] [--verbose]
                    [--no-scale | --scale-only] [--scale-rounds N] [--scale-requests N] [--scale-sizes 10,100,10000]
                    [--no-session | --session-only] [--session-rounds N] [--session-requests N] [--session-opens N]
                    [--no-tasks | --tasks-only] [--tasks-rounds N]
                    [--notifications | --notifications-only] [--notify-listeners 1,100,500] [--notify-changes N]
                    [--notify-rate N] [--notify-cycles N] [--notify-idle S] [--notify-raw N] [--notify-heartbeat-ms N]
                    [--observe | --observe-only] [--observe-rounds N]
Measures the demo Worker against the bare floor Worker, then the task runs, the scale runs and the session run
(and, when asked, the notifications run and the observe runs); see test/bench/README.md. The --*-only flags combine (each runs its part)
and skip the main rounds.`);
  process.exit(0);
}
const num = (name, min) => {
  const value = Number(opt[name]);
  if (!Number.isFinite(value) || value < min) {
    console.error(`bench: --${name} must be a number >= ${min}, got ${JSON.stringify(opt[name])}`);
    process.exit(2);
  }
  return value;
};
const ROUNDS = Math.floor(num("rounds", 1));
const SEQ_REQUESTS = Math.floor(num("requests", 100));
const C32_SECONDS = num("duration", 0.5);
const FLOW_SECONDS = num("flow-duration", 0.5);
const FLOW_CONCURRENCY = Math.floor(num("flow-concurrency", 1));
const NOISE_BUDGET_MS = num("noise-budget", 0) * 1000;
const BATCH = Math.floor(num("batch", 10));
const pinning = corePinning(opt.pin);
const ONLY = opt["scale-only"] || opt["session-only"] || opt["tasks-only"] || opt["notifications-only"] || opt["observe-only"];
const SCALE = opt["scale-only"] || (!ONLY && opt.scale);
const SESSION = opt["session-only"] || (!ONLY && opt.session);
const TASKS = opt["tasks-only"] || (!ONLY && opt.tasks);
const NOTIFICATIONS = opt["notifications-only"] || (!ONLY && opt.notifications);
const OBSERVE = opt["observe-only"] || (!ONLY && opt.observe);
const OBSERVE_ROUNDS = Math.floor(num("observe-rounds", 1));
const SCALE_ROUNDS = Math.floor(num("scale-rounds", 1));
const SCALE_REQUESTS = Math.floor(num("scale-requests", 100));
const SESSION_ROUNDS = Math.floor(num("session-rounds", 1));
const SESSION_REQUESTS = Math.floor(num("session-requests", 100));
const SESSION_OPENS = Math.floor(num("session-opens", 10));
const TASK_ROUNDS = Math.floor(num("tasks-rounds", 1));
const SCALE_SIZES = opt["scale-sizes"].split(",").map((s) => Number(s.trim()));
if (SCALE_SIZES.length < 2 || SCALE_SIZES.some((n, i) => !Number.isSafeInteger(n) || n < 10 || (i > 0 && n <= SCALE_SIZES[i - 1]))) {
  console.error(`bench: --scale-sizes must be two or more increasing integers >= 10, got ${JSON.stringify(opt["scale-sizes"])}`);
  process.exit(2);
}
const CORES = availableParallelism(); // read before pinning narrows this process to one core
const QUIET_CORES = 0.15; // other processes' load under which the machine counts as quiet
const NOISY_CORES = 0.25; // other processes' load during a measurement that makes us redo it
const MAX_REDOS = 2; // per measurement
const C32 = 32;
const log = (...args) => console.error(...args); // progress on stderr, results on stdout

// ---------------------------------------------------------------------------------------------
// Tools: miniflare and wrangler pinned by this repository.

// wrangler@4.86.0's own miniflare (node_modules/wrangler/node_modules/miniflare), matching its workerd.
const wranglerRequire = createRequire(require.resolve("wrangler/package.json"));
const { Miniflare } = wranglerRequire("miniflare");
const MINIFLARE_VERSION = wranglerRequire("miniflare/package.json").version;
const WRANGLER_VERSION = require("wrangler/package.json").version;
const autocannon = require("autocannon");

// ---------------------------------------------------------------------------------------------
// The two protocol revisions' tools/call requests and the answers they must get.

const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const BASE_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const SUM_TEXT = "The sum of 2 and 3 is 5";

const REVISIONS = [
  {
    name: "2025-11-25",
    // initialize negotiates the version in its body, so it goes without the header (as SDK clients send it).
    headers: (method) => (method === "initialize" ? { ...BASE_HEADERS } : { ...BASE_HEADERS, "mcp-protocol-version": "2025-11-25" }),
    params: (params) => params,
  },
  {
    name: "2026-07-28",
    headers: (method, toolName) => ({
      ...BASE_HEADERS,
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(toolName === undefined ? {} : { "mcp-name": toolName }),
    }),
    params: (params) => ({ ...params, _meta: MODERN_META }),
  },
];
const isModern = (rev) => rev.name === "2026-07-28";

function addCallBody(rev, id) {
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: rev.params({ name: "add", arguments: { a: 2, b: 3 } }) });
}

class WrongAnswer extends Error {}

function expect(condition, what, detail) {
  if (!condition)
    throw new WrongAnswer(`${what}${detail === undefined ? "" : `: ${typeof detail === "string" ? detail : JSON.stringify(detail)}`}`.slice(0, 600));
}

function parseJson(text, what) {
  try {
    return JSON.parse(text);
  } catch {
    throw new WrongAnswer(`${what}: not JSON: ${text.slice(0, 300)}`);
  }
}

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

/** Strict check of one tools/call add(2, 3) answer, parsed. */
function checkAddAnswer(rev, id, status, contentType, text) {
  const what = `${rev.name} tools/call add (id ${id})`;
  expect(status === 200, `${what}: HTTP ${status}`, text.slice(0, 300));
  expect(/^application\/json\b/.test(contentType ?? ""), `${what}: content-type ${contentType}`);
  const msg = parseJson(text, what);
  expect(msg.jsonrpc === "2.0" && msg.id === id && !("error" in msg), `${what}: envelope`, msg);
  const { content, structuredContent, resultType, _meta, ...rest } = msg.result ?? {};
  expect(isDeepStrictEqual(content, [{ type: "text", text: SUM_TEXT }]), `${what}: content`, content);
  expect(isDeepStrictEqual(structuredContent, { sum: 5 }), `${what}: structuredContent`, structuredContent);
  expect(Object.keys(rest).length === 0, `${what}: unexpected result keys`, Object.keys(rest));
  if (isModern(rev)) {
    expect(resultType === "complete", `${what}: resultType`, resultType);
    const info = _meta?.["io.modelcontextprotocol/serverInfo"];
    expect(isObject(info) && typeof info.name === "string" && typeof info.version === "string", `${what}: _meta serverInfo`, _meta);
  } else {
    expect(resultType === undefined && _meta === undefined, `${what}: 2025 answers carry no resultType/_meta`, msg.result);
  }
}

// ---------------------------------------------------------------------------------------------
// A small keep-alive HTTP client on node:http (probes and cold flows).

/** One request to /mcp (`body` undefined: none); resolves with the status, content type, headers and body text. */
function send(base, agent, method, headers, body) {
  return new Promise((resolveSend, reject) => {
    const length = body === undefined ? {} : { "content-length": Buffer.byteLength(body) };
    const req = http.request({ host: base.hostname, port: base.port, path: "/mcp", method, agent, headers: { ...headers, ...length } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolveSend({ status: res.statusCode, contentType: res.headers["content-type"], headers: res.headers, text }));
      res.on("error", reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error("request timed out after 10 s")));
    req.on("error", reject);
    req.end(body);
  });
}

const post = (base, agent, headers, body) => send(base, agent, "POST", headers, body);

async function rpc(base, agent, rev, id, method, params, toolName) {
  const body = JSON.stringify(id === undefined ? { jsonrpc: "2.0", method, params } : { jsonrpc: "2.0", id, method, params });
  return post(base, agent, rev.headers(method, toolName), body);
}

function result(rev, what, id, res) {
  expect(res.status === 200, `${rev.name} ${what}: HTTP ${res.status}`, res.text.slice(0, 300));
  const msg = parseJson(res.text, `${rev.name} ${what}`);
  expect(msg.jsonrpc === "2.0" && msg.id === id && isObject(msg.result), `${rev.name} ${what}: envelope`, msg);
  if (isModern(rev)) expect(msg.result.resultType === "complete", `${rev.name} ${what}: resultType`, msg.result);
  return msg.result;
}

/** One cold client session, each request after the previous one, on a fresh keep-alive connection. */
async function coldFlow(base, rev) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    if (isModern(rev)) {
      const found = result(rev, "server/discover", 1, await rpc(base, agent, rev, 1, "server/discover", rev.params({})));
      expect(Array.isArray(found.supportedVersions) && found.supportedVersions.includes("2026-07-28"), "server/discover: supportedVersions", found);
    } else {
      const init = result(
        rev,
        "initialize",
        1,
        await rpc(base, agent, rev, 1, "initialize", {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "edge-mcp-bench", version: "0.0.0" },
        }),
      );
      expect(init.protocolVersion === "2025-11-25" && isObject(init.serverInfo), "initialize: result", init);
      const note = await rpc(base, agent, rev, undefined, "notifications/initialized", undefined);
      expect(note.status === 202 && note.text === "", "notifications/initialized: want 202 and no body", `${note.status} ${note.text.slice(0, 200)}`);
    }
    const list = result(rev, "tools/list", 2, await rpc(base, agent, rev, 2, "tools/list", rev.params({})));
    const names = Array.isArray(list.tools) ? list.tools.map((t) => t?.name) : [];
    expect(names.includes("add") && names.includes("echo"), `${rev.name} tools/list: want add and echo`, names);
    const call = await rpc(base, agent, rev, 3, "tools/call", rev.params({ name: "add", arguments: { a: 2, b: 3 } }), "add");
    checkAddAnswer(rev, 3, call.status, call.contentType, call.text);
  } finally {
    agent.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// workerd CPU time, read from /proc.

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

function processTree(pid) {
  const all = [pid];
  for (let i = 0; i < all.length; i++) for (const child of childPids(all[i])) all.push(child.pid);
  return all;
}

const TICK_NS = 1e9 / 100; // USER_HZ; Linux reports utime/stime in 1/100 s

/** Machine-wide busy CPU (all cores, ns) from /proc/stat, to see how much other processes used meanwhile. */
function machineBusyNs() {
  const f = readFileSync("/proc/stat", "utf8").split("\n", 1)[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const [user, nice, system, , , , , steal] = f;
  return (user + nice + system + steal) * TICK_NS;
}

/** A point in time for `otherCores`: machine, workerd and this process's CPU. */
function snapshot(pids) {
  const own = process.cpuUsage();
  return { t: performance.now(), machine: machineBusyNs(), workerd: cpuOf(pids), self: (own.user + own.system) * 1000 };
}

/** Cores used by processes other than workerd and this one between two snapshots (noise indicator). */
function otherCores(a, b) {
  const others = b.machine - a.machine - (b.workerd.tickNs - a.workerd.tickNs) - (b.self - a.self);
  return Math.max(0, others / 1e6 / (b.t - a.t));
}

let noiseMs = 0; // time spent waiting for quiet and redoing noisy measurements
let redos = 0;
let phaseNoiseStart = 0; // noiseMs when the current phase (main rounds, scale runs) began: each phase has the whole budget
const budgetLeft = () => noiseMs - phaseNoiseStart < NOISE_BUDGET_MS;

/** Waits, 200 ms samples at a time, for other processes to leave the cores idle (at most 5 s, within the noise budget). */
async function awaitQuiet(pids) {
  const t0 = performance.now();
  for (;;) {
    const a = snapshot(pids);
    await sleep(200);
    if (otherCores(a, snapshot(pids)) < QUIET_CORES) break;
    if (noiseMs - phaseNoiseStart + (performance.now() - t0) >= NOISE_BUDGET_MS || performance.now() - t0 >= 5000) break;
  }
  noiseMs += Math.max(0, performance.now() - t0 - 200); // the first sample is the check, not a wait
}

/**
 * Runs one measurement on a quiet machine: waits for quiet first, and if other processes still used
 * more than NOISY_CORES meanwhile, redoes it (up to MAX_REDOS times, within the noise budget),
 * keeping the attempt that saw the least of them. `prepare`, if given, runs before each attempt,
 * unmeasured: a measurement that uses something up (the session run's DELETEs) gets a fresh supply.
 */
async function quietly(pids, measureOnce, prepare) {
  let best;
  for (let attempt = 0; ; attempt++) {
    if (prepare) await prepare();
    await awaitQuiet(pids());
    const t0 = performance.now();
    const s0 = snapshot(pids());
    const value = await measureOnce();
    const s1 = snapshot(pids());
    const others = otherCores(s0, s1);
    if (attempt > 0) noiseMs += performance.now() - t0;
    if (best === undefined || others < best.others) best = { value, s0, s1, others };
    if (others < NOISY_CORES || attempt >= MAX_REDOS || !budgetLeft()) return best;
    redos++;
  }
}

/**
 * One measurement that cannot be redone (it changes what it measures: a first call, a first
 * search): waits for quiet first, then measures once; `others` says how noisy it was.
 */
async function once(pids, measureOnce) {
  await awaitQuiet(pids());
  const s0 = snapshot(pids());
  const value = await measureOnce();
  const s1 = snapshot(pids());
  return { value, s0, s1, others: otherCores(s0, s1) };
}

/** CPU consumed so far by a process tree: schedstat (ns, summed over live threads) and utime+stime (10 ms ticks). */
function cpuOf(pids) {
  let schedNs = 0;
  let tickNs = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      tickNs += (Number(fields[11]) + Number(fields[12])) * TICK_NS; // utime, stime (fields 14 and 15)
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        try {
          schedNs += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
        } catch {
          // thread ended
        }
      }
    } catch {
      // process ended
    }
  }
  return { schedNs, tickNs };
}

// ---------------------------------------------------------------------------------------------
// One Worker up, measured, down.

const live = new Set(); // { mf, pid } of every Worker up (a paired comparison keeps two or more), for cleanup on failure

/** The demo's and floor's first request: tools/call add(2, 3), 2025-11-25; resolves with its strict check. */
async function addProbe(base, agent) {
  const rev = REVISIONS[0];
  const res = await post(base, agent, rev.headers("tools/call", "add"), addCallBody(rev, 1));
  return () => checkAddAnswer(rev, 1, res.status, res.contentType, res.text);
}

/**
 * Starts the bundle in workerd. Boot ends at the first answer to `probe(base, agent)`, which
 * resolves with the check of that answer (run after the clock stops; boot counts only if it passes).
 */
async function startWorker(b, probe = addProbe, extra = {}) {
  const before = new Set(childPids(process.pid).map((c) => c.pid));
  const t0 = performance.now();
  const mf = new Miniflare({
    name: b.label,
    modules: true,
    scriptPath: b.scriptPath,
    modulesRoot: b.outdir,
    compatibilityDate: b.compatibilityDate,
    compatibilityFlags: b.compatibilityFlags,
    bindings: b.vars,
    // SQLite files in miniflare's temporary directory, as under `wrangler dev` (workerd's in-memory
    // Durable Object storage has no SQL API).
    ...(b.durableObjects ? { durableObjects: b.durableObjects } : {}),
    host: "127.0.0.1",
    port: 0,
    cf: false,
    // The Worker's own socket: requests skip miniflare's entry worker (which adds gzip, cf, etc.).
    unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
    ...extra, // e.g. durableObjects for the task runs, inspectorPort for the scale runs' heap readings
  });
  const handle = { mf, pid: undefined };
  live.add(handle);
  const entryUrl = await mf.ready;
  const base = opt["via-entry"] ? entryUrl : await mf.unsafeGetDirectURL();
  const readyMs = performance.now() - t0;
  const spawned = childPids(process.pid).filter((c) => !before.has(c.pid) && c.comm.startsWith("workerd"));
  if (spawned.length !== 1) fail(`expected one new workerd child, found ${JSON.stringify(spawned)}`);
  handle.pid = spawned[0].pid;
  pinning.workerd(processTree(handle.pid)); // before its first request; it started on the load generator's core
  // Boot ends at the first right answer.
  const check = await probe(base, new http.Agent({ keepAlive: false }));
  const bootMs = performance.now() - t0;
  check();
  // workerd's CPU from its start to the first answer: its own start-up, the Worker's module load, one request.
  const bootCpuMs = cpuOf(processTree(handle.pid)).schedNs / 1e6;
  return { mf, pid: handle.pid, base, bootMs, readyMs, bootCpuMs, handle };
}

/** Stops one Worker (what startWorker resolved with), or, without one, every Worker still up. */
async function stopWorker(worker) {
  if (worker === undefined) {
    for (const handle of [...live]) await stopOne(handle);
    return;
  }
  await stopOne(worker.handle);
}

async function stopOne(handle) {
  if (!live.delete(handle)) return;
  const { mf, pid } = handle;
  await mf.dispose();
  if (pid === undefined) return;
  for (let i = 0; i < 100 && existsSync(`/proc/${pid}`); i++) await sleep(50);
  if (existsSync(`/proc/${pid}`)) {
    log(`workerd ${pid} still running after dispose; killing it`);
    process.kill(pid, "SIGKILL");
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Builds the expected bytes of every add(2,3) answer from one answer that passed the strict check. */
async function answerTemplate(base, rev) {
  const agent = new http.Agent({ keepAlive: false });
  const res = await post(base, agent, rev.headers("tools/call", "add"), addCallBody(rev, 1));
  checkAddAnswer(rev, 1, res.status, res.contentType, res.text);
  const parts = res.text.split('"id":1,');
  expect(parts.length === 2, `${rev.name}: answer must hold "id":1, exactly once`, res.text);
  return { prefix: parts[0] + '"id":', suffix: "," + parts[1] };
}

let nextId = 1000;

/**
 * autocannon with a fresh id per request; every body must equal the template with that id.
 * `headersFor(id)`, if given, makes each request's headers (the session run: its Mcp-Session-Id).
 */
function cannon(base, rev, template, { connections, amount, duration, headersFor }) {
  return new Promise((resolveRun, reject) => {
    const latencies = [];
    const wrong = [];
    let tStart = performance.now();
    let tLast = tStart;
    const cpu0 = process.cpuUsage();
    const instance = autocannon(
      {
        url: base.href.replace(/\/$/, ""),
        connections,
        pipelining: 1,
        ...(amount ? { amount } : { duration }),
        timeout: 10,
        requests: [
          {
            method: "POST",
            path: "/mcp",
            headers: rev.headers("tools/call", "add"),
            setupRequest(req, context) {
              context.id = nextId++;
              req.body = addCallBody(rev, context.id);
              if (headersFor) req.headers = headersFor(context.id);
              return req;
            },
            onResponse(status, body, context) {
              if (status !== 200 || body !== template.prefix + context.id + template.suffix) {
                if (wrong.length < 3) wrong.push(`id ${context.id}: HTTP ${status} ${String(body).slice(0, 300)}`);
                else wrong.push("");
              }
            },
          },
        ],
      },
      (err, res) => {
        if (err) return reject(err);
        // From start to the last answer: autocannon ends runs on a 1 s tick, so its own duration overstates.
        const seconds = (tLast - tStart) / 1000;
        const cpu = process.cpuUsage(cpu0);
        const problems = [];
        if (wrong.length) problems.push(`${wrong.length} wrong answers, e.g. ${wrong.filter(Boolean).join(" | ")}`);
        if (res.errors) problems.push(`${res.errors} errors (${res.timeouts} timeouts)`);
        if (res.non2xx) problems.push(`${res.non2xx} non-2xx`);
        if (res.mismatches) problems.push(`${res.mismatches} mismatches`);
        if (problems.length) return reject(new WrongAnswer(`${rev.name} c=${connections}: ${problems.join("; ")}`));
        const completed = res["2xx"];
        if (completed !== latencies.length) return reject(new Error(`autocannon counted ${completed} answers, saw ${latencies.length}`));
        resolveRun({ completed, seconds, latencies, loadgenCpuSeconds: (cpu.user + cpu.system) / 1e6 });
      },
    );
    instance.on("start", () => (tStart = performance.now()));
    instance.on("response", (_client, _status, _bytes, ms) => {
      latencies.push(ms);
      tLast = performance.now();
    });
  });
}

function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

async function coldFlows(base, rev, seconds, concurrency) {
  const deadline = performance.now() + seconds * 1000;
  let flows = 0;
  const t0 = performance.now();
  const loop = async () => {
    while (performance.now() < deadline) {
      await coldFlow(base, rev);
      flows++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { flows, seconds: (performance.now() - t0) / 1000 };
}

/**
 * One round: the floor and the demo, each on a fresh workerd, both up at once (`first` boots first),
 * checked and warmed; then, per revision, their sequential calls in alternating batches (ABBA…, see
 * paired.mjs), c=32 in two turns each and cold flows in two turns each, the same way.
 */
async function measurePair(bundles, first, revisions = REVISIONS) {
  await awaitQuiet([]);
  const names = first === "floor" ? ["floor", "demo"] : ["demo", "floor"];
  const workers = {};
  for (const name of names) workers[name] = await startWorker(bundles[name]);
  const sides = new Map(names.map((name) => [name, { pids: processTree(workers[name].pid) }]));
  const allPids = [...sides.values()].flatMap((side) => side.pids);
  const out = { pairs: {}, others: 0, othersTurns: [] };
  for (const name of ["floor", "demo"]) out[name] = { bootMs: workers[name].bootMs, revs: {} };
  const templates = { floor: {}, demo: {} };
  for (const name of names) {
    for (const rev of REVISIONS) {
      templates[name][rev.name] = await answerTemplate(workers[name].base, rev);
      await coldFlow(workers[name].base, rev); // correctness before speed
    }
  }
  // Warm-up: JIT and connection setup for both revisions, discarded.
  for (const name of names) {
    for (const rev of REVISIONS) {
      await cannon(workers[name].base, rev, templates[name][rev.name], { connections: 8, amount: 1500 });
      await coldFlows(workers[name].base, rev, 0.3, FLOW_CONCURRENCY);
    }
  }
  const series = async (turns, run) => {
    await awaitQuiet(allPids);
    const r = await interleave({ sides, turns, run, cpuOf, snapshot, otherCores });
    out.others = Math.max(out.others, ...r.others);
    out.othersTurns.push(...r.others);
    return r.batches;
  };
  for (const rev of revisions) {
    const t = (name) => templates[name][rev.name];
    // (a) + c=1: sequential requests on one keep-alive connection per Worker, in alternating batches.
    const sizes = batchSizes(SEQ_REQUESTS, BATCH);
    const seq = await series(sizes.length, async (name, turn) => {
      const v = await cannon(workers[name].base, rev, t(name), { connections: 1, amount: sizes[turn] });
      return { count: v.completed, seconds: v.seconds, latencies: v.latencies };
    });
    const cpu = ({ ns, count }) => ({ ns, count });
    out.pairs[rev.name] = seq.get("floor").map((a, i) => ({ a: cpu(a), b: cpu(seq.get("demo")[i]) }));
    // (b) c=32 for a fixed duration; (d) cold flows, FLOW_CONCURRENCY at once, each on a new connection:
    // one turn each, the order alternating from round to round.
    const c32 = await series(1, async (name) => {
      const v = await cannon(workers[name].base, rev, t(name), { connections: C32, duration: C32_SECONDS });
      return { count: v.completed, seconds: v.seconds, latencies: v.latencies, loadgen: v.loadgenCpuSeconds };
    });
    const flows = await series(1, async (name) => {
      const v = await coldFlows(workers[name].base, rev, FLOW_SECONDS, FLOW_CONCURRENCY);
      return { count: v.flows, seconds: v.seconds };
    });
    for (const name of ["floor", "demo"]) {
      const s = sumBatches(seq.get(name));
      const c = sumBatches(c32.get(name));
      const f = sumBatches(flows.get(name));
      const r = {
        cpuUs: s.ns / s.count / 1000,
        cpuUsTicks: s.tickNs / s.count / 1000,
        rpsC1: s.count / s.seconds,
        p50C1: percentile(s.latencies, 50),
        p99C1: percentile(s.latencies, 99),
        rpsC32: c.count / c.seconds,
        p50C32: percentile(c.latencies, 50),
        p99C32: percentile(c.latencies, 99),
        cpuUsC32: c.ns / c.count / 1000,
        workerdBusyC32: c.ns / 1e9 / c.seconds, // cores
        loadgenBusyC32: c32.get(name).reduce((sum, b) => sum + (b.loadgen ?? 0), 0) / c.seconds, // cores (this process)
        flowsPerS: f.count / f.seconds,
        cpuUsFlow: f.ns / f.count / 1000,
      };
      out[name].revs[rev.name] = r;
      if (opt.verbose) log(`    ${name} ${rev.name}: ${JSON.stringify(r, (k, v) => (typeof v === "number" ? Number(v.toPrecision(4)) : v))}`);
    }
  }
  for (const name of ["floor", "demo"]) for (const rev of REVISIONS) out[name].revs[rev.name].otherCores = out.others;
  await stopWorker();
  return out;
}

// ---------------------------------------------------------------------------------------------
// Report.

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function fmt(x) {
  if (!Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  return a >= 1000 ? x.toFixed(0) : a >= 100 ? x.toFixed(1) : a >= 10 ? x.toFixed(2) : x.toFixed(3);
}

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows
    .map((r, ri) => {
      const line = r.map((c, i) => (i < 2 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join("  ");
      return ri === 0 ? `${line}\n${widths.map((w) => "-".repeat(w)).join("  ")}` : line;
    })
    .join("\n");
}

function fail(message) {
  console.error(`bench: FAILED: ${message}`);
  process.exitCode = 1;
  throw new Error(message);
}

/** What the scale runs (scale.mjs) and the session run (session.mjs) use from here. */
const helpers = () => ({
  ROOT,
  opt,
  REVISIONS,
  isModern,
  WrongAnswer,
  expect,
  parseJson,
  isObject,
  bundle,
  post,
  startWorker,
  stopWorker,
  processTree,
  cpuOf,
  snapshot,
  otherCores,
  quietly,
  once,
  // The inspector client of the heap readings: wrangler's miniflare depends on ws (Node 20 has no WebSocket).
  WebSocket: createRequire(wranglerRequire.resolve("miniflare"))("ws"),
  median,
  percentile,
  fmt,
  // Paired comparisons (paired.mjs): batch sizes for N sequential calls, and the pinning in force.
  batchSizes: (total) => batchSizes(total, BATCH),
  pinned: () => pinning.describe(),
  table,
  log,
  NOISY_CORES,
});

const scaleHelpers = () => ({ ...helpers(), rounds: SCALE_ROUNDS, requests: SCALE_REQUESTS, sizes: SCALE_SIZES });

const sessionHelpers = () => ({
  ...helpers(),
  rounds: SESSION_ROUNDS,
  requests: SESSION_REQUESTS,
  opens: SESSION_OPENS,
  C32,
  c32Seconds: C32_SECONDS,
  send,
  checkAddAnswer,
  addCallBody,
  answerTemplate,
  cannon,
  awaitQuiet,
});

async function main() {
  const started = performance.now();
  const workDir = mkdtempSync(join(tmpdir(), "edge-mcp-bench-"));
  try {
    let mainResult; // lines printed after the task, scale and session tables, the bench: line last
    if (!ONLY) mainResult = await mainRounds(started, workDir);
    if (TASKS) {
      phaseNoiseStart = noiseMs;
      const { runTasks } = await import("./tasks.mjs");
      const tasks = await runTasks(scaleHelpers(), workDir, { rounds: TASK_ROUNDS, requests: Math.min(SEQ_REQUESTS, 1000) });
      console.log(`\n${tasks.text}`);
    }
    if (SCALE) {
      phaseNoiseStart = noiseMs;
      const { runScale } = await import("./scale.mjs");
      const scale = await runScale(scaleHelpers(), workDir);
      console.log(`\n${scale.text}`);
    }
    if (SESSION) {
      phaseNoiseStart = noiseMs;
      const { runSession } = await import("./session.mjs");
      const session = await runSession(sessionHelpers(), workDir);
      console.log(`\n${session.text}`);
    }
    if (NOTIFICATIONS) {
      phaseNoiseStart = noiseMs;
      const { runNotifications } = await import("./notifications.mjs");
      const notifications = await runNotifications(scaleHelpers(), workDir);
      console.log(`\n${notifications.text}`);
    }
    if (OBSERVE) {
      phaseNoiseStart = noiseMs;
      const { runObserve } = await import("./observe.mjs");
      const observe = await runObserve({ ...helpers(), awaitQuiet, rounds: OBSERVE_ROUNDS, requests: SEQ_REQUESTS }, workDir);
      console.log(`\n${observe.text}`);
    }
    const total = ((performance.now() - started) / 1000).toFixed(0);
    console.log(`\n(total ${total} s, of which ${(noiseMs / 1000).toFixed(0)} s waiting for a quiet machine or redoing ${redos} noisy measurement(s))`);
    if (mainResult) console.log(mainResult.lastLine);
  } finally {
    await stopWorker().catch((e) => log(`bench: stopping workerd: ${e}`));
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** The main rounds, floor against demo: prints the main table; returns the bench: line. */
async function mainRounds(started, workDir) {
  log(
    `bench: wrangler ${WRANGLER_VERSION}, miniflare ${MINIFLARE_VERSION}, ${ROUNDS} round(s), ` +
      `${SEQ_REQUESTS} sequential calls, c=${C32} for ${C32_SECONDS}s, cold flows ${FLOW_CONCURRENCY} at once for ${FLOW_SECONDS}s, ` +
      `${opt["via-entry"] ? "via miniflare's entry worker" : "straight to the Worker's socket"}`,
  );
  const [floor, demo] = await Promise.all([
    bundle("floor", join(ROOT, "test/bench/floor/wrangler.toml"), workDir),
    distDemoConfig(workDir).then((config) => bundle("demo", config, workDir)),
  ]);
  checkBuiltFromDist(demo);
  const kib = (b) => (b.gzipBytes / 1024).toFixed(1);
  log(`bench: bundled floor ${kib(floor)} KiB gz, demo ${kib(demo)} KiB gz (${((performance.now() - started) / 1000).toFixed(1)} s)`);

  // One unmeasured start/stop first, so the first measured boot doesn't also pay for cold disk caches.
  await startWorker(floor);
  await stopWorker();

  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) {
    const round = await measurePair({ floor, demo }, i % 2 === 0 ? "floor" : "demo", i % 2 === 0 ? REVISIONS : [...REVISIONS].reverse());
    const { floor: f, demo: d } = round;
    rounds.push(round);
    const show = (rev) => `${rev} cpu ${fmt(f.revs[rev].cpuUs)}/${fmt(d.revs[rev].cpuUs)} µs, c32 ${fmt(f.revs[rev].rpsC32)}/${fmt(d.revs[rev].rpsC32)} req/s`;
    const noise = round.others;
    const elapsed = ((performance.now() - started) / 1000).toFixed(0);
    log(
      `bench: round ${i + 1}/${ROUNDS} (floor/demo): ${REVISIONS.map((r) => show(r.name)).join("; ")}; others used <= ${noise.toFixed(2)} cores (mean ${mean(round.othersTurns).toFixed(2)} over its turns) (${elapsed} s)`,
    );
  }

  // Medians of each side, and the median over rounds of the per-round ratio demo/floor.
  const METRICS = [
    ["cpuUs", "workerd CPU µs/call (sequential)", "lower"],
    ["cpuUsTicks", "  same, from utime+stime ticks", "lower"],
    ["cpuUsC32", "workerd CPU µs/call at c=32", "lower"],
    ["rpsC1", "req/s c=1", "higher"],
    ["rpsC32", "req/s c=32", "higher"],
    ["p50C1", "p50 ms c=1", "lower"],
    ["p99C1", "p99 ms c=1", "lower"],
    ["p50C32", "p50 ms c=32", "lower"],
    ["p99C32", "p99 ms c=32", "lower"],
    ["flowsPerS", `cold sessions/s (${FLOW_CONCURRENCY} at once)`, "higher"],
    ["cpuUsFlow", "workerd CPU µs/cold session", "lower"],
    ["workerdBusyC32", "workerd cores busy at c=32", "-"],
    ["loadgenBusyC32", "load generator cores busy at c=32", "-"],
    ["otherCores", "other processes' cores busy (max)", "-"],
  ];
  const rows = [["metric", "revision", "floor", "demo", "ratio", "95 % interval", "95 %, rounds too", "ratio min..max"]];
  const ratioMedian = {};
  const paired = {}; // revision → the paired CPU ratio of all rounds' batches
  for (const [key, label] of METRICS) {
    for (const rev of REVISIONS) {
      const fl = rounds.map((r) => r.floor.revs[rev.name][key]);
      const de = rounds.map((r) => r.demo.revs[rev.name][key]);
      const ratios = rounds.map((r) => r.demo.revs[rev.name][key] / r.floor.revs[rev.name][key]);
      ratioMedian[`${key}:${rev.name}`] = median(ratios);
      let shown = [median(ratios).toFixed(2), "-", "-", `${Math.min(...ratios).toFixed(2)}..${Math.max(...ratios).toFixed(2)}`];
      if (key === "cpuUs") {
        // Σdemo/Σfloor over every pair of batches, its bootstrap interval, and each round's own.
        const p = (paired[rev.name] = pairedRatio(rounds.map((r) => r.pairs[rev.name])));
        shown = [
          p.ratio.toFixed(3),
          `${p.low.toFixed(3)}..${p.high.toFixed(3)}`,
          `${p.roundsLow.toFixed(3)}..${p.roundsHigh.toFixed(3)}`,
          `${Math.min(...p.perRound).toFixed(2)}..${Math.max(...p.perRound).toFixed(2)}`,
        ];
      }
      if (key === "otherCores") shown = ["-", "-", "-", "-"];
      rows.push([label, rev.name, fmt(median(fl)), fmt(median(de)), ...shown]);
    }
  }
  const boots = rounds.map((r) => r.demo.bootMs / r.floor.bootMs);
  rows.push([
    "boot ms to first answer",
    "-",
    fmt(median(rounds.map((r) => r.floor.bootMs))),
    fmt(median(rounds.map((r) => r.demo.bootMs))),
    median(boots).toFixed(2),
    "-",
    "-",
    `${Math.min(...boots).toFixed(2)}..${Math.max(...boots).toFixed(2)}`,
  ]);
  rows.push([
    "bundle KiB gzip",
    "-",
    (floor.gzipBytes / 1024).toFixed(1),
    (demo.gzipBytes / 1024).toFixed(1),
    (demo.gzipBytes / floor.gzipBytes).toFixed(2),
    "-",
    "-",
    "-",
  ]);
  rows.push(["bundle KiB raw", "-", (floor.bytes / 1024).toFixed(1), (demo.bytes / 1024).toFixed(1), (demo.bytes / floor.bytes).toFixed(2), "-", "-", "-"]);

  const pairs = paired[REVISIONS[0].name].pairs / ROUNDS;
  console.log(
    `\nedge-mcp bench: ${ROUNDS} round(s), floor and demo up together on fresh workerds each round; medians over rounds, ratio = demo/floor within a round, median over rounds;`,
  );
  console.log(
    `sequential CPU: ${pairs} pairs of batches of ~${BATCH} calls per round and revision (floor and demo in turn, ABBA), ratio = Σdemo/Σfloor over every pair, ` +
      `95 % bootstrap intervals over pairs within rounds, and over rounds too, min..max of each round's own; ${pinning.describe()}`,
  );
  console.log(`(ratio > 1 is worse for CPU, latency and size; < 1 is worse for req/s and sessions/s)\n`);
  console.log(table(rows));
  const cpuRatio = Math.max(...REVISIONS.map((r) => paired[r.name].ratio));
  const reqRatio = Math.min(...REVISIONS.map((r) => ratioMedian[`rpsC32:${r.name}`]));
  const busiest = Math.max(...rounds.flatMap((r) => [r.floor, r.demo]).flatMap((m) => Object.values(m.revs).map((v) => v.otherCores)));
  if (busiest >= NOISY_CORES) {
    console.log(
      `\nnote: other processes kept up to ${busiest.toFixed(2)} of ${CORES} cores busy during a measurement ` +
        `(${mean(rounds.flatMap((r) => r.othersTurns)).toFixed(2)} on average over the paired turns); ` +
        "all numbers, CPU/call too, are skewed then, and the paired CPU ratios pulled towards 1 (README: How ratios are compared). " +
        "Re-run on a quiet machine to judge a target.",
    );
  }
  return { lastLine: `bench: cpu_ratio=${cpuRatio.toFixed(2)} req_ratio_c32=${reqRatio.toFixed(2)} bundle_gzip_kib=${(demo.gzipBytes / 1024).toFixed(1)}` };
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    log(`bench: ${signal}, stopping workerd`);
    stopWorker().finally(() => process.exit(130));
  });
}

main().catch(async (err) => {
  await stopWorker().catch(() => {});
  if (err instanceof WrongAnswer) console.error(`bench: WRONG ANSWER, run void: ${err.message}`);
  else if (!process.exitCode) console.error(`bench: FAILED: ${err?.stack ?? err}`);
  process.exitCode = 1;
});
