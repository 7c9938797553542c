// Paired, interleaved CPU comparisons for the bench (README.md, "How ratios are compared"): the Workers
// of one comparison stay alive together and take turns in short batches (ABBA…), workerd CPU is read
// around every batch, and a ratio comes with a seeded bootstrap 95 % interval; plus core pinning.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { availableParallelism, setPriority } from "node:os";
import { seededRandom } from "../seeded-random.mjs";

/**
 * @typedef {{ schedNs: number, tickNs: number }} TreeCpu CPU of a process tree so far (ns)
 * @typedef {{ ns: number, tickNs: number, count: number, seconds: number, latencies: number[], loadgen?: number }} Batch
 * @typedef {{ count: number, seconds?: number, latencies?: number[], loadgen?: number }} BatchResult
 * @typedef {{ ns: number, count: number }} Cost CPU (ns) over `count` calls
 */

const TASKSET = "/usr/bin/taskset";
const LOADGEN_CORE = 0;
const WORKERD_CORE = 1;
const NICE = -20; // the highest priority of ordinary scheduling: other processes get a sliver of a busy core

/**
 * Core pinning: the load generator (this process, every thread) on core 0, every workerd thread on
 * core 1, so the two never share a core; and both at nice -20, so other processes on the machine
 * interrupt them less (they still run when the bench waits). Off (silently) without taskset or with
 * fewer than 2 cores; the priority only where allowed (root).
 */
export function corePinning(/** @type {boolean} */ enabled) {
  const usable = enabled && process.platform === "linux" && availableParallelism() >= 2 && existsSync(TASKSET);
  let prioritized = true; // until a thread's priority cannot be raised
  const pin = (/** @type {number} */ pid, /** @type {number} */ core) => {
    try {
      execFileSync(TASKSET, ["-a", "-p", "-c", String(core), String(pid)], { stdio: "ignore" });
    } catch {
      return false; // the process ended, or taskset refused: measured unpinned
    }
    // Linux keeps a nice value per thread: every thread of the process, as taskset -a does.
    let tids;
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      return false; // the process ended
    }
    for (const tid of tids) {
      try {
        setPriority(Number(tid), NICE);
      } catch {
        prioritized = false;
      }
    }
    return true;
  };
  let selfPinned = false;
  return {
    get on() {
      return usable && selfPinned;
    },
    /** Pins this process (the load generator); children started later inherit it until pinned elsewhere. */
    loadGenerator() {
      if (usable && !selfPinned) selfPinned = pin(process.pid, LOADGEN_CORE);
    },
    /** Pins every thread of every process of a workerd tree. */
    workerd(/** @type {number[]} */ pids) {
      if (!usable) return;
      this.loadGenerator();
      for (const pid of pids) pin(pid, WORKERD_CORE);
    },
    describe() {
      if (!(usable && selfPinned)) return "not pinned";
      return `pinned: workerd on core ${WORKERD_CORE}, load generator on core ${LOADGEN_CORE} (taskset)${prioritized ? `, both at nice ${NICE}` : ""}`;
    },
  };
}

/** Batch order of turn `i`: the sides in order on even turns, reversed on odd ones (ABBA, ABCD DCBA…). */
export const turnOrder = (/** @type {number} */ i, /** @type {string[]} */ names) => (i % 2 === 0 ? names : [...names].reverse());

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `turns` turns; in each, every side runs one batch (`run(name, turn)` resolves with
 * { count, seconds?, latencies? }), in `turnOrder`. Every workerd tree is read (per-thread schedstat
 * and utime+stime) at every batch boundary. Each side's CPU for a batch is:
 * - its own tree, from its batch's start to its next batch's start (the last: to `settleMs` after
 *   the series), when the side has a tree of its own: work that follows the answers (waitUntil,
 *   an exporter's flush) counts for the batch that caused it, even if it runs during another's;
 * - from its batch's start to the next boundary, when sides share one tree (one Worker, two kinds of call).
 * `sides`: Map name → { pids }. `snapshot(allPids)` and `otherCores(a, b)` come from run.mjs.
 *
 * @param {{
 *   sides: Map<string, { pids: number[] }>,
 *   turns: number,
 *   run: (name: string, turn: number) => Promise<BatchResult>,
 *   cpuOf: (pids: number[]) => TreeCpu,
 *   snapshot: (pids: number[]) => unknown,
 *   otherCores: (a: any, b: any) => number,
 *   settleMs?: number,
 * }} options
 * @returns {Promise<{ batches: Map<string, Batch[]>, others: number[] }>} each side's batches, other processes' cores per turn
 */
export async function interleave({ sides, turns, run, cpuOf, snapshot, otherCores, settleMs = 300 }) {
  const names = [...sides.keys()];
  const pidsOf = (/** @type {string} */ name) => /** @type {{ pids: number[] }} */ (sides.get(name)).pids;
  /** @type {Map<string, { pids: number[], owners: Set<string> }>} */
  const trees = new Map(); // "pid,pid…" → the tree and the sides it serves
  for (const name of names) {
    const key = pidsOf(name).join(",");
    const tree = trees.get(key) ?? { pids: pidsOf(name), owners: new Set() };
    tree.owners.add(name);
    trees.set(key, tree);
  }
  const allPids = [...trees.values()].flatMap((t) => t.pids);
  const read = () => new Map([...trees].map(([key, t]) => [key, cpuOf(t.pids)]));
  /** @type {Map<string, Batch[]>} */
  const batches = new Map(names.map((n) => [n, []]));
  const batchesOf = (/** @type {string} */ name) => /** @type {Batch[]} */ (batches.get(name));
  /** @type {number[]} */
  const others = [];
  /** @type {Map<string, Batch>} */
  const last = new Map(); // side → its latest batch (where its own tree's later CPU goes)
  let before = read();
  const credit = (/** @type {Map<string, TreeCpu>} */ after, /** @type {string | undefined} */ ran) => {
    for (const [key, t] of trees) {
      const a = /** @type {TreeCpu} */ (after.get(key));
      const b = /** @type {TreeCpu} */ (before.get(key));
      const d = { ns: a.schedNs - b.schedNs, tickNs: a.tickNs - b.tickNs };
      // A tree shared by several sides: what ran on it now is what ran. One side's own tree: its latest batch.
      const owner = t.owners.size > 1 ? (ran !== undefined && t.owners.has(ran) ? ran : undefined) : [...t.owners][0];
      const target = owner === undefined ? undefined : ran === owner ? batchesOf(owner).at(-1) : last.get(owner);
      if (target) {
        target.ns += d.ns;
        target.tickNs += d.tickNs;
      }
    }
    before = after;
  };
  for (let turn = 0; turn < turns; turn++) {
    const s0 = snapshot(allPids);
    for (const name of turnOrder(turn, names)) {
      /** @type {Batch} */
      const b = { ns: 0, tickNs: 0, count: 0, seconds: 0, latencies: [] };
      batchesOf(name).push(b);
      const t0 = performance.now();
      const value = await run(name, turn);
      b.count = value.count;
      b.seconds = value.seconds ?? (performance.now() - t0) / 1000;
      if (value.latencies) b.latencies = value.latencies;
      if (value.loadgen !== undefined) b.loadgen = value.loadgen;
      credit(read(), name);
      last.set(name, b);
    }
    others.push(otherCores(s0, snapshot(allPids)));
  }
  await sleep(settleMs);
  credit(read(), undefined);
  return { batches, others };
}

/**
 * The ratio Σ num.ns/Σ num.count over Σ den.ns/Σ den.count (CPU per call, B against A) of paired batches,
 * and 95 % percentile-bootstrap intervals of 4,000 resamples each: `low..high` resamples the pairs, with
 * replacement, within each round (the rounds' instances kept as they are: batch-to-batch noise only);
 * `roundsLow..roundsHigh` first resamples the rounds, then the pairs of each round drawn, so that
 * instance-to-instance differences count too (coarse with few rounds: it cannot reach past the most
 * extreme round).
 *
 * @param {{ a: Cost, b: Cost }[][]} rounds each round's pairs of batches
 * @param {{ seed?: number, resamples?: number }} [options]
 */
export function pairedRatio(rounds, { seed = 20261202, resamples = 4000 } = {}) {
  const ratioOf = (/** @type {{ a: Cost, b: Cost }[]} */ picks) => {
    let an = 0;
    let ac = 0;
    let bn = 0;
    let bc = 0;
    for (const { a, b } of picks) {
      an += a.ns;
      ac += a.count;
      bn += b.ns;
      bc += b.count;
    }
    return bn / bc / (an / ac);
  };
  const all = rounds.flat();
  const ratio = ratioOf(all);
  const random = seededRandom(seed);
  const pick = (/** @type {any[]} */ xs) => xs[Math.floor(random() * xs.length)];
  /** @returns {[number, number]} the 2.5th and 97.5th percentiles of the resampled ratios */
  const interval = (/** @type {boolean} */ overRounds) => {
    const draws = new Float64Array(resamples);
    for (let i = 0; i < resamples; i++) {
      /** @type {{ a: Cost, b: Cost }[]} */
      const picks = [];
      for (const round of rounds) {
        const pairs = overRounds ? pick(rounds) : round;
        for (let j = 0; j < pairs.length; j++) picks.push(pick(pairs));
      }
      draws[i] = ratioOf(picks);
    }
    draws.sort();
    const at = (/** @type {number} */ q) => /** @type {number} */ (draws[Math.min(resamples - 1, Math.max(0, Math.round(q * (resamples - 1))))]);
    return [at(0.025), at(0.975)];
  };
  const [low, high] = interval(false);
  const [roundsLow, roundsHigh] = interval(true);
  return { ratio, low, high, roundsLow, roundsHigh, perRound: rounds.map(ratioOf), pairs: all.length };
}

/** `total` calls as batches of about `batch` each (as even as can be), summing to `total`. */
export function batchSizes(/** @type {number} */ total, /** @type {number} */ batch) {
  const turns = Math.max(1, Math.round(total / batch));
  return Array.from({ length: turns }, (_, i) => Math.floor((total * (i + 1)) / turns) - Math.floor((total * i) / turns));
}

/** Sums a side's batches: CPU (schedstat and ticks), calls, seconds, every latency. */
export function sumBatches(/** @type {Batch[]} */ batches) {
  /** @type {Batch} */
  const s = { ns: 0, tickNs: 0, count: 0, seconds: 0, latencies: [] };
  for (const b of batches) {
    s.ns += b.ns;
    s.tickNs += b.tickNs;
    s.count += b.count;
    s.seconds += b.seconds;
    for (const l of b.latencies) s.latencies.push(l);
  }
  return s;
}
