// test/bench/callgrind.mjs: `npm run bench:instructions` reads callgrind's totals by the names of its events line,
// refuses what is not a dump, and turns totals into per-call counts and a cycle estimate.
import { describe, expect, it } from "vitest";
import { capnpConfig, estimatedCycles, parseCallgrindTotals, perCall } from "../../bench/callgrind.mjs";

const DUMP = `# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 4242
cmd:  workerd serve config.capnp
part: 3

desc: I1 cache: 32768 B, 64 B, 8-way associative
positions: line
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim
summary: 4410000 1200000 800000 30000 20000 10000 500 700 300 900000 9000 40000 1000
fl=(1) ???
fn=(1) 0x0000000004a1b2c3
0 5 1 1
totals: 4410000 1200000 800000 30000 20000 10000 500 700 300 900000 9000 40000 1000
`;

describe("bench instruction counts (callgrind)", () => {
  it("reads every event of the totals line by its name", () => {
    expect(parseCallgrindTotals(DUMP)).toEqual({
      Ir: 4410000,
      Dr: 1200000,
      Dw: 800000,
      I1mr: 30000,
      D1mr: 20000,
      D1mw: 10000,
      ILmr: 500,
      DLmr: 700,
      DLmw: 300,
      Bc: 900000,
      Bcm: 9000,
      Bi: 40000,
      Bim: 1000,
    });
  });

  it("reads an instructions-only dump, and counts omitted trailing events as zero", () => {
    expect(parseCallgrindTotals("events: Ir\nsummary: 123\n")).toEqual({ Ir: 123 });
    expect(parseCallgrindTotals("events: Ir Dr Dw\ntotals: 10 2\n")).toEqual({ Ir: 10, Dr: 2, Dw: 0 });
  });

  it("refuses text that is not a dump, or totals that are not counts", () => {
    expect(() => parseCallgrindTotals("")).toThrow(/not a callgrind dump/);
    expect(() => parseCallgrindTotals("events: Ir\n")).toThrow(/not a callgrind dump/);
    expect(() => parseCallgrindTotals("totals: 5\n")).toThrow(/not a callgrind dump/);
    expect(() => parseCallgrindTotals("events: Ir\ntotals: -5\n")).toThrow(/not counts/);
    expect(() => parseCallgrindTotals("events: Ir\ntotals: 1e9\n")).toThrow(/not counts/);
  });

  it("divides by the calls, and leaves out what was not simulated", () => {
    const c = perCall(parseCallgrindTotals(DUMP), 10);
    expect(c).toEqual({
      instructions: 441000,
      dataRefs: 200000,
      i1Misses: 3000,
      d1Misses: 3000,
      llInstructionMisses: 50,
      llDataMisses: 100,
      mispredicts: 1000,
    });
    // Ir + 14 × 6,000 L1 misses + 50 × 150 LL misses + 15 × 1,000 mispredicts.
    expect(estimatedCycles(c)).toBe(441000 + 84000 + 7500 + 15000);
    const bare = perCall({ Ir: 900 }, 3);
    expect(bare).toMatchObject({ instructions: 300, i1Misses: undefined, mispredicts: undefined });
    expect(estimatedCycles(bare)).toBe(300);
  });

  it("writes a workerd config for one bundle on loopback, its texts escaped", () => {
    const config = capnpConfig({ port: 18787, compatibilityDate: "2026-04-01", compatibilityFlags: ["enable_request_signal"], vars: { NOTE: 'say "hi"' } });
    expect(config).toContain('address = "127.0.0.1:18787"');
    expect(config).toContain('esModule = embed "bundle/index.js"');
    expect(config).toContain('compatibilityDate = "2026-04-01"');
    expect(config).toContain('compatibilityFlags = ["enable_request_signal"]');
    expect(config).toContain('(name = "NOTE", text = "say \\"hi\\"")');
    expect(capnpConfig({ port: 1, compatibilityDate: "2026-04-01" })).toContain("bindings = [],");
    expect(config).not.toContain("v8Flags");
  });

  it("passes V8 flags to the isolate only when asked (the GC trace of gc-deopt.mjs)", () => {
    const config = capnpConfig({ port: 1, compatibilityDate: "2026-04-01", v8Flags: ["--trace-gc", "--trace-deopt-verbose"] });
    expect(config).toContain('v8Flags = ["--trace-gc", "--trace-deopt-verbose"],');
  });
});
