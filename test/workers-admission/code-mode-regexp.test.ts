// Code mode's refusal of regular expressions that backtrack catastrophically, inside workerd. Locally a Dynamic Worker
// runs on the parent's thread and workerd enforces no cpuMs on it: without the refusal `/(a+)+$/` on 30 "a" and a "!"
// keeps every tenant of the Worker waiting for as long as it backtracks (2^30 steps).
import { beforeAll, describe, expect, it } from "vitest";
import { execute, firstText, stillAnswers } from "./code-mode-runs.ts";
import { modern, resultOf } from "./fixture.ts";

const refusal = (pattern: string): string => `LimitError: execute stopped: the regular expression /${pattern}/`;

describe("a regular expression that can backtrack catastrophically is refused before it runs", () => {
  beforeAll(stillAnswers, 60_000);

  it("ends /(a+)+$/ on 30 a and a ! with a LimitError at its line, while another tenant's call answers", async () => {
    const program = execute(`const text = "a".repeat(30) + "!";\nreturn /(a+)+$/.test(text);`);
    const other = resultOf(await modern("open", "tools/call", { name: "whoami", arguments: {} }));
    const [reply, answer] = await Promise.all([program, other]);
    expect(firstText(reply)).toContain(`The program failed at line 2: ${refusal("(a+)+$")}`);
    expect(firstText(reply)).toContain("(a+)+ repeats a part whose repetitions can split the same text in more than one way");
    expect(answer.status).toBe(200);
    expect(answer.result?.isError).toBeUndefined();
    await stillAnswers();
  });

  // Each way a program can run a pattern: on a short text each would be quick anyway; what is checked is that none
  // reaches the engine. 25 a's would take seconds on the unguarded engine, so a path that slips past shows as a
  // `false` or a match, not as a stall.
  const A = '"a".repeat(25) + "!"';
  for (const [name, code, pattern] of [
    ["RegExp.prototype.test of a literal", `return /(a+)+$/.test(${A});`, "(a+)+$"],
    ["exec", `return /(a*)*$/.exec(${A});`, "(a*)*$"],
    ["String.prototype.match", `return (${A}).match(/(\\w+\\s?)*$/);`, "(\\w+\\s?)*$"],
    ["String.prototype.matchAll, spread", `return [...(${A}).matchAll(/(a|aa)+$/g)].length;`, "(a|aa)+$"],
    ["String.prototype.replace", `return (${A}).replace(/(a+)+$/, "b");`, "(a+)+$"],
    ["String.prototype.replaceAll", `return (${A}).replaceAll(/(a+)+$/g, "b");`, "(a+)+$"],
    ["String.prototype.split", `return (${A}).split(/(a+)+$/);`, "(a+)+$"],
    ["String.prototype.search", `return (${A}).search(/(a+)+$/);`, "(a+)+$"],
    ["RegExp.prototype[Symbol.replace] called directly", `return RegExp.prototype[Symbol.replace].call(/(a+)+$/, ${A}, "b");`, "(a+)+$"],
    ["RegExp.prototype[Symbol.split] called directly", `return RegExp.prototype[Symbol.split].call(/(a+)+$/, ${A});`, "(a+)+$"],
    ["RegExp.prototype[Symbol.matchAll] called directly", `return [...RegExp.prototype[Symbol.matchAll].call(/(a+)+$/g, ${A})];`, "(a+)+$"],
    ["new RegExp (refused where it is made)", `const re = new RegExp("(a+)+$");\nreturn re.test("x");`, "(a+)+$"],
    ["RegExp called without new", `return RegExp("(a|a)*").source;`, "(a|a)*"],
    ["a subclass of RegExp", `class Mine extends RegExp {}\nreturn new Mine("(a+)+$").test(${A});`, "(a+)+$"],
    ["a harmless pattern, once matched, recompiled with compile()", `const re = /b/;\nre.test("b");\nre.compile("(a+)+$");\nreturn re.test(${A});`, "(a+)+$"],
    ["the i flag folding letters into one class", `return /(a|A)+$/i.test(${A});`, "(a|A)+$"],
    ["a repetition of a count (a+){10}", `return /(a+){10}$/.test(${A});`, "(a+){10}$"],
    ["exec taken from the prototype and called on the pattern", `const exec = RegExp.prototype.exec;\nreturn exec.call(/(a+)+$/, ${A});`, "(a+)+$"],
  ] as const) {
    it(`${name}`, async () => {
      const reply = await execute(code);
      expect(reply.result?.isError).toBe(true);
      expect(firstText(reply)).toContain(refusal(pattern));
    });
  }

  it("cannot put the engine's exec back: the wrapper is non-writable and non-configurable", async () => {
    const reply = await execute(`const out = [];
const d = Object.getOwnPropertyDescriptor(RegExp.prototype, "exec");
out.push(d.writable, d.configurable);
try { RegExp.prototype.exec = function () { return null; }; out.push("assigned"); } catch (e) { out.push(e.name); }
try { Object.defineProperty(RegExp.prototype, "exec", { value: null }); out.push("defined"); } catch (e) { out.push(e.name); }
try { delete RegExp.prototype.exec; out.push("deleted"); } catch (e) { out.push(e.name); }
try { out.push(/(a+)+$/.test("x")); } catch (e) { out.push(e.name); }
return out;`);
    expect(JSON.parse(firstText(reply))).toEqual([false, false, "TypeError", "TypeError", "TypeError", "LimitError"]);
  });

  it("refuses URLPattern, whose groups the runtime runs past the check (24 a's took 7 s; a refusal there aborted workerd)", async () => {
    const reply = await execute(`const pattern = new URLPattern({ pathname: "/((?:a+)+)x" });\nreturn pattern.test({ pathname: "/" + "a".repeat(24) + "!" });`);
    expect(firstText(reply)).toBe(
      "The program failed at line 1: LimitError: execute stopped: URLPattern is not available to a program (its regular expressions run where they cannot be checked); match URLs with URL and a regular expression",
    );
    const called = await execute(`try { URLPattern({ pathname: "/x" }); } catch (e) { return e.name; }`);
    expect(firstText(called)).toBe("LimitError");
    await stillAnswers();
  });

  it("lets a program catch the refusal and go on with another pattern", async () => {
    const reply = await execute(`let first;
try { /(a+)+$/.test("aaa"); } catch (e) { first = e.name; }
return [first, /^a+$/.test("aaa")];`);
    expect(JSON.parse(firstText(reply))).toEqual(["LimitError", true]);
  });
});

describe("common patterns run as they would without the check", () => {
  it("emails, numbers, repeated groups, hyphenated words, quoted strings, dates, a split and a replace", async () => {
    const reply = await execute(`const email = /^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/;
const strict = /^[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+$/;
const slug = /^[a-z]+(?:-[a-z]+)*$/;
return [
  email.test("ann@example.com"), email.test("not an email"), strict.test("a.b+c@mail.example.org"),
  "order 66, item 7".match(/\\d+/g).join(","), /^(ab)+$/.test("ababab"), slug.test("edge-mcp-server"), slug.test("Edge--x"),
  '"a \\\\" b"'.match(/"(?:[^"\\\\]|\\\\.)*"/)[0].length, "2026-12-07".replace(/(?<y>\\d{4})-(?<m>\\d{2})-(?<d>\\d{2})/, "$<d>/$<m>/$<y>"),
  "a, b,c".split(/\\s*,\\s*/).length, [..."x1y22z333".matchAll(/\\d+/g)].length, "  trim me  ".replace(/^\\s+|\\s+$/g, ""),
];`);
    expect(reply.result?.isError).toBeUndefined();
    expect(JSON.parse(firstText(reply))).toEqual([true, false, true, "66,7", true, true, false, 8, "07/12/2026", 3, 3, "trim me"]);
  });
});
