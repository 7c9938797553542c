// test/bench/paired.mjs: the bench's paired comparisons bill each batch its own CPU, order turns ABBA,
// and give the same ratio and bootstrap interval for the same figures.
import { describe, expect, it } from "vitest";
import { batchSizes, interleave, pairedRatio, turnOrder } from "../../bench/paired.mjs";

type Batch = { ns: number; count: number };

describe("bench paired comparisons", () => {
  it("turns alternate the order, so a trend falls on every side alike", () => {
    expect([0, 1, 2, 3].map((i) => turnOrder(i, ["a", "b"]).join(""))).toEqual(["ab", "ba", "ab", "ba"]);
    expect(turnOrder(1, ["a", "b", "c", "d"])).toEqual(["d", "c", "b", "a"]);
  });

  it("splits the calls into batches that sum to the total", () => {
    expect(batchSizes(3000, 200)).toEqual(Array(15).fill(200));
    const sizes = batchSizes(1001, 200);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(1001);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    expect(batchSizes(50, 200)).toEqual([50]);
  });

  it("bills a Worker's later work (after its answers) to its own last batch, not to the other side's", async () => {
    // Two fake trees: "a" costs 10 per call during its batch and 5 more once the other side runs
    // (its waitUntil work); "b" costs 20 per call and nothing after.
    const cpu = new Map([
      ["1", 0],
      ["2", 0],
    ]);
    let running: string | undefined;
    const run = async (name: string) => {
      if (running === "a" && name !== "a") cpu.set("1", cpu.get("1")! + 5); // a's trailing work, while b's batch runs
      running = name;
      if (name === "a") cpu.set("1", cpu.get("1")! + 10 * 100);
      else cpu.set("2", cpu.get("2")! + 20 * 100);
      return { count: 100 };
    };
    const { batches } = await interleave({
      sides: new Map([
        ["a", { pids: [1] }],
        ["b", { pids: [2] }],
      ]),
      turns: 4,
      run,
      cpuOf: (pids: number[]) => ({ schedNs: cpu.get(String(pids[0]))!, tickNs: 0 }),
      snapshot: () => ({}),
      otherCores: () => 0,
      settleMs: 0,
    });
    const a: Batch[] = batches.get("a") ?? [];
    const b: Batch[] = batches.get("b") ?? [];
    // Turns ab, ba, ab, ba: a's trailing work lands after its batches 0 and 2 (b runs next).
    expect(a.map((x) => x.ns)).toEqual([1005, 1000, 1005, 1000]);
    expect(b.map((x) => x.ns)).toEqual([2000, 2000, 2000, 2000]);
  });

  it("sides sharing one workerd are billed from their batch's start to the next batch's", async () => {
    let total = 0;
    const { batches } = await interleave({
      sides: new Map([
        ["cheap", { pids: [7] }],
        ["dear", { pids: [7] }],
      ]),
      turns: 2,
      run: async (name: string) => {
        total += name === "cheap" ? 100 : 300;
        return { count: 1 };
      },
      cpuOf: () => ({ schedNs: total, tickNs: 0 }),
      snapshot: () => ({}),
      otherCores: () => 0,
      settleMs: 0,
    });
    expect(batches.get("cheap")?.map((x: Batch) => x.ns)).toEqual([100, 100]);
    expect(batches.get("dear")?.map((x: Batch) => x.ns)).toEqual([300, 300]);
  });

  it("gives Σb/Σa per call with a seeded interval that holds it, the same run after run", () => {
    const pair = (a: number, b: number) => ({ a: { ns: a, count: 100 }, b: { ns: b, count: 100 } });
    const rounds = [
      [pair(100, 104), pair(120, 126), pair(90, 93), pair(110, 114)],
      [pair(200, 206), pair(100, 105), pair(150, 156)],
    ];
    const r = pairedRatio(rounds);
    expect(r.ratio).toBeCloseTo((104 + 126 + 93 + 114 + 206 + 105 + 156) / (100 + 120 + 90 + 110 + 200 + 100 + 150), 12);
    expect(r.low).toBeLessThanOrEqual(r.ratio);
    expect(r.high).toBeGreaterThanOrEqual(r.ratio);
    expect(r.low).toBeGreaterThan(1.02);
    expect(r.high).toBeLessThan(1.06);
    expect(r.pairs).toBe(7);
    expect(r.perRound).toHaveLength(2);
    expect(pairedRatio(rounds)).toEqual(r);
    // Counting the rounds too widens the interval when the rounds (instances) disagree.
    const apart = pairedRatio([
      [pair(100, 101), pair(100, 101), pair(100, 102)],
      [pair(100, 120), pair(100, 121), pair(100, 119)],
    ]);
    expect(apart.high - apart.low).toBeLessThan(0.03);
    expect(apart.roundsLow).toBeLessThan(apart.low);
    expect(apart.roundsHigh).toBeGreaterThan(apart.high);
    // Identical pairs: no spread at all.
    const flat = pairedRatio([[pair(100, 105), pair(100, 105)]]);
    expect([flat.low, flat.ratio, flat.high].map((x) => x.toFixed(6))).toEqual(["1.050000", "1.050000", "1.050000"]);
  });
});
