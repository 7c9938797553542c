// The session floor: workerd CPU per call of the least a Worker can do to answer a request itself
// (/direct) against answering it through a Durable Object reached by stub.fetch (/fetch) or by RPC
// (/rpc: a string; /rpc-object: structured data both ways; /rpc-response: structured data in, a
// Response out; /rpc-stored: a string, plus a storage.get), and a session's life at the floor:
// a new object per request (/open-bare), one that also stores a record and sets an alarm
// (/open), and its end (/close). What a session run's figures (session.mjs) can be held to.
// Same accounting as run.mjs (schedstat of the workerd process tree). Usage:
//   node test/bench/session-floor/floor.mjs [rounds=3] [calls per batch=500] [batches=8]
import { readFileSync, readdirSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

Object.assign(process.env, { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" });
const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const { Miniflare } = createRequire(require.resolve("wrangler/package.json"))("miniflare");
const ROUNDS = Number(process.argv[2] ?? 3);
const CALLS = Number(process.argv[3] ?? 500);
const VARIANTS = ["/direct", "/fetch", "/rpc", "/rpc-object", "/rpc-response", "/rpc-stored"];
const LIFE = ["/open-bare", "/open", "/close"];
const OPENS = 25;
const BODY = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", arguments: { a: 2, b: 3 } } });
const TICK_NS = 1e7;

function childPids(pid) {
  const out = [];
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const s = readFileSync(`/proc/${e}/stat`, "utf8");
      if (Number(s.slice(s.lastIndexOf(")") + 2).split(" ")[1]) === pid) out.push(Number(e));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}
function tree(pid) {
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...childPids(all[i]));
  return all;
}
function cpuNs(pids) {
  let ns = 0;
  for (const pid of pids)
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`))
        try {
          ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
        } catch {
          // thread ended
        }
    } catch {
      // process ended
    }
  return ns;
}
function machineNs() {
  const f = readFileSync("/proc/stat", "utf8").split("\n", 1)[0].trim().split(/\s+/).slice(1, 9).map(Number);
  return (f[0] + f[1] + f[2] + f[7]) * TICK_NS;
}
function post(base, agent, path, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, base), { method: "POST", agent, headers: { "content-type": "application/json", ...headers } }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () =>
        res.statusCode === 200 && text.includes('"sum":5') ? resolve(res.headers["x-id"]) : reject(new Error(`${path}: ${res.statusCode} ${text}`)),
      );
    });
    req.on("error", reject);
    req.end(BODY);
  });
}

// The machine may be shared: each round measures every variant in short batches, interleaved, and
// keeps per variant the batch that cost least (others' load only ever inflates a batch's CPU),
// then the rounds' median of those minima.
const BATCHES = Number(process.argv[4] ?? 8);
const results = Object.fromEntries(VARIANTS.map((v) => [v, []]));
for (let round = 0; round < ROUNDS; round++) {
  const before = new Set(childPids(process.pid));
  const mf = new Miniflare({
    modules: true,
    scriptPath: join(here, "worker.js"),
    compatibilityDate: "2026-04-01",
    compatibilityFlags: ["enable_request_signal"],
    durableObjects: { FLOOR: { className: "Floor", useSQLite: true } },
    host: "127.0.0.1",
    port: 0,
    cf: false,
    unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
  });
  await mf.ready;
  const base = await mf.unsafeGetDirectURL();
  const workerd = childPids(process.pid).find((p) => !before.has(p));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (const v of VARIANTS) for (let i = 0; i < 1000; i++) await post(base, agent, v);
  const best = Object.fromEntries(VARIANTS.map((v) => [v, { us: Infinity, others: 0 }]));
  for (let batch = 0; batch < BATCHES; batch++) {
    const order = batch % 2 ? [...VARIANTS].reverse() : VARIANTS;
    for (const v of order) {
      const pids = tree(workerd);
      const own0 = process.cpuUsage();
      const [c0, m0, t0] = [cpuNs(pids), machineNs(), performance.now()];
      for (let i = 0; i < CALLS; i++) await post(base, agent, v);
      const [c1, m1, t1] = [cpuNs(pids), machineNs(), performance.now()];
      const own = process.cpuUsage(own0);
      const others = Math.max(0, (m1 - m0 - (c1 - c0) - (own.user + own.system) * 1000) / 1e6 / (t1 - t0));
      const us = (c1 - c0) / CALLS / 1000;
      if (us < best[v].us) best[v] = { us, others };
    }
  }
  // A session's life at the floor: a new object answering (/open-bare), one that also stores a
  // record and sets an alarm as a session's initialize does (/open), and its end (/close:
  // deleteAlarm and deleteAll, as a session's DELETE).
  for (const v of LIFE) best[v] = { us: Infinity, others: 0 };
  for (let batch = 0; batch < BATCHES; batch++) {
    const ids = [];
    for (const v of LIFE) {
      const pids = tree(workerd);
      const own0 = process.cpuUsage();
      const [c0, m0, t0] = [cpuNs(pids), machineNs(), performance.now()];
      for (let i = 0; i < OPENS; i++) {
        if (v === "/close") await post(base, agent, v, { "x-id": ids[i] });
        else if (v === "/open") ids.push(await post(base, agent, v));
        else await post(base, agent, v);
      }
      const [c1, m1, t1] = [cpuNs(pids), machineNs(), performance.now()];
      const own = process.cpuUsage(own0);
      const others = Math.max(0, (m1 - m0 - (c1 - c0) - (own.user + own.system) * 1000) / 1e6 / (t1 - t0));
      const us = (c1 - c0) / OPENS / 1000;
      if (us < best[v].us) best[v] = { us, others };
    }
  }
  for (const v of [...VARIANTS, ...LIFE]) (results[v] ??= []).push(best[v].us);
  console.error(
    `round ${round + 1}: ${[...VARIANTS, ...LIFE].map((v) => `${v} ${best[v].us.toFixed(1)} µs (others ${best[v].others.toFixed(2)})`).join(", ")}`,
  );
  agent.destroy();
  await mf.dispose();
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const direct = median(results["/direct"]);
for (const v of [...VARIANTS, ...LIFE]) {
  const m = median(results[v]);
  console.log(
    `${v.padEnd(13)} ${m.toFixed(1).padStart(7)} µs/call  +${(m - direct).toFixed(1).padStart(6)} over /direct  ${(m / direct).toFixed(2)}x  (${results[v].map((x) => x.toFixed(1)).join(", ")})`,
  );
}
