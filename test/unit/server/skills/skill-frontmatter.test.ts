// The SKILL.md frontmatter reader: the YAML subset it accepts, what it yields, and what it refuses (with a line).
import { describe, expect, it } from "vitest";
import { FrontmatterError, parseFrontmatter, parseSkillMarkdown } from "../../../../src/server/skills/skill-frontmatter.ts";

const fm = (yaml: string): Record<string, unknown> => parseFrontmatter(yaml, 2);

function refusal(yaml: string): FrontmatterError {
  try {
    fm(yaml);
  } catch (error) {
    if (error instanceof FrontmatterError) return error;
    throw error;
  }
  throw new Error(`accepted: ${yaml}`);
}

describe("splitting SKILL.md", () => {
  it("separates the frontmatter from the body, tolerating a BOM and CRLF line ends", () => {
    expect(parseSkillMarkdown("\uFEFF---\r\nname: a\r\ndescription: b\r\n---\r\n# Body\r\n")).toEqual({
      frontmatter: { name: "a", description: "b" },
      body: "# Body\n",
    });
    expect(parseSkillMarkdown("---\nname: a\n---   \n")).toEqual({ frontmatter: { name: "a" }, body: "" });
  });

  it("refuses a file without an opening or closing --- line", () => {
    expect(() => parseSkillMarkdown("# no frontmatter\n")).toThrow(/line 1: SKILL.md must begin with a "---" line/);
    expect(() => parseSkillMarkdown("---\nname: a\n")).toThrow(/no closing "---" line/);
  });
});

describe("what the subset reads", () => {
  it("types plain scalars by the YAML 1.2 core schema", () => {
    expect(
      fm("a: true\nb: False\nc: ~\nd: null\ne:\nf: 42\ng: -7\nh: 0x1F\ni: 0o17\nj: 1.5\nk: .5\nl: 1e3\nm: 2024-01-01\nn: 1_000\no: yes\np: 1.0.0"),
    ).toEqual({
      a: true,
      b: false,
      c: null,
      d: null,
      e: null,
      f: 42,
      g: -7,
      h: 31,
      i: 15,
      j: 1.5,
      k: 0.5,
      l: 1000,
      m: "2024-01-01",
      n: "1_000",
      o: "yes",
      p: "1.0.0",
    });
  });

  it("reads quoted scalars with their escapes, and strips comments", () => {
    expect(fm(`a: "tab\\there \\u00e9 \\x41 \\"q\\""  # comment\nb: 'it''s # not a comment'\nc: plain # comment\nd: url#fragment`)).toEqual({
      a: 'tab\there é A "q"',
      b: "it's # not a comment",
      c: "plain",
      d: "url#fragment",
    });
  });

  it("folds multi-line plain scalars with spaces, and blank lines into newlines", () => {
    expect(fm("description: first line\n  second line\n\n  after a blank\nnext: x")).toEqual({
      description: "first line second line\nafter a blank",
      next: "x",
    });
  });

  it("reads literal and folded block scalars with each chomping", () => {
    expect(fm("a: |\n  one\n  two\n\nb: >\n  one\n  two\n\n  three\n    indented\n  four\nc: |-\n  x\n\nd: |+\n  x\n\ne: >-\n  folded\n  text")).toEqual({
      a: "one\ntwo\n",
      b: "one two\nthree\n  indented\nfour\n",
      c: "x",
      d: "x\n\n",
      e: "folded text",
    });
  });

  it("reads nested mappings, block sequences (compact too) and one-line flow collections", () => {
    expect(
      fm(
        'metadata:\n  version: "2.1"\n  author: Ann\ntags:\n- a\n- b\nitems:\n  - name: x\n    size: 1\n  - - nested\n' +
          "flow: [a, \"b c\", 3, {k: v}]\nmap: {x: 1, 'y': [true]}\nempty: []",
      ),
    ).toEqual({
      metadata: { version: "2.1", author: "Ann" },
      tags: ["a", "b"],
      items: [{ name: "x", size: 1 }, ["nested"]],
      flow: ["a", "b c", 3, { k: "v" }],
      map: { x: 1, y: [true] },
      empty: [],
    });
  });

  it("keeps keys in file order, and reads a value that starts on the next line", () => {
    expect(Object.keys(fm("z: 1\na: 2\nm: 3"))).toEqual(["z", "a", "m"]);
    expect(fm("description:\n  on the next line\nname: a")).toEqual({ description: "on the next line", name: "a" });
  });
});

describe("what the subset refuses, naming the line", () => {
  it.each([
    ["anchors", "a: &x 1\nb: *x", 2, /anchors, aliases and tags/],
    ["tags", "a: !!str 1", 2, /anchors, aliases and tags/],
    ["duplicate keys", "a: 1\na: 2", 3, /duplicate key "a"/],
    ["__proto__ keys", "__proto__: 1", 2, /"__proto__" is not allowed/],
    ["non-string keys", "1: one", 2, /key "1" must be a string/],
    ["tab indentation", "a:\n\tb: 1", 3, /tabs cannot indent/],
    ["an unclosed quote", 'a: "open', 2, /must close on the same line/],
    ["a colon-space inside a plain value", "a: b: c", 2, /cannot contain ": "/],
    ["text after a quoted value", 'a: "x" y', 2, /unexpected text after the value/],
    ["an unclosed flow collection", "a: [1, 2", 2, /must close on the same line/],
    ["a trailing comma in a flow collection", "a: [1, ]", 2, /trailing comma/],
    ["block indentation indicators", "a: |2\n   x", 2, /indentation indicators/],
    ["an empty block scalar", "a: |\nb: 1", 2, /at least one line/],
    ["unsafe integers", "a: 12345678901234567890", 2, /too large/],
    ["infinities", "a: .inf", 2, /cannot be written in JSON/],
    ["a top-level sequence", "- a", 2, /must be a mapping/],
    ["an indented first key", "  a: 1", 2, /first column/],
    ["bad indentation", "a:\n  b: 1\n c: 2", 4, /unexpected indentation/],
    ["a lone carriage return", "a: 1\rb: 2", 2, /carriage return/],
    ["control characters", "a: \u0007", 2, /control character/],
    ["complex keys", "? a\n: b", 2, /complex keys/],
    ["a continuation after a comment", "a: x # note\n  y", 3, /a comment ends a plain value/],
  ])("refuses %s", (_what, yaml, line, message) => {
    const error = refusal(yaml);
    expect(error.line).toBe(line);
    expect(error.message).toMatch(message);
  });
});
