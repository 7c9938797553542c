// The pure parts of `npm run bench:instructions` (instructions.mjs): workerd's capnp config for one bundle,
// the totals of a callgrind dump, per-call counts from them and a rough cycle estimate.

/**
 * @typedef {Record<string, number>} Totals callgrind's event totals by event name (Ir, Dr, I1mr, …)
 * @typedef {{ instructions: number, dataRefs: number | undefined, i1Misses: number | undefined,
 *   d1Misses: number | undefined, llInstructionMisses: number | undefined, llDataMisses: number | undefined,
 *   mispredicts: number | undefined }} PerCall counts per call (undefined: not simulated)
 */

/**
 * A workerd config serving one module Worker (`bundle/index.js` beside the config) on 127.0.0.1:`port`.
 * `v8Flags`: V8's own flags for the isolate (traces), none by default.
 * @param {{ port: number, compatibilityDate: string, compatibilityFlags?: string[], vars?: Record<string, string>, v8Flags?: string[] }} worker
 * @returns {string}
 */
export function capnpConfig({ port, compatibilityDate, compatibilityFlags = [], vars = {}, v8Flags = [] }) {
  /** @param {unknown} s */
  const text = (s) => JSON.stringify(String(s)); // capnp text literals take JSON's escapes for what we write
  const bindings = Object.entries(vars).map(([name, value]) => `(name = ${text(name)}, text = ${text(value)})`);
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = ${text(`127.0.0.1:${port}`)}, http = (), service = "main") ],${v8Flags.length > 0 ? `\n  v8Flags = [${v8Flags.map(text).join(", ")}],` : ""}
);
const worker :Workerd.Worker = (
  modules = [ (name = "index.js", esModule = embed "bundle/index.js") ],
  compatibilityDate = ${text(compatibilityDate)},
  compatibilityFlags = [${compatibilityFlags.map(text).join(", ")}],
  bindings = [${bindings.join(", ")}],
);
`;
}

/**
 * The event totals of a callgrind output file: `{ Ir: 123, Dr: …, … }`, named by its `events:` line and
 * counted from its `totals:` line (or `summary:`, which older dumps write instead).
 */
export function parseCallgrindTotals(/** @type {string} */ text) {
  const events = /^events:[ \t]*(.+)$/m.exec(text)?.[1];
  const totals = /^(?:totals|summary):[ \t]*(.+)$/m.exec(text)?.[1];
  if (events === undefined || totals === undefined) throw new Error("not a callgrind dump: no events: or totals: line");
  const names = events.trim().split(/\s+/);
  const words = totals.trim().split(/\s+/);
  if (words.some((w) => !/^\d+$/.test(w))) throw new Error(`callgrind totals are not counts: ${totals}`);
  const counts = words.map(Number);
  // A dump may omit trailing zero counts.
  return Object.fromEntries(names.map((name, i) => [name, counts[i] ?? 0]));
}

/**
 * Per-call figures from callgrind totals over `calls` calls: instructions, data references, simulated
 * misses (first-level and last-level, instruction and data) and mispredicted branches, each when counted.
 * @param {Totals} totals
 * @param {number} calls
 * @returns {PerCall}
 */
export function perCall(totals, calls) {
  /** @param {string[]} names */
  const sum = (...names) => (names.every((n) => n in totals) ? names.reduce((s, n) => s + (totals[n] ?? 0), 0) / calls : undefined);
  return {
    instructions: sum("Ir") ?? 0,
    dataRefs: sum("Dr", "Dw"),
    i1Misses: sum("I1mr"),
    d1Misses: sum("D1mr", "D1mw"),
    llInstructionMisses: sum("ILmr"),
    llDataMisses: sum("DLmr", "DLmw"),
    mispredicts: sum("Bcm", "Bim"),
  };
}

/**
 * The weights of `estimatedCycles`, in cycles per event: an instruction (an issue slot at ~1 IPC), a
 * first-level miss served by the (simulated last-level, here a core's private) L2, a miss of that level
 * served by L3 or memory, a mispredicted branch. Zen-class latencies, rounded; an estimate, not a measurement.
 */
export const CYCLE_WEIGHTS = { instruction: 1, l1Miss: 14, llMiss: 50, mispredict: 15 };

/**
 * Ir + 14 × L1 misses + 50 × last-level misses + 15 × mispredicts (whichever were simulated), per call.
 * @param {PerCall} c
 */
export function estimatedCycles(c, w = CYCLE_WEIGHTS) {
  const l1 = (c.i1Misses ?? 0) + (c.d1Misses ?? 0);
  const ll = (c.llInstructionMisses ?? 0) + (c.llDataMisses ?? 0);
  return c.instructions * w.instruction + l1 * w.l1Miss + ll * w.llMiss + (c.mispredicts ?? 0) * w.mispredict;
}
