// Code mode's loop guard inside workerd: a program that never ends is stopped with a clear error, and the Worker
// keeps answering. Local workerd ignores the loader's cpuMs and runs the Dynamic Worker on the parent's thread,
// so without the guard each of these programs would hang the whole runtime.
import { beforeAll, describe, expect, it } from "vitest";
import { execute, firstText, stillAnswers } from "./code-mode-runs.ts";

const OVER_BUDGET = "LimitError: execute stopped: the program ran more than 100000 loop turns and function calls (the iteration limit)";

describe("a program that never ends is stopped by the loop guard", () => {
  // The first run loads the Worker and its code: the timings below are of warm runs.
  beforeAll(stillAnswers, 60_000);

  for (const [name, code, line] of [
    ["while (true) {}", "const started = 1;\nwhile (true) {}", 2],
    ["for (;;) {}", "for (;;) {}", 1],
    ["a loop without braces that catches everything", "let n = 0;\nfor (;;) try { n++; } catch { }", 2],
    ["an async loop that awaits each turn", "let turns = 0;\nwhile (true) {\n  await null;\n  turns++;\n}", 2],
    ["recursion through promises", "const again = async (n) => {\n  await null;\n  return again(n + 1);\n};\nreturn again(0);", 1],
  ] as const) {
    it(`${name}: within the budget, with its line, and the Worker answers afterwards`, async () => {
      const started = Date.now();
      const reply = await execute(code);
      expect(reply.result?.isError).toBe(true);
      expect(firstText(reply)).toBe(`The program failed at line ${line}: ${OVER_BUDGET}`);
      expect(Date.now() - started).toBeLessThan(3_000);
      await stillAnswers();
    });
  }

  it("a recursive function without end: the engine's stack limit ends it first, at its line", async () => {
    const reply = await execute("function deeper(n) {\n  return deeper(n + 1) + 1;\n}\nreturn deeper(0);");
    expect(firstText(reply)).toBe("The program failed at line 1: RangeError: Maximum call stack size exceeded");
    await stillAnswers();
  });

  it("with the default budget (10000000) too", async () => {
    const reply = await execute("while (true) {}", "open");
    expect(firstText(reply)).toBe(
      "The program failed at line 1: LimitError: execute stopped: the program ran more than 10000000 loop turns and function calls (the iteration limit)",
    );
  });

  it("a loop that waits on timers ends at the wall time", async () => {
    const started = Date.now();
    const reply = await execute("while (true) await new Promise((resolve) => setTimeout(resolve, 5));");
    expect(reply.result?.isError).toBe(true);
    expect(firstText(reply)).toMatch(
      /^The program (did not finish within 3000 ms \(the wall time limit\)|failed at line 1: LimitError: execute stopped: the program ran longer than 3000 ms)/,
    );
    expect(Date.now() - started).toBeLessThan(6_000);
    await stillAnswers();
  });
});

describe("what could bypass the guard is refused in the sandbox", () => {
  it("refuses eval, new Function, string timers, data: imports and WebAssembly compiled at run time", async () => {
    const reply = await execute(`
      const out = {};
      const attempt = async (key, f) => { try { await f(); out[key] = "ran"; } catch (e) { out[key] = e.name; } };
      await attempt("eval", () => eval("1 + 1"));
      await attempt("Function", () => new Function("return 1")());
      await attempt("AsyncFunction", () => (async function () {}).constructor("return 1")());
      await attempt("GeneratorFunction", () => (function* () {}).constructor("yield 1")().next());
      await attempt("timer", () => setTimeout("globalThis.x = 1", 0));
      await attempt("import", () => import("data:text/javascript,export default 1"));
      const wasm = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
      await attempt("wasm", () => WebAssembly.compile(wasm));
      await attempt("wasmModule", () => new WebAssembly.Module(wasm));
      return out;`);
    const out = JSON.parse(firstText(reply)) as Record<string, string>;
    expect(Object.keys(out)).toHaveLength(8);
    expect(Object.entries(out).filter(([, outcome]) => outcome === "ran")).toEqual([]);
  });

  it("refuses a program that names the guard, with its line and column", async () => {
    const reply = await execute("const x = 1;\nlet __edgeMcpGuard = () => {};\nwhile (true) {}");
    expect(reply.result).toMatchObject({
      isError: true,
      content: [{ text: "The program failed at line 2, column 5: SyntaxError: the name __edgeMcpGuard is reserved (code mode's loop guard)" }],
    });
  });

  it("gives a syntax error with the program's line and column, before anything runs", async () => {
    const reply = await execute("const a = 1;\nreturn (a +;");
    expect(reply.result).toMatchObject({ isError: true, content: [{ text: "The program failed at line 2, column 12: SyntaxError: Unexpected token" }] });
    expect(reply.result?.["_meta"]).toMatchObject({ "edge-mcp/toolCalls": 0 });
  });
});

describe("memory", () => {
  it("a loop that keeps a small literal each turn (syntax, not a built-in: no allocation charge) is stopped by the iteration budget", async () => {
    const reply = await execute("const kept = [];\nwhile (true) kept.push([kept.length, 1, 2, 3, 4, 5, 6, 7]);");
    expect(firstText(reply)).toBe(`The program failed at line 2: ${OVER_BUDGET}`);
    await stillAnswers();
  });

  it("a loop that builds a small array with a built-in each turn is stopped by the allocation budget first", async () => {
    const reply = await execute("const kept = [];\nwhile (true) kept.push(new Array(64).fill(kept.length));");
    expect(firstText(reply)).toBe(
      "The program failed at line 2: LimitError: execute stopped: the program allocated more than 8388608 bytes (the allocation limit)",
    );
    await stillAnswers();
  });

  it("a string doubled without end fails alone at the engine's string limit", async () => {
    const reply = await execute('let s = "x";\nfor (let i = 0; i < 100; i++) s += s;\nreturn s.length;');
    expect(firstText(reply)).toBe("The program failed at line 2: RangeError: Invalid string length");
    await stillAnswers();
  });
});

describe("tools that support tasks, called from a program", () => {
  it("runs a tool whose task support is optional inline: no task is created", async () => {
    const reply = await execute("return await tools.report({ steps: 2, ms: 1 });");
    expect(firstText(reply)).toMatch(/^report of 2 steps for .* in task none$/);
  });
});
