// The loop guard: programs keep their meaning and their lines once guarded, and a loop or recursion past the budget stops.
import { describe, expect, it } from "vitest";
import { GUARD, guardProgram, type GuardBudget } from "../../../../src/server/code-mode/loop-guard.ts";

const ROOMY: GuardBudget = { maxIterations: 1_000_000, wallTimeMs: 60_000 };

/** Runs a guarded program in Node as the sandbox would: its module's default export, given `tools`. */
async function run(code: string, budget: GuardBudget = ROOMY, tools: unknown = {}): Promise<unknown> {
  const guarded = guardProgram(code, budget);
  if (!guarded.ok) throw new Error(`not prepared: ${guarded.message}`);
  const url = `data:text/javascript;charset=utf-8,${encodeURIComponent(guarded.source)}`;
  const module = (await import(/* @vite-ignore */ url)) as { default: (tools: unknown) => Promise<unknown> };
  return await module.default(tools);
}

/** The same program unguarded, for comparison. */
async function runPlain(code: string): Promise<unknown> {
  const url = `data:text/javascript;charset=utf-8,${encodeURIComponent(`export default async function (tools) {\n${code}\n}\n`)}`;
  return await ((await import(/* @vite-ignore */ url)) as { default: (tools: unknown) => Promise<unknown> }).default({});
}

/** Programs whose syntax is easy to break by rewriting text: each must mean the same once guarded. */
const TRICKY: Record<string, string> = {
  "strings and comments that look like loops": `const s = "while (true) {}"; // for (;;) {}\n/* do { } while (1) */ const t = 'function () {'; return s + t;`,
  "template literals with code inside": "const f = (x) => `a${[1, 2].map((n) => `${n * x}`).join(`}`)}b`; return f(3);",
  "regex literals with braces and slashes":
    "const r = /\\{(\\d+)\\}\\/for/g; let out = []; let m; while ((m = r.exec('{1}/for {22}/for')) !== null) out.push(m[1]); return out;",
  "division beside a regex": "let a = 10, g = 2; const x = a / g / 1; const y = /=/.test('a=b'); return [x, y];",
  "automatic semicolons and bodies without braces":
    "let n = 0\nfor (let i = 0; i < 3; i++) n++\nwhile (n < 10) n += 2\ndo n++\nwhile (n < 20)\nif (n) for (const k of [1, 2]) for (const j in { a: 1 }) n += k\nreturn n",
  "labels with continue and break":
    "let c = 0; outer: for (let i = 0; i < 5; i++) { inner: for (let j = 0; j < 5; j++) { if (j === 2) continue outer; if (i === 4) break outer; c++; } } return c;",
  "arrow functions of every shape":
    "const a = () => ({ k: 1 }); const b = x => y => x + y; const c = async () => await 2; const d = (...xs) => (xs.length, xs[0]); return [a(), b(1)(2), await c(), d(7, 8)];",
  "async loops and for await":
    "const out = []; for await (const v of [Promise.resolve(1), 2]) out.push(v); let i = 0; while (i < 3) { await null; i++; } return [out, i];",
  "generators and classes":
    "function* g() { let i = 0; while (true) yield i++; } const it = g(); class A { #x = 1; static s = 2; get x() { return this.#x; } m() { return [1, 2].map(v => v + this.#x); } static { A.t = 3; } } return [it.next().value, it.next().value, new A().x, new A().m(), A.s, A.t];",
  "empty loop bodies and sequences": "let i = 0; for (; i < 5; i++); while (i++ < 8); return i;",
  "object methods, getters, default parameters":
    "const o = { get v() { return 4; }, f(a = () => 5) { return a(); }, async *h() { yield 6; } }; const r = []; for await (const x of o.h()) r.push(x); return [o.v, o.f(), r];",
  "a directive and a hashless top": `"use strict"; return typeof this;`,
};

describe("guarded programs mean what they meant", () => {
  for (const [name, code] of Object.entries(TRICKY)) {
    it(name, async () => {
      expect(await run(code)).toEqual(await runPlain(code));
    });
  }

  it("keeps every line where it was", () => {
    const code = "const a = [];\nfor (const x of [1])\n  a.push(x)\nwhile (false) {}\nreturn a;";
    const guarded = guardProgram(code, ROOMY);
    if (!guarded.ok) throw new Error(guarded.message);
    const lines = guarded.source.split("\n");
    expect(lines).toHaveLength(code.split("\n").length + 3);
    expect(lines[3]).toContain("a.push(x)");
    expect(lines[4]).toContain("while (false) {");
  });

  it("accepts a module with a default export, and guards it", async () => {
    const guarded = guardProgram("const k = 2;\nexport default async (tools) => { let s = 0; for (let i = 0; i < 3; i++) s += k; return s; };", ROOMY);
    expect(guarded).toMatchObject({ ok: true, lineOffset: 0 });
    expect(await run("const k = 2;\nexport default async (tools) => { let s = 0; for (let i = 0; i < 3; i++) s += k; return s; };")).toBe(6);
  });
});

describe("the guard stops what runs too long", () => {
  const tight: GuardBudget = { maxIterations: 10_000, wallTimeMs: 60_000 };
  const stopped = /^execute stopped: the program ran more than 10000 loop turns and function calls \(the iteration limit\)$/;

  for (const [name, code] of Object.entries({
    "while (true) {}": "while (true) {}",
    "for (;;);": "for (;;);",
    "do … while without braces": "let i = 0; do i++; while (true)",
    "an async loop that awaits each turn": "while (true) { await null; }",
    "recursion through promises": "const f = async () => { await null; return f(); }; return f();",
    "a callback a builtin calls": "const a = new Array(20000).fill(0); return a.map((x) => x + 1).length;",
  })) {
    it(name, async () => {
      await expect(run(code, tight)).rejects.toThrow(stopped);
    });
  }

  it("names the program's line, not the guard's", async () => {
    const error = await run("let a = 1;\n\nwhile (a) {\n  a++;\n}", tight).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe("LimitError");
    // Wrapped program: its line 3 is the module's line 4.
    expect((error as Error).stack).toMatch(/:4:\d+\)?\n/);
  });

  it("keeps stopping a program that catches the error", async () => {
    const code = "for (;;) { try { while (true) {} } catch (e) { } }";
    await expect(run(code, tight)).rejects.toThrow(stopped);
  });

  it("stops at the wall time when the program waits", async () => {
    const code = "while (true) await new Promise((resolve) => setTimeout(resolve, 0));";
    await expect(run(code, { maxIterations: 1_000_000_000, wallTimeMs: 50 })).rejects.toThrow(
      "execute stopped: the program ran longer than 50 ms (the wall time limit)",
    );
  });

  it("keeps its clock when the program replaces Date.now", async () => {
    const code = "Date.now = () => 0;\nwhile (true) await new Promise((resolve) => setTimeout(resolve, 0));";
    const now = Date.now;
    try {
      await expect(run(code, { maxIterations: 1_000_000_000, wallTimeMs: 50 })).rejects.toThrow(
        "execute stopped: the program ran longer than 50 ms (the wall time limit)",
      );
    } finally {
      // This process is the test's sandbox: its clock is given back.
      Date.now = now;
    }
  });

  it("ends unbounded synchronous recursion with the engine's stack error", async () => {
    await expect(run("function f(n) { return f(n + 1) + 1; }\nreturn f(0);")).rejects.toThrow(RangeError);
  });
});

describe("programs the guard refuses", () => {
  it("gives a syntax error with the program's line and column", () => {
    expect(guardProgram("const a = 1;\nreturn (a +;", ROOMY)).toEqual({ ok: false, message: "SyntaxError: Unexpected token", line: 2, column: 12 });
    expect(guardProgram("const a = 1;\nexport default (a +;", ROOMY)).toEqual({ ok: false, message: "SyntaxError: Unexpected token", line: 2, column: 20 });
  });

  it("puts an unclosed block at the program's end", () => {
    expect(guardProgram("if (true) {\n  return 1;", ROOMY)).toMatchObject({ ok: false, line: 2 });
  });

  it("refuses a program that names the guard, so it cannot be shadowed", () => {
    expect(guardProgram(`return 1;\nconst ${GUARD} = () => {};`, ROOMY)).toEqual({
      ok: false,
      message: `SyntaxError: the name ${GUARD} is reserved (code mode's loop guard)`,
      line: 2,
      column: 7,
    });
  });

  it("refuses TypeScript as a syntax error (programs are JavaScript)", () => {
    expect(guardProgram("const a: number = 1;\nreturn a;", ROOMY)).toMatchObject({ ok: false, line: 1, message: "SyntaxError: Unexpected token" });
  });
});
