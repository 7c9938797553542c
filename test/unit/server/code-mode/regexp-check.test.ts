// The sandbox's check of regular expressions (src/server/code-mode/sandbox/regexp-check.js): what it refuses, what it
// lets through, and that a program's changes to the built-in prototypes cannot change its answer.
import { describe, expect, it } from "vitest";
import { catastrophicPart } from "../../../../src/server/code-mode/sandbox/regexp-check.js";

const flagsOf = (pattern: RegExp): string => pattern.flags.replace(/[gmyd]/g, "");
const verdict = (pattern: RegExp): string => catastrophicPart(pattern.source, flagsOf(pattern));

describe("catastrophicPart refuses", () => {
  for (const [pattern, part] of [
    [/(a+)+$/, "(a+)+"],
    [/(a*)*/, "(a*)*"],
    [/(\w+\s?)*$/, "(\\w+\\s?)*"],
    [/(\s?\w+)*$/, "(\\s?\\w+)*"],
    [/(a|a)*/, "(a|a)*"],
    [/(a|aa)+/, "(a|aa)+"],
    [/(\r\n|\r|\n)+x/, "(\\r\\n|\\r|\\n)+"],
    [/(?:a+b?)+/, "(?:a+b?)+"],
    [/((a|aa))+/, "((a|aa))+"],
    [/(?<word>a+)+/, "(?<word>a+)+"],
    [/(a+){10}/, "(a+){10}"],
    [/(\d{1,3})+x/, "(\\d{1,3})+"],
    [/(\s*,\s*)*x/, "(\\s*,\\s*)*"],
    [/(.*?,)*x/, "(.*?,)*"],
    [/(a|A)+/i, "(a|A)+"],
    [/(A+a+)+/i, "(A+a+)+"],
    [/^([a-zA-Z0-9])(([-.]|[_]+)?([a-zA-Z0-9]+))*@[a-z0-9]+$/, "(([-.]|[_]+)?([a-zA-Z0-9]+))*"],
    [/x(?=(a+)+)/, "(a+)+"],
    [/(\p{L}+ ?)+$/u, "(\\p{L}+ ?)+"],
  ] as const) {
    it(`${String(pattern)}: names ${part}`, () => {
      expect(verdict(pattern)).toBe(part);
    });
  }

  it("a pattern it cannot read as a whole: nested more than 100 groups deep", () => {
    const deep = `${"(".repeat(101)}a${")".repeat(101)}`;
    expect(catastrophicPart(deep, "")).toBe("the whole pattern");
    expect(catastrophicPart(`${"(?:".repeat(100)}a${")".repeat(100)}`, "")).toBe("");
  });

  it("an unreadable pattern (not valid), named as it is", () => {
    expect(catastrophicPart("(a", "")).toBe("(a");
    expect(catastrophicPart("a{2", "u")).toBe("a{2");
  });
});

describe("catastrophicPart lets through", () => {
  for (const pattern of [
    /\d+/,
    /(ab)+/,
    /^[a-z]+(?:-[a-z]+)*$/,
    /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
    /^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/,
    /"(?:[^"\\]|\\.)*"/,
    /^(\d{1,3}\.){3}\d{1,3}$/,
    /(\d{1,3}){4}/,
    /(\s|,)+/,
    /(?:.*\n)*/,
    /(\d+,)*\d+/,
    /\s+$/,
    /(-?\d+) °C/,
    /^(?:\+?1[-. ]?)?\(?\d{3}\)?[-. ]?\d{3}[-. ]?\d{4}$/,
    /\p{L}+/u,
    /[\u{1F600}-\u{1F64F}]+/u,
    /(?<year>\d{4})-(?<month>\d{2})/,
    /x{2,}/,
    /a{/,
    /[\]\\-]+/,
    /\b\w+\b/g,
    /(?:https?|ftp):\/\/[^\s/$.?#].[^\s]*/,
    /(?=a)a+/,
    /(A+a+)+/,
    /[^]*/,
    /(["'])(?:(?=(\\?))\2.)*?\1/,
    new RegExp("[\\p{L}--[a-z]]+", "v"),
  ]) {
    it(String(pattern), () => {
      expect(verdict(pattern)).toBe("");
    });
  }

  it("long patterns and large classes, in time proportional to their size", () => {
    expect(catastrophicPart("a".repeat(100_000), "")).toBe("");
    const wide = `[${Array.from({ length: 20_000 }, (_, i) => String.fromCharCode(0x4e00 + i)).join("")}]+`;
    expect(catastrophicPart(wide, "")).toBe("");
  });
});

describe("catastrophicPart under a program's changes to the built-ins", () => {
  it("gives the same answers with setters on Array.prototype and Object.prototype indices and a replaced iterator", () => {
    const arrayIterator = Object.getOwnPropertyDescriptor(Array.prototype, Symbol.iterator);
    let touched = 0;
    let answers: string;
    for (let i = 0; i < 8; i++) {
      Object.defineProperty(Array.prototype, i, { set: () => touched++, configurable: true });
      Object.defineProperty(Object.prototype, i, { get: () => ")", configurable: true });
    }
    Object.defineProperty(Array.prototype, Symbol.iterator, { value: () => [].values(), configurable: true, writable: true });
    try {
      // Nothing but string concatenation here: the test's own helpers use arrays too.
      answers = catastrophicPart("(a+)+", "") + " | " + catastrophicPart("[a-z]+(?:-[a-z]+)*", "") + " | " + catastrophicPart("a", "");
    } finally {
      for (let i = 0; i < 8; i++) {
        delete (Array.prototype as unknown as Record<number, unknown>)[i];
        delete (Object.prototype as unknown as Record<number, unknown>)[i];
      }
      if (arrayIterator) Object.defineProperty(Array.prototype, Symbol.iterator, arrayIterator);
    }
    expect(answers).toBe("(a+)+ |  | ");
    expect(touched).toBe(0);
  });
});
