// Code mode's sandbox modules: the text the server ships is what npm run build:sandbox makes of the real modules, and
// the allocation budget, run in Node as a sandbox runs it (installed once, before any other code), charges what it
// should whatever the program later does to the globals. Inside workerd: test/workers-admission/code-mode-memory.test.ts.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildSandbox } from "../../../../scripts/build-sandbox.mjs";
import { ALLOCATION_BUDGET_FILE, ALLOCATION_BUDGET_MODULE } from "../../../../src/server/code-mode/allocation-budget.ts";
import { HARNESS_MODULE } from "../../../../src/workers/code-mode/harness-module.ts";

const dir = mkdtempSync(join(tmpdir(), "edge-mcp-sandbox-"));
writeFileSync(join(dir, ALLOCATION_BUDGET_FILE), ALLOCATION_BUDGET_MODULE);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `program` (a module body) in a fresh Node process after `installAllocationBudget(maxBytes)`; what it printed. */
function underBudget(maxBytes: number, program: string): string {
  const script =
    `import { installAllocationBudget } from ${JSON.stringify(join(dir, ALLOCATION_BUDGET_FILE))};\n` +
    `const budget = installAllocationBudget(${maxBytes});\n` +
    `const outcome = (run) => { try { return String(run()); } catch (e) { return e.name + ": " + e.message; } };\n` +
    program;
  return execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }).trim();
}

describe("the sandbox modules", () => {
  it("ship as text what npm run build:sandbox makes of src/server/code-mode/sandbox and src/workers/code-mode/sandbox", async () => {
    expect(await buildSandbox(false)).toEqual([]);
    expect(HARNESS_MODULE).toContain(`from "./${ALLOCATION_BUDGET_FILE}"`);
    expect(ALLOCATION_BUDGET_MODULE).toMatch(/export \{\s*installAllocationBudget\s*\}/);
  });

  it("let a program allocate within its budget and stop it past it with a LimitError", () => {
    const printed = underBudget(10_000, `console.log(outcome(() => "ab".repeat(100).length)); console.log(outcome(() => "ab".repeat(1e6).length));`);
    expect(printed.split("\n")).toEqual(["200", "LimitError: execute stopped: the program allocated more than 10000 bytes (the allocation limit)"]);
  });

  it("charge arrays, typed arrays and the copying methods", () => {
    const printed = underBudget(
      100_000,
      `console.log(outcome(() => new Array(1e6).length)); ` +
        `console.log(outcome(() => new Uint8Array(1e6).length)); console.log(outcome(() => [1, 2, 3].map((x) => x * 2)));`,
    );
    expect(printed.split("\n")).toEqual([
      expect.stringMatching(/^LimitError/),
      // Past the budget once, every wrapped call throws: the budget is cumulative.
      expect.stringMatching(/^LimitError/),
      expect.stringMatching(/^LimitError/),
    ]);
  });

  it("keep charging after a program replaces the built-ins the wrappers use", () => {
    const printed = underBudget(
      10_000,
      `globalThis.isFinite = () => false; Number.isFinite = () => false; Math.min = () => 0; Reflect.apply = () => "";\n` +
        `console.log(outcome(() => "ab".repeat(1e6).length));`,
    );
    expect(printed).toMatch(/^LimitError: execute stopped/);
  });

  it("install once, and renew the budget once for the harness to write the result", () => {
    const printed = underBudget(
      10_000,
      `console.log(outcome(() => "ab".repeat(1e6).length)); budget.renew(); console.log(outcome(() => "ab".repeat(100).length));\n` +
        `budget.renew(); console.log(outcome(() => "ab".repeat(1e4).length)); console.log(outcome(() => installAllocationBudget(1)));`,
    );
    expect(printed.split("\n")).toEqual([
      expect.stringMatching(/^LimitError/),
      "200",
      expect.stringMatching(/^LimitError/),
      "TypeError: the allocation budget is installed once per run",
    ]);
  });
});
