// The bench's session run (run.mjs calls runSession after the scale runs; --session-only, --no-session):
// on one Worker with legacy sessions on (test/bench/session), tools/call add(2,3) stateless (2026-07-28)
// against the same call inside an open 2025-11-25 session (admitted by the Worker, run by the session's
// Durable Object), the cost of opening a session and of DELETE, and req/s at c=32 for both calls; beside
// them, the same hop at the floor (test/bench/session-floor: a bare Worker answering itself against
// answering through a Durable Object), so a session's cost can be read against what any Worker pays.
// Same workerd CPU accounting and noise control as the main rounds. What and how: README.md, "Session run".
import http from "node:http";
import { dirname, join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { interleave, pairedRatio, sumBatches } from "./paired.mjs";

const SERVER_INFO = { name: "edge-mcp-bench-session", version: "0.0.0" }; // test/bench/session/src/index.ts
const SESSION_ID = /^[0-9a-f]{64}\.[A-Za-z0-9_-]{32}$/; // <Durable Object id>.<24 random bytes, base64url>
const BATCH = 50; // sessions opened, then deleted, per measurement (the default quota's live sessions per caller)
const WARM_CALLS = 1500; // per kind of call, at c=8, discarded
const WARM_OPENS = 50; // sessions opened and deleted before measuring, discarded
const FLOOR_HOP = { "x-floor-hop": "fetch" }; // session-floor/worker.js: answer through its Durable Object

const initializeBody = (id) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "edge-mcp-bench", version: "0.0.0" } },
  });
const INITIALIZED_BODY = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });

export async function runSession(h, workDir) {
  const { REVISIONS, isModern, WrongAnswer, expect, parseJson, isObject, fmt, log } = h;
  const LEGACY = REVISIONS.find((rev) => !isModern(rev));
  const MODERN = REVISIONS.find(isModern);
  const started = performance.now();
  let nextId = 1; // initialize ids; the calls take theirs from cannon's own counter
  let busiest = 0; // other processes' cores during a measurement, at most

  const inSession = (sessionId, method, toolName) => ({ ...LEGACY.headers(method, toolName), "mcp-session-id": sessionId });
  const deleteHeaders = (sessionId) => ({ "mcp-protocol-version": "2025-11-25", "mcp-session-id": sessionId });

  /** First answer of the session Worker: a stateless 2026-07-28 add(2, 3), checked after the boot clock stops. */
  async function statelessProbe(base, agent) {
    const res = await h.send(base, agent, "POST", MODERN.headers("tools/call", "add"), h.addCallBody(MODERN, 1));
    return () => h.checkAddAnswer(MODERN, 1, res.status, res.contentType, res.text);
  }

  /** First answer of the session floor: add(2, 3) answered by its Worker, checked after the boot clock stops. */
  async function floorProbe(base, agent) {
    const res = await h.send(base, agent, "POST", LEGACY.headers("tools/call", "add"), h.addCallBody(LEGACY, 1));
    return () => h.checkAddAnswer(LEGACY, 1, res.status, res.contentType, res.text);
  }

  /** The floor's two answers (by its Worker, through its object), each checked field by field; their templates. */
  async function checkFloor(base) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const out = {};
      for (const [name, extra] of [
        ["direct", {}],
        ["hop", FLOOR_HOP],
      ]) {
        const id = nextId++;
        const res = await h.send(base, agent, "POST", { ...LEGACY.headers("tools/call", "add"), ...extra }, h.addCallBody(LEGACY, id));
        h.checkAddAnswer(LEGACY, id, res.status, res.contentType, res.text);
        out[name] = template(`session floor ${name} tools/call add`, id, res.text);
      }
      return out;
    } finally {
      agent.destroy();
    }
  }

  /** The expected bytes of every later answer, from one that passed its check: the same with another id. */
  function template(what, id, text) {
    const parts = text.split(`"id":${id},`);
    expect(parts.length === 2, `${what}: answer must hold "id":${id}, exactly once`, text.slice(0, 300));
    return { prefix: `${parts[0]}"id":`, suffix: `,${parts[1]}` };
  }

  /** The first initialize answer of a Worker, field by field; returns the template of every later one. */
  function checkInitialize(id, res, seen) {
    const what = `2025-11-25 initialize (id ${id})`;
    expect(res.status === 200, `${what}: HTTP ${res.status}`, res.text.slice(0, 300));
    expect(/^application\/json\b/.test(res.contentType ?? ""), `${what}: content-type ${res.contentType}`);
    checkSessionId(what, res, seen);
    const msg = parseJson(res.text, what);
    expect(msg.jsonrpc === "2.0" && msg.id === id && !("error" in msg) && isObject(msg.result), `${what}: envelope`, msg);
    const { protocolVersion, capabilities, serverInfo, ...rest } = msg.result;
    expect(protocolVersion === "2025-11-25", `${what}: protocolVersion`, protocolVersion);
    expect(isDeepStrictEqual(serverInfo, SERVER_INFO), `${what}: serverInfo`, serverInfo);
    expect(isObject(capabilities) && isObject(capabilities.tools), `${what}: capabilities.tools`, capabilities);
    expect(
      Object.keys(rest).every((k) => k === "instructions"),
      `${what}: unexpected result keys`,
      Object.keys(rest),
    );
    return template(what, id, res.text);
  }

  /** Each initialize must mint a new, well-formed session id. */
  function checkSessionId(what, res, seen) {
    const sessionId = res.headers["mcp-session-id"];
    expect(typeof sessionId === "string" && SESSION_ID.test(sessionId), `${what}: Mcp-Session-Id`, String(sessionId));
    expect(!seen.has(sessionId), `${what}: Mcp-Session-Id was minted before`, sessionId);
    seen.add(sessionId);
    return sessionId;
  }

  /** Sends initialize on `agent`; resolves with the new session's id. */
  async function initializeSession(base, agent, t) {
    const id = nextId++;
    const init = await h.send(base, agent, "POST", LEGACY.headers("initialize"), initializeBody(id));
    if (init.status !== 200 || init.text !== t.initialize.prefix + id + t.initialize.suffix) {
      throw new WrongAnswer(`2025-11-25 initialize (id ${id}): HTTP ${init.status}, answer differs from the checked one: ${init.text.slice(0, 300)}`);
    }
    return checkSessionId(`2025-11-25 initialize (id ${id})`, init, t.seen);
  }

  async function confirmSession(base, agent, sessionId) {
    const note = await h.send(base, agent, "POST", inSession(sessionId, "notifications/initialized"), INITIALIZED_BODY);
    expect(note.status === 202 && note.text === "", "notifications/initialized: want 202 and no body", `${note.status} ${note.text.slice(0, 200)}`);
  }

  /** Opens one session (initialize, then notifications/initialized) on `agent`; resolves with its id. */
  async function openSession(base, agent, t) {
    const sessionId = await initializeSession(base, agent, t);
    await confirmSession(base, agent, sessionId);
    return sessionId;
  }

  async function deleteSession(base, agent, sessionId) {
    const res = await h.send(base, agent, "DELETE", deleteHeaders(sessionId));
    expect(
      res.status === 204 && res.text === "",
      `DELETE of session ${sessionId.slice(0, 12)}…: want 204 and no body`,
      `${res.status} ${res.text.slice(0, 200)}`,
    );
  }

  /**
   * Correctness before speed, on a fresh Worker: the stateless answer, sessions really on (a 2025
   * call without a session is refused), one session opened and its call checked field by field,
   * and a deleted session gone (404). Resolves with the templates later answers are held to.
   */
  async function checkWorker(base) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const stateless = await h.answerTemplate(base, MODERN);
      const refused = await h.send(base, agent, "POST", LEGACY.headers("tools/call", "add"), h.addCallBody(LEGACY, 2));
      const refusal = parseJson(refused.text, "2025-11-25 tools/call without a session");
      expect(
        refused.status === 400 && refusal.error?.code === -32600,
        "2025-11-25 tools/call without a session: want 400 -32600 (sessions on)",
        `${refused.status} ${refused.text.slice(0, 200)}`,
      );

      const t = { seen: new Set(), stateless };
      const id = nextId++;
      t.initialize = checkInitialize(id, await h.send(base, agent, "POST", LEGACY.headers("initialize"), initializeBody(id)), t.seen);
      const sessionId = [...t.seen][0];
      await confirmSession(base, agent, sessionId);
      const call = await h.send(base, agent, "POST", inSession(sessionId, "tools/call", "add"), h.addCallBody(LEGACY, 3));
      h.checkAddAnswer(LEGACY, 3, call.status, call.contentType, call.text);
      t.session = template("2025-11-25 tools/call add in a session", 3, call.text);
      await deleteSession(base, agent, sessionId);
      const gone = await h.send(base, agent, "POST", inSession(sessionId, "tools/call", "add"), h.addCallBody(LEGACY, 4));
      const goneMsg = parseJson(gone.text, "tools/call in a deleted session");
      expect(
        gone.status === 404 && goneMsg.error?.code === -32600,
        "tools/call in a deleted session: want 404 -32600",
        `${gone.status} ${gone.text.slice(0, 200)}`,
      );
      // A second session opens byte for byte like the first (same path as the measured opens).
      await deleteSession(base, agent, await openSession(base, agent, t));
      return t;
    } finally {
      agent.destroy();
    }
  }

  /** Runs `fn` as one quiet measurement (`prepare` before each attempt, unmeasured); workerd CPU (ns) and ticks over it. */
  async function measured(pids, fn, prepare) {
    const m = await h.quietly(pids, fn, prepare);
    busiest = Math.max(busiest, m.others);
    return { value: m.value, cpuNs: m.s1.workerd.schedNs - m.s0.workerd.schedNs, tickNs: m.s1.workerd.tickNs - m.s0.workerd.tickNs, ms: m.s1.t - m.s0.t };
  }

  /**
   * Opens `count` sessions, then deletes them, in batches, one request after the other: a batch's
   * initializes, then their notifications/initialized, then their DELETEs, each its own
   * measurement. A noisy measurement is redone (run.mjs, `quietly`), and a redo must not repeat
   * on used sessions (a second DELETE gets 404): each attempt takes fresh ones from a pool,
   * refilled before it, unmeasured. Workerd CPU µs and wall ms per session for each step; an open
   * is the first two.
   */
  async function opensAndDeletes(base, pids, t, count, measure) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const steps = { initialize: { ns: 0, ms: 0 }, initialized: { ns: 0, ms: 0 }, delete: { ns: 0, ms: 0 } };
    const fresh = []; // initialized, not yet confirmed
    const open = []; // confirmed
    const step = async (name, fn, prepare) => {
      if (!measure) {
        await prepare?.();
        return fn();
      }
      const m = await measured(pids, fn, prepare);
      steps[name].ns += m.cpuNs;
      steps[name].ms += m.ms;
    };
    try {
      for (let done = 0; done < count; done += BATCH) {
        const n = Math.min(BATCH, count - done);
        await step("initialize", async () => {
          for (let i = 0; i < n; i++) fresh.push(await initializeSession(base, agent, t));
        });
        await step(
          "initialized",
          async () => {
            for (const sessionId of fresh.splice(0, n)) {
              await confirmSession(base, agent, sessionId);
              open.push(sessionId);
            }
          },
          async () => {
            while (fresh.length < n) fresh.push(await initializeSession(base, agent, t));
          },
        );
        await step(
          "delete",
          async () => {
            for (const sessionId of open.splice(0, n)) await deleteSession(base, agent, sessionId);
          },
          async () => {
            while (open.length < n) open.push(await openSession(base, agent, t));
          },
        );
      }
      // What redone measurements left over.
      for (const sessionId of [...fresh.splice(0), ...open.splice(0)]) await deleteSession(base, agent, sessionId);
    } finally {
      agent.destroy();
    }
    const us = (name) => steps[name].ns / count / 1000;
    const ms = (name) => steps[name].ms / count;
    return {
      initializeCpuUs: us("initialize"),
      initializedCpuUs: us("initialized"),
      openCpuUs: us("initialize") + us("initialized"),
      openMs: ms("initialize") + ms("initialized"),
      deleteCpuUs: us("delete"),
      deleteMs: ms("delete"),
    };
  }

  // --- one round: a fresh workerd, both calls sequential and at c=32, then opens and DELETEs ------
  async function measureRound(b, fb, round) {
    await h.awaitQuiet([]);
    const worker = await h.startWorker(b, statelessProbe);
    const floor = await h.startWorker(fb, floorProbe);
    const floorTemplates = await checkFloor(floor.base);
    const pids = () => h.processTree(worker.pid);
    const base = worker.base;
    const t = await checkWorker(base);
    const setup = new http.Agent({ keepAlive: true, maxSockets: 1 });
    // One session for the sequential calls, and C32 for the calls at c=32
    // (each request takes the session of its id, so concurrent calls spread over them all).
    const one = await openSession(base, setup, t);
    const many = [];
    for (let i = 0; i < h.C32; i++) many.push(await openSession(base, setup, t));
    const kinds = {
      stateless: { base, rev: MODERN, template: t.stateless, c1: undefined, cN: undefined },
      session: {
        base,
        rev: LEGACY,
        template: t.session,
        c1: () => inSession(one, "tools/call", "add"),
        cN: (id) => inSession(many[id % many.length], "tools/call", "add"),
      },
      // The floor's pair: the same call answered by a bare Worker, and through its Durable Object.
      floor: { base: floor.base, rev: LEGACY, template: floorTemplates.direct, c1: undefined, cN: undefined },
      floorHop: {
        base: floor.base,
        rev: LEGACY,
        template: floorTemplates.hop,
        c1: () => ({ ...LEGACY.headers("tools/call", "add"), ...FLOOR_HOP }),
        cN: () => ({ ...LEGACY.headers("tools/call", "add"), ...FLOOR_HOP }),
      },
    };
    // Alternate which goes first from round to round, so neither always gets the first window.
    const order = round % 2 === 0 ? ["stateless", "session"] : ["session", "stateless"];
    const floorOrder = round % 2 === 0 ? ["floor", "floorHop"] : ["floorHop", "floor"];
    // Warm-up: JIT, connections and the session objects, discarded.
    for (const k of [...order, ...floorOrder])
      await h.cannon(kinds[k].base, kinds[k].rev, kinds[k].template, { connections: 8, amount: WARM_CALLS, headersFor: kinds[k].cN });
    await opensAndDeletes(base, pids, t, WARM_OPENS, false);

    const out = { bootMs: worker.bootMs, kinds: {} };
    // Sequential calls on one keep-alive connection, in short batches, the kinds taking turns (ABBA…,
    // paired.mjs): drift and a full GC land on both kinds alike. One workerd: each batch's CPU is the
    // tree's from its start to the next batch's.
    // The floor's pair takes its turns in the same series, on its own workerd.
    const tree = pids();
    const floorTree = h.processTree(floor.pid);
    const sizes = h.batchSizes(h.requests);
    await h.awaitQuiet([...tree, ...floorTree]);
    const seq = await interleave({
      sides: new Map([...order.map((k) => [k, { pids: tree }]), ...floorOrder.map((k) => [k, { pids: floorTree }])]),
      turns: sizes.length,
      run: async (k, turn) => {
        const v = await h.cannon(kinds[k].base, kinds[k].rev, kinds[k].template, { connections: 1, amount: sizes[turn], headersFor: kinds[k].c1 });
        return { count: v.completed, seconds: v.seconds, latencies: v.latencies };
      },
      cpuOf: h.cpuOf,
      snapshot: h.snapshot,
      otherCores: h.otherCores,
    });
    busiest = Math.max(busiest, ...seq.others);
    const cpu = ({ ns, count }) => ({ ns, count });
    out.pairs = seq.batches.get("stateless").map((a, i) => ({ a: cpu(a), b: cpu(seq.batches.get("session")[i]) }));
    out.floorPairs = seq.batches.get("floor").map((a, i) => ({ a: cpu(a), b: cpu(seq.batches.get("floorHop")[i]) }));
    const usPerCall = (k) => {
      const { ns, count } = sumBatches(seq.batches.get(k));
      return ns / count / 1000;
    };
    out.floorCpuUs = { direct: usPerCall("floor"), hop: usPerCall("floorHop") };
    await h.stopWorker(floor);
    for (const k of order) {
      const { ns: cpuNs, tickNs, count, seconds, latencies } = sumBatches(seq.batches.get(k));
      out.kinds[k] = { cpuNs, tickNs, count, seconds, latencies };
    }
    for (const k of order) {
      const s = out.kinds[k];
      const c32 = await measured(pids, () =>
        h.cannon(base, kinds[k].rev, kinds[k].template, { connections: h.C32, duration: h.c32Seconds, headersFor: kinds[k].cN }),
      );
      out.kinds[k] = {
        cpuUs: s.cpuNs / s.count / 1000,
        cpuUsTicks: s.tickNs / s.count / 1000,
        rpsC1: s.count / s.seconds,
        p50C1: h.percentile(s.latencies, 50),
        p99C1: h.percentile(s.latencies, 99),
        cpuUsC32: c32.cpuNs / c32.value.completed / 1000,
        rpsC32: c32.value.completed / c32.value.seconds,
        p50C32: h.percentile(c32.value.latencies, 50),
        p99C32: h.percentile(c32.value.latencies, 99),
        workerdBusyC32: c32.cpuNs / 1e6 / c32.ms,
      };
    }
    for (const sessionId of [one, ...many]) await deleteSession(base, setup, sessionId);
    setup.destroy();
    // Opens and DELETEs last: each leaves a Durable Object behind until workerd evicts it.
    Object.assign(out, await opensAndDeletes(base, pids, t, h.opens, true));
    await h.stopWorker();
    return out;
  }

  // --- the runs ----------------------------------------------------------------------------------
  log(
    `bench: session run: tools/call add stateless (2026-07-28) vs in a 2025-11-25 session, ${h.rounds} round(s), ` +
      `${h.requests} sequential calls and c=${h.C32} for ${h.c32Seconds}s each; ${h.opens} sessions opened and deleted per round`,
  );
  const b = await h.bundle("session", join(h.ROOT, "test/bench/session/wrangler.toml"), workDir, [], { durableObjects: true });
  // The session floor is one plain module: no bundling, the same compatibility settings.
  const floorScript = join(h.ROOT, "test/bench/session-floor/worker.js");
  const fb = {
    label: "session-floor",
    scriptPath: floorScript,
    outdir: dirname(floorScript),
    compatibilityDate: b.compatibilityDate,
    compatibilityFlags: b.compatibilityFlags,
    vars: {},
    durableObjects: { FLOOR: { className: "Floor", useSQLite: true } },
  };
  log(`bench: session: bundled ${(b.gzipBytes / 1024).toFixed(1)} KiB gz (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  await h.startWorker(b, statelessProbe); // unmeasured: cold disk caches
  await h.stopWorker();

  const rounds = [];
  for (let r = 0; r < h.rounds; r++) {
    const m = await measureRound(b, fb, r);
    rounds.push(m);
    log(
      `bench: session round ${r + 1}/${h.rounds} (stateless/session): cpu ${fmt(m.kinds.stateless.cpuUs)}/${fmt(m.kinds.session.cpuUs)} µs, ` +
        `c32 ${fmt(m.kinds.stateless.rpsC32)}/${fmt(m.kinds.session.rpsC32)} req/s; open ${fmt(m.openCpuUs)} µs, DELETE ${fmt(m.deleteCpuUs)} µs; ` +
        `others used <= ${busiest.toFixed(2)} cores (${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );
    if (h.opt.verbose) log(JSON.stringify(m, (k, v) => (typeof v === "number" ? Number(v.toPrecision(4)) : v)));
  }
  return report(h, { rounds, busiest, bundle: b, seconds: (performance.now() - started) / 1000 });
}

// ---------------------------------------------------------------------------------------------
// Report.

function report(h, { rounds, busiest, bundle, seconds }) {
  const { fmt, median, table } = h;
  const med = (f) => median(rounds.map(f));
  const range = (xs) => `${Math.min(...xs).toFixed(2)}..${Math.max(...xs).toFixed(2)}`;
  const lines = [];

  const rows = [["metric", "stateless 2026-07-28", "session 2025-11-25", "ratio session/stateless", "95 % interval", "95 %, rounds too", "min..max"]];
  const ratio = {};
  const cpuPaired = pairedRatio(rounds.map((r) => r.pairs));
  for (const [key, label] of [
    ["cpuUs", "workerd CPU µs/call (sequential)"],
    ["cpuUsTicks", "  same, from utime+stime ticks"],
    ["cpuUsC32", `workerd CPU µs/call at c=${h.C32}`],
    ["rpsC1", "req/s c=1"],
    ["rpsC32", `req/s c=${h.C32}`],
    ["p50C1", "p50 ms c=1"],
    ["p99C1", "p99 ms c=1"],
    ["p50C32", `p50 ms c=${h.C32}`],
    ["p99C32", `p99 ms c=${h.C32}`],
    ["workerdBusyC32", `workerd cores busy at c=${h.C32}`],
  ]) {
    const per = rounds.map((r) => r.kinds.session[key] / r.kinds.stateless[key]);
    ratio[key] = median(per);
    if (key === "cpuUs") {
      // Σsession/Σstateless over every pair of batches, with its bootstrap interval, and each round's own.
      ratio[key] = cpuPaired.ratio;
      rows.push([
        label,
        fmt(med((r) => r.kinds.stateless[key])),
        fmt(med((r) => r.kinds.session[key])),
        cpuPaired.ratio.toFixed(3),
        `${cpuPaired.low.toFixed(3)}..${cpuPaired.high.toFixed(3)}`,
        `${cpuPaired.roundsLow.toFixed(3)}..${cpuPaired.roundsHigh.toFixed(3)}`,
        range(cpuPaired.perRound),
      ]);
      continue;
    }
    rows.push([label, fmt(med((r) => r.kinds.stateless[key])), fmt(med((r) => r.kinds.session[key])), ratio[key].toFixed(2), "-", "-", range(per)]);
  }
  // The hop at the floor, measured in the same series: what any Worker pays to answer through a Durable Object.
  const floorPaired = pairedRatio(rounds.map((r) => r.floorPairs));
  const overFloor = cpuPaired.perRound.map((x, i) => x / floorPaired.perRound[i]);
  rows.push([
    "floor: CPU µs/call, by the Worker | through its object",
    fmt(med((r) => r.floorCpuUs.direct)),
    fmt(med((r) => r.floorCpuUs.hop)),
    floorPaired.ratio.toFixed(3),
    `${floorPaired.low.toFixed(3)}..${floorPaired.high.toFixed(3)}`,
    `${floorPaired.roundsLow.toFixed(3)}..${floorPaired.roundsHigh.toFixed(3)}`,
    range(floorPaired.perRound),
  ]);
  rows.push(["session ratio over the floor's", "-", "-", (cpuPaired.ratio / floorPaired.ratio).toFixed(3), "-", "-", range(overFloor)]);

  lines.push(
    `edge-mcp session run: medians of ${rounds.length} round(s) on one Worker with legacy sessions on (test/bench/session); ` +
      `ratio = session/stateless within a round, median over rounds; sequential CPU: ${cpuPaired.pairs / rounds.length} pairs of batches per round ` +
      `(the kinds in turn, ABBA), ratio = Σsession/Σstateless over every pair, 95 % bootstrap intervals over pairs within rounds, and over rounds too; ${h.pinned()}`,
  );
  lines.push(`\nsession 1/2: tools/call add(2,3), stateless against inside an open session (${h.C32} sessions at c=${h.C32})\n`);
  lines.push(table(rows));

  const life = [["metric", "-", "median", "min..max", "in stateless calls (CPU)"]];
  const lifeRow = (label, key, cpu) => {
    const xs = rounds.map((r) => r[key]);
    const calls = cpu ? rounds.map((r) => r[key] / r.kinds.stateless.cpuUs) : [];
    life.push([label, "-", fmt(median(xs)), `${fmt(Math.min(...xs))}..${fmt(Math.max(...xs))}`, cpu ? `${fmt(median(calls))} (${range(calls)})` : "-"]);
  };
  lifeRow("open (initialize + notifications/initialized): workerd CPU µs", "openCpuUs", true);
  lifeRow("  of which initialize", "initializeCpuUs", true);
  lifeRow("  of which notifications/initialized", "initializedCpuUs", true);
  lifeRow("  wall ms (one after the other)", "openMs", false);
  lifeRow("DELETE: workerd CPU µs", "deleteCpuUs", true);
  lifeRow("  wall ms (one after the other)", "deleteMs", false);
  lifeRow("boot ms to first answer", "bootMs", false);
  life.push(["bundle KiB gzip", "-", (bundle.gzipBytes / 1024).toFixed(1), "-", "-"]);
  lines.push(
    `\nsession 2/2: a session's life (${h.opens} per round, ${BATCH} at a time: their initializes, then notifications/initialized, then DELETEs, ` +
      "one after the other on one keep-alive connection)\n",
  );
  lines.push(table(life));

  const statelessCpu = med((r) => r.kinds.stateless.cpuUs);
  const extra = med((r) => r.kinds.session.cpuUs - r.kinds.stateless.cpuUs);
  const lifeCpu = med((r) => r.openCpuUs + r.deleteCpuUs);
  lines.push(
    `\nper call, a session costs ${fmt(extra)} µs of workerd CPU more than stateless (${ratio.cpuUs.toFixed(2)}x of ${fmt(statelessCpu)} µs); ` +
      `opening and deleting one costs ${fmt(lifeCpu)} µs, as much as ${fmt(lifeCpu / statelessCpu)} stateless calls. ` +
      `At the floor, answering through a Durable Object costs ${floorPaired.ratio.toFixed(2)}x answering in the Worker, so a session call costs ` +
      `${(cpuPaired.ratio / floorPaired.ratio).toFixed(2)}x what the hop alone explains. ` +
      "Locally the Worker and the session's Durable Object share one workerd, so these figures hold both sides' CPU and no network hop between them.",
  );
  if (busiest >= h.NOISY_CORES) {
    lines.push(
      `\nnote: other processes kept up to ${busiest.toFixed(2)} cores busy during a session measurement; the numbers are skewed then, the paired CPU ratio pulled towards 1 (README: How ratios are compared).`,
    );
  }
  lines.push(`\n(session run ${seconds.toFixed(0)} s)`);
  lines.push(
    `session: cpu_ratio=${ratio.cpuUs.toFixed(2)} req_ratio_c32=${ratio.rpsC32.toFixed(2)} ` +
      `open_cpu_us=${med((r) => r.openCpuUs).toFixed(0)} delete_cpu_us=${med((r) => r.deleteCpuUs).toFixed(0)} ` +
      `floor_ratio=${floorPaired.ratio.toFixed(2)} over_floor=${(cpuPaired.ratio / floorPaired.ratio).toFixed(2)}`,
  );
  return { text: lines.join("\n"), cpuRatio: ratio.cpuUs, reqRatio: ratio.rpsC32, floorRatio: floorPaired.ratio };
}
