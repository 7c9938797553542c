// The bench's notifications run (`npm run bench:notifications`, or `npm run bench -- --notifications`):
// L listeners (subscriptions/listen streams) x C changes through the hub, on local workerd straight.
// Reports delivered/lost/duplicated, latency, workerd CPU per change and per delivery, idle CPU per
// open stream, time to release closed streams, V8 heap (after a forced GC) and RSS over cycles of
// open → changes → close, and what one raw hub subscription costs the hub (its capacity).
// Half the streams are closed with a TCP reset, half with a FIN: workerd notices a reset at once,
// a FIN only at its next write to the stream (the heartbeat), so the two release times differ.
// The Worker is test/bench/notify. What is measured and how: README.md, "Notifications".
import http from "node:http";
import net from "node:net";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28" };
const RELEASE_CAP_MS = 40_000; // the old code needed 25-30 s (keep-alive write failure); stop looking after this
const SETTLE_MS = 3_000; // after the last change, how long to wait for stragglers before counting losses

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The Worker's V8 heap after a full GC (a heap snapshot collects first), through workerd's inspector. */
export async function inspector(WebSocket, port, name) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  const target = targets.find((t) => t.id === `core:user:${name}`);
  if (!target) throw new Error(`no inspector target core:user:${name} in ${targets.map((t) => t.id).join(", ")}`);
  const ws = new WebSocket(target.webSocketDebuggerUrl, { maxPayload: 1 << 30 });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  let id = 0;
  const pending = new Map();
  ws.on("message", (data) => {
    const message = JSON.parse(data);
    if (message.id !== undefined && pending.has(message.id)) {
      pending.get(message.id)(message);
      pending.delete(message.id);
    }
  });
  const call = (method, params = {}) =>
    new Promise((resolve) => {
      const i = ++id;
      pending.set(i, resolve);
      ws.send(JSON.stringify({ id: i, method, params }));
    });
  await call("HeapProfiler.enable");
  return {
    async heapAfterGcMiB() {
      await call("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
      const usage = await call("Runtime.getHeapUsage");
      return usage.result.usedSize / 2 ** 20;
    },
    close: () => ws.close(),
  };
}

export async function runNotifications(h, workDir) {
  const { expect, parseJson, isObject, fmt, median, percentile, log, table } = h;
  const opt = h.opt;
  const listenerCounts = String(opt["notify-listeners"])
    .split(",")
    .map((s) => Number(s.trim()));
  const CHANGES = Math.floor(Number(opt["notify-changes"]));
  const RATE = Number(opt["notify-rate"]);
  const CYCLES = Math.floor(Number(opt["notify-cycles"]));
  const IDLE_S = Number(opt["notify-idle"]);
  const RAW = Math.floor(Number(opt["notify-raw"]));
  const HEARTBEAT_MS = opt["notify-heartbeat-ms"] === undefined ? undefined : Math.floor(Number(opt["notify-heartbeat-ms"]));
  if (listenerCounts.some((n) => !Number.isSafeInteger(n) || n < 1) || !(CHANGES >= 1) || !(RATE > 0) || !(CYCLES >= 1) || !(IDLE_S > 0) || !(RAW >= 1)) {
    throw new Error(
      "bench: --notify-listeners must be positive integers (1,100,500); --notify-changes, --notify-rate, --notify-cycles, --notify-idle, --notify-raw positive numbers",
    );
  }
  const started = performance.now();
  const wranglerRequire = createRequire(createRequire(import.meta.url).resolve("wrangler/package.json"));
  const WebSocket = wranglerRequire("ws");
  const b = await h.bundle("notify", join(h.ROOT, "test/bench/notify/wrangler.toml"), workDir);
  let nextId = 1;
  let busiest = 0;

  // --- HTTP --------------------------------------------------------------------------------------
  function post(base, agent, method, params, name) {
    const id = nextId++;
    const body = JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: MODERN_META } });
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: base.hostname,
          port: base.port,
          path: "/mcp",
          method: "POST",
          agent,
          headers: { ...HEADERS, "mcp-method": method, ...(name ? { "mcp-name": name } : {}), "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (c) => (text += c));
          res.on("end", () => resolve({ id, status: res.statusCode, text }));
          res.on("error", reject);
        },
      );
      req.setTimeout(10_000, () => req.destroy(new Error("request timed out after 10 s")));
      req.on("error", reject);
      req.end(body);
    });
  }
  async function getJson(base, path) {
    const res = await fetch(new URL(path, base));
    return res.json();
  }
  const discoverProbe = async (base, agent) => {
    const res = await post(base, agent, "server/discover", {});
    return () => {
      expect(res.status === 200, `boot server/discover: HTTP ${res.status}`, res.text.slice(0, 300));
      const msg = parseJson(res.text, "boot server/discover");
      expect(isObject(msg.result) && msg.result.resultType === "complete", "boot server/discover: result", msg);
    };
  };

  /** One listen stream: resolves once acknowledged; records every bench change it receives. */
  function openListener(base, run, index) {
    const id = nextId++;
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "subscriptions/listen",
      params: { _meta: MODERN_META, notifications: { resourceSubscriptions: ["bench://change"] } },
    });
    const listener = { id, req: undefined, received: new Map(), ended: false, errors: [] };
    const acked = new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: base.hostname,
          port: base.port,
          path: "/mcp",
          method: "POST",
          agent: false,
          headers: { ...HEADERS, "mcp-method": "subscriptions/listen", "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          if (res.statusCode !== 200 || !/^text\/event-stream/.test(res.headers["content-type"] ?? "")) {
            reject(new Error(`listener ${index}: HTTP ${res.statusCode} ${res.headers["content-type"]}`));
            return;
          }
          let buffer = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => {
            const now = performance.now();
            buffer += chunk;
            let end;
            while ((end = buffer.indexOf("\n\n")) !== -1) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const data = block
                .split("\n")
                .filter((l) => l.startsWith("data: "))
                .map((l) => l.slice(6))
                .join("\n");
              if (data === "") continue;
              const msg = JSON.parse(data);
              const sub = msg.params?._meta?.["io.modelcontextprotocol/subscriptionId"] ?? msg.result?._meta?.["io.modelcontextprotocol/subscriptionId"];
              if (sub !== id) listener.errors.push(`subscription id ${JSON.stringify(sub)} on stream ${id}`);
              if (msg.method === "notifications/subscriptions/acknowledged") resolve();
              else if (msg.method === "notifications/resources/updated") {
                const n = Number(/^bench:\/\/change\/(\d+)$/.exec(msg.params.uri)?.[1]);
                const seen = listener.received.get(n);
                if (seen) seen.count++;
                else listener.received.set(n, { count: 1, at: now });
                run.lastArrival = now;
              } else if ("result" in msg || "error" in msg) {
                listener.ended = true;
                listener.errors.push(`stream ${id} ended by the server: ${data.slice(0, 200)}`);
              }
            }
          });
          res.on("error", () => {});
        },
      );
      req.on("error", (e) => {
        if (!listener.closing) reject(e);
      });
      listener.req = req;
      req.end(body);
    });
    listener.acked = acked;
    return listener;
  }

  // --- CPU and memory ----------------------------------------------------------------------------
  const rssMiB = (pids) => {
    let kib = 0;
    for (const pid of pids) {
      try {
        kib += Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
      } catch {
        // ended
      }
    }
    return kib / 1024;
  };
  const cpuMs = (pids) => h.cpuOf(pids()).schedNs / 1e6;

  /** workerd cores used over `seconds` with nothing asked of it. */
  async function idleCores(pids, seconds) {
    const m = await h.quietly(pids, () => sleep(seconds * 1000));
    busiest = Math.max(busiest, m.others);
    return (m.s1.workerd.schedNs - m.s0.workerd.schedNs) / 1e6 / (m.s1.t - m.s0.t);
  }

  /** Polls /bench/stats until at most `target` listen streams are open; ms from t0, or undefined (no stats, or the cap). */
  async function streamsDownTo(base, target, t0) {
    while (performance.now() - t0 < RELEASE_CAP_MS) {
      const s = await getJson(base, "/bench/stats");
      if (s.listeners === null) return undefined;
      if (s.listeners <= target) return performance.now() - t0;
      await sleep(10);
    }
    return undefined;
  }

  /**
   * After the clients went away: how long until (a) the Worker reports no listen stream and no hub
   * subscription left (/bench/stats; builds without it report null), and (b) workerd's CPU is back
   * near the idle rate measured before the streams opened (three 200 ms windows in a row below
   * `quietCores`: a quarter of the way from that rate to the rate with the streams open and idle).
   */
  async function releaseTimes(base, pids, t0, quietCores) {
    let statsMs;
    let listenersMs;
    let cpuQuietMs;
    let quietSince;
    let quietRun = 0;
    let last = { t: performance.now(), cpu: cpuMs(pids) };
    let statsAvailable = true;
    while (performance.now() - t0 < RELEASE_CAP_MS && (statsMs === undefined || cpuQuietMs === undefined)) {
      await sleep(statsMs === undefined && statsAvailable ? 20 : 200);
      if (statsMs === undefined && statsAvailable) {
        const s = await getJson(base, "/bench/stats");
        if (s.listeners === null) statsAvailable = false;
        else {
          if (s.listeners === 0 && listenersMs === undefined) listenersMs = performance.now() - t0;
          if (s.listeners === 0 && (s.hubSubscribers === 0 || s.hubSubscribers === null)) statsMs = performance.now() - t0;
        }
      }
      const now = { t: performance.now(), cpu: cpuMs(pids) };
      if (now.t - last.t >= 200) {
        const cores = (now.cpu - last.cpu) / (now.t - last.t);
        if (cores < quietCores) {
          quietSince ??= last.t;
          if (++quietRun >= 3 && cpuQuietMs === undefined) cpuQuietMs = quietSince - t0;
        } else {
          quietRun = 0;
          quietSince = undefined;
        }
        last = now;
      }
    }
    return { statsMs, listenersMs, cpuQuietMs };
  }

  // --- one cycle: open L, (idle), C changes, close, release, heap ---------------------------------
  async function cycle(worker, pids, insp, L, idle, idle0) {
    const base = worker.base;
    const run = { lastArrival: 0 };
    const tOpen = performance.now();
    const listeners = [];
    // Open in batches so that 500 handshakes don't all queue at once.
    for (let i = 0; i < L; i += 50) {
      const batch = [];
      for (let j = i; j < Math.min(L, i + 50); j++) {
        const l = openListener(base, run, j);
        listeners.push(l);
        batch.push(l.acked);
      }
      await Promise.all(batch);
    }
    const openMs = performance.now() - tOpen;
    if (idle.cores === undefined) {
      await sleep(1000);
      idle.cores = await idleCores(pids, IDLE_S);
    }
    const idlePerStreamUs = ((idle.cores - idle0) * 1e6) / L; // µs of CPU per second per stream
    // Changes at RATE per second, each its own tools/call; the send time is when the request leaves.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const sentAt = new Array(CHANGES);
    const calls = [];
    const s0 = h.snapshot(pids());
    const tStart = performance.now();
    for (let n = 0; n < CHANGES; n++) {
      const due = tStart + (n * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      sentAt[n] = performance.now();
      calls.push(
        post(base, agent, "tools/call", { name: "announce", arguments: { n } }, "announce").then((res) => {
          expect(res.status === 200, `announce ${n}: HTTP ${res.status}`, res.text.slice(0, 300));
          const msg = parseJson(res.text, `announce ${n}`);
          expect(msg.result?.content?.[0]?.text === "ok", `announce ${n}: result`, msg);
        }),
      );
    }
    await Promise.all(calls);
    agent.destroy();
    // Wait for every listener to have every change, or SETTLE_MS without news.
    const want = L * CHANGES;
    const got = () => listeners.reduce((sum, l) => sum + l.received.size, 0);
    for (;;) {
      if (got() >= want) break;
      if (performance.now() - Math.max(run.lastArrival, sentAt[CHANGES - 1]) > SETTLE_MS) break;
      await sleep(20);
    }
    const tEnd = Math.max(run.lastArrival, sentAt[CHANGES - 1]);
    const s1 = h.snapshot(pids());
    busiest = Math.max(busiest, h.otherCores(s0, s1));
    const changeCpuMs = (s1.workerd.schedNs - s0.workerd.schedNs) / 1e6;
    const loadgenCores = (s1.self - s0.self) / 1e6 / (s1.t - s0.t);
    let delivered = 0;
    let duplicated = 0;
    const latencies = [];
    const errors = [];
    for (const l of listeners) {
      errors.push(...l.errors);
      for (const [n, r] of l.received) {
        delivered++;
        duplicated += r.count - 1;
        latencies.push(r.at - sentAt[n]);
      }
    }
    // Close the streams the ways clients go away: half with a TCP reset (a killed process, or
    // unread data on close), then the rest with a FIN (an orderly close).
    const resets = Math.floor(L / 2);
    const tReset = performance.now();
    for (const l of listeners.slice(0, resets)) {
      l.closing = true;
      if (l.req.socket?.resetAndDestroy) l.req.socket.resetAndDestroy();
      else l.req.destroy();
    }
    const resetMs = resets > 0 ? await streamsDownTo(base, L - resets, tReset) : undefined;
    const tClose = performance.now();
    for (const l of listeners.slice(resets)) {
      l.closing = true;
      l.req.destroy();
    }
    const release = await releaseTimes(base, pids, tClose, idle0 + Math.max(0.002, (idle.cores - idle0) / 4));
    release.resetMs = resetMs;
    const heapMiB = await insp.heapAfterGcMiB();
    return {
      L,
      openMs,
      idlePerStreamUs,
      delivered,
      lost: want - delivered,
      duplicated,
      latencies,
      errors,
      changeCpuMs,
      changeSeconds: (tEnd - tStart) / 1000,
      loadgenCores,
      release,
      heapMiB,
      rssMiB: rssMiB(pids()),
    };
  }

  async function onFreshWorker(fn) {
    const inspectorPort = await freePort();
    // The hub binding (run.mjs passes only [vars]); SQLite-backed as in wrangler.toml.
    const worker = await h.startWorker(b, discoverProbe, {
      inspectorPort,
      durableObjects: { MCP_NOTIFICATIONS: { className: "McpNotificationHub", useSQLite: true } },
      bindings: { ...b.vars, ...(HEARTBEAT_MS === undefined ? {} : { BENCH_HEARTBEAT_MS: String(HEARTBEAT_MS) }) },
    });
    const pids = () => h.processTree(worker.pid);
    const insp = await inspector(WebSocket, inspectorPort, b.label);
    try {
      // Warm-up: JIT for the change path (no listeners yet), discarded.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
      for (let n = 0; n < 20; n++) await post(worker.base, agent, "tools/call", { name: "announce", arguments: { n } }, "announce");
      agent.destroy();
      return await fn(worker, pids, insp);
    } finally {
      insp.close();
      await h.stopWorker();
    }
  }

  // --- runs --------------------------------------------------------------------------------------
  const runs = [];
  for (const L of listenerCounts) {
    const cycles = L === Math.max(...listenerCounts) ? CYCLES : 1;
    const result = await onFreshWorker(async (worker, pids, insp) => {
      const heap0 = await insp.heapAfterGcMiB();
      const rss0 = rssMiB(pids());
      const idle0 = await idleCores(pids, IDLE_S);
      const out = [];
      const idle = { cores: undefined }; // with L streams open and idle, measured in the first cycle
      for (let c = 0; c < cycles; c++) {
        const r = await cycle(worker, pids, insp, L, idle, idle0);
        out.push(r);
        log(
          `bench: notifications L=${L} cycle ${c + 1}/${cycles}: delivered ${r.delivered}/${L * CHANGES}, dup ${r.duplicated}, ` +
            `p50/p99 ${fmt(percentile(r.latencies, 50))}/${fmt(percentile(r.latencies, 99))} ms, cpu/change ${fmt(r.changeCpuMs / CHANGES)} ms, ` +
            `release after reset ${r.release.resetMs === undefined ? "-" : fmt(r.release.resetMs)} ms, after FIN ${r.release.statsMs === undefined ? "-" : fmt(r.release.statsMs)} ms (streams ${r.release.listenersMs === undefined ? "-" : fmt(r.release.listenersMs)} ms, cpu idle after ${r.release.cpuQuietMs === undefined ? ">cap" : fmt(r.release.cpuQuietMs)} ms), ` +
            `heap ${fmt(r.heapMiB)} MiB, rss ${fmt(r.rssMiB)} MiB (${((performance.now() - started) / 1000).toFixed(0)} s)`,
        );
        if (r.errors.length) log(`bench: notifications L=${L}: ${r.errors.length} protocol problems, e.g. ${r.errors.slice(0, 3).join(" | ")}`);
      }
      return { L, cycles: out, heap0, rss0, idle0 };
    });
    runs.push(result);
  }

  // What the hub pays per subscription: RAW raw subscriptions against none, same changes.
  const hub = await onFreshWorker(async (worker, pids) => {
    const measureChanges = async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
      const m = await h.quietly(pids, async () => {
        const calls = [];
        const t0 = performance.now();
        for (let n = 0; n < CHANGES; n++) {
          const wait = t0 + (n * 1000) / RATE - performance.now();
          if (wait > 0) await sleep(wait);
          calls.push(post(worker.base, agent, "tools/call", { name: "announce", arguments: { n } }, "announce"));
        }
        await Promise.all(calls);
        await sleep(500);
      });
      agent.destroy();
      busiest = Math.max(busiest, m.others);
      return (m.s1.workerd.schedNs - m.s0.workerd.schedNs) / 1e6 / CHANGES; // ms per change
    };
    const none = await measureChanges();
    const held = await new Promise((resolve, reject) => {
      const req = http.get({ host: worker.base.hostname, port: worker.base.port, path: `/bench/hub-subscribe?n=${RAW}`, agent: false }, (res) =>
        resolve({ req, res }),
      );
      req.on("error", reject);
    });
    held.res.on("data", () => {});
    held.res.on("error", () => {});
    for (let i = 0; i < 100; i++) {
      const s = await getJson(worker.base, "/bench/stats");
      if (s.hubSubscribers === null || s.hubSubscribers >= RAW) break;
      await sleep(50);
    }
    await sleep(500);
    const withRaw = await measureChanges();
    held.req.destroy();
    return { noneMsPerChange: none, rawMsPerChange: withRaw, perSubUs: ((withRaw - none) * 1000) / RAW };
  });

  // --- report ------------------------------------------------------------------------------------
  const rows = [
    [
      "listeners",
      "cycles",
      "delivered",
      "lost",
      "dup",
      "p50 ms",
      "p99 ms",
      "cpu/change ms",
      "cpu/delivery µs",
      "idle µs/s/stream",
      "release ms reset (max)",
      "release ms FIN (max)",
      "cpu idle ms (max)",
      "heap MiB first→last",
      "rss MiB before→after",
      "open ms",
    ],
  ];
  for (const r of runs) {
    const c = r.cycles;
    const lat = c.flatMap((x) => x.latencies);
    const delivered = c.reduce((s, x) => s + x.delivered, 0);
    const lost = c.reduce((s, x) => s + x.lost, 0);
    const dup = c.reduce((s, x) => s + x.duplicated, 0);
    const cpuChange = median(c.map((x) => x.changeCpuMs / CHANGES));
    const cpuDelivery = median(c.map((x) => (x.changeCpuMs * 1000) / Math.max(1, x.delivered)));
    const rel = c.map((x) => x.release.statsMs);
    const quiet = c.map((x) => x.release.cpuQuietMs);
    const maxOf = (xs) => (xs.some((x) => x === undefined) ? (xs.every((x) => x === undefined) ? "-" : `>${RELEASE_CAP_MS}`) : fmt(Math.max(...xs)));
    rows.push([
      String(r.L),
      String(c.length),
      String(delivered),
      String(lost),
      String(dup),
      fmt(percentile(lat, 50)),
      fmt(percentile(lat, 99)),
      fmt(cpuChange),
      fmt(cpuDelivery),
      fmt(c[0].idlePerStreamUs),
      r.L < 2 ? "-" : maxOf(c.map((x) => x.release.resetMs)),
      maxOf(rel),
      quiet.some((x) => x === undefined) ? `>${RELEASE_CAP_MS}` : fmt(Math.max(...quiet)),
      `${fmt(c[0].heapMiB)}→${fmt(c.at(-1).heapMiB)}`,
      `${fmt(r.rss0)}→${fmt(c.at(-1).rssMiB)}`,
      fmt(median(c.map((x) => x.openMs))),
    ]);
  }
  const soak = runs.find((r) => r.cycles.length === CYCLES && r.L === Math.max(...listenerCounts));
  const lines = [];
  lines.push(
    `notifications: ${CHANGES} changes at ${RATE}/s per cycle (resources/updated, one tools/call each), listeners over one connection each; workerd straight`,
  );
  lines.push(
    `(heartbeat ${HEARTBEAT_MS === undefined ? "the default" : `${HEARTBEAT_MS} ms`}; idle: workerd ${fmt(runs[0].idle0 * 1000)} ms/s before any stream, then per open stream; heap = V8 used size after a forced GC; ` +
      `release = until /bench/stats shows the streams closed with a reset gone, then (FIN) no stream and no hub subscription)\n`,
  );
  lines.push(table(rows));
  lines.push(
    `\nhub: a change costs ${fmt(hub.noneMsPerChange)} ms of workerd CPU with no subscriber (the tools/call and the publish), ${fmt(hub.rawMsPerChange)} ms with ${RAW} raw hub subscriptions: ` +
      `${fmt(hub.perSubUs)} µs per subscription per change (hub fan-out plus draining it), so one hub object at half a core delivers about ${fmt(500_000 / Math.max(hub.perSubUs, 0.001))} notifications/s`,
  );
  if (soak) {
    const c = soak.cycles;
    const lost = c.reduce((s, x) => s + x.lost, 0);
    const dup = c.reduce((s, x) => s + x.duplicated, 0);
    const heapRatio = c.at(-1).heapMiB / c[0].heapMiB;
    const p99 = percentile(
      c.flatMap((x) => x.latencies),
      99,
    );
    const rel = c.map((x) => x.release.statsMs);
    const reset = c.map((x) => x.release.resetMs);
    const idle = c[0].idlePerStreamUs;
    const most = (xs) => (xs.some((x) => x === undefined) ? "n/a" : fmt(Math.max(...xs)));
    lines.push(
      `notifications: soak L=${soak.L} x ${c.length} cycles: lost=${lost} dup=${dup} heap_last/first=${heapRatio.toFixed(3)} ` +
        `idle_us_per_stream_s=${fmt(idle)} release_reset_ms_max=${most(reset)} release_fin_ms_max=${most(rel)} p99_ms=${fmt(p99)}`,
    );
  }
  if (busiest >= h.NOISY_CORES) lines.push(`note: other processes kept up to ${busiest.toFixed(2)} cores busy during a measurement; figures are skewed.`);
  else lines.push(`(other processes used at most ${busiest.toFixed(2)} cores during the measurements)`);
  return { text: lines.join("\n") };
}
