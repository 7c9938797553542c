// Code mode's allocation budget inside workerd: a memory bomb ends with a LimitError at its line and the Worker keeps
// answering. Local workerd has no memory limit of its own for a Dynamic Worker: without the budget each of these
// programs aborts the whole runtime ("Reached heap limit").
import { beforeAll, describe, expect, it } from "vitest";
import { execute, firstText, stillAnswers } from "./code-mode-runs.ts";

const overBudget = (bytes: number): string => `LimitError: execute stopped: the program allocated more than ${bytes} bytes (the allocation limit)`;
const OVER_SECURE = overBudget(8_388_608);

describe("a memory bomb fails alone, with the allocation limit and its line", () => {
  beforeAll(stillAnswers, 60_000);

  for (const [name, code, line] of [
    ["a loop that keeps a million-element array each turn", "const kept = [];\nwhile (true) kept.push(new Array(1e6).fill(0));", 2],
    ["a big array made and dropped each turn (the budget is cumulative)", "for (;;) {\n  new Array(1e5).fill(0);\n}", 2],
    ["new Array(1e9).fill(0)", "const n = 1e9;\nreturn new Array(n).fill(0).length;", 2],
    ['"x".repeat(2 ** 28)', 'return "x".repeat(2 ** 28).length;', 1],
    ["Array.from({ length: 1e9 })", "return Array.from({ length: 1e9 }).length;", 1],
    ["new Uint8Array(2 ** 31)", "return new Uint8Array(2 ** 31).length;", 1],
    ["new ArrayBuffer(2 ** 31)", "return new ArrayBuffer(2 ** 31).byteLength;", 1],
    ["[...Array(1e8).keys()]", "return [...Array(1e8).keys()].length;", 1],
    ["spreading the keys of an array-like of 1e9", "return [...Array.prototype.keys.call({ length: 1e9 })].length;", 1],
    ["spreading an array whose length was set to 1e9", "const a = [];\na.length = 1e9;\nreturn [...a].length;", 3],
    ["a copy of a big array kept each turn", "const big = new Array(1e5).fill(0);\nconst kept = [];\nfor (;;) kept.push(big.slice());", 3],
    ["a big string joined a thousand times", 'const big = "x".repeat(1e5);\nreturn new Array(1e3).fill(big).join("").length;', 2],
    [
      "an object whose toString is big, joined",
      'const big = "y".repeat(1e5);\nconst o = { toString: () => big };\nreturn [o, o, o, o, o, o, o, o, o, o].concat(new Array(1e3).fill(o)).join("").length;',
      3,
    ],
    [
      "JSON.stringify of one big string referenced a thousand times",
      'const big = "z".repeat(1e5);\nreturn JSON.stringify(new Array(1e3).fill(big)).length;',
      2,
    ],
    ["replaceAll that multiplies a text", 'return "x".repeat(1e5).replaceAll("x", "x".repeat(1e3)).length;', 1],
    ["a function replacement that returns a big string per match", 'const big = "w".repeat(1e5);\nreturn "x".repeat(1e3).replace(/x/g, () => big).length;', 2],
    ["structuredClone kept each turn", "const big = new Array(1e5).fill(1);\nconst kept = [];\nwhile (true) kept.push(structuredClone(big));", 3],
    ["TextEncoder.encode kept each turn", 'const s = "é".repeat(1e5);\nconst kept = [];\nwhile (true) kept.push(new TextEncoder().encode(s));', 3],
    ["a Blob of one big string a thousand times", 'const big = "b".repeat(1e5);\nreturn new Blob(new Array(1e3).fill(big)).size;', 2],
    ["Object.keys of a big typed array", "return Object.keys(new Uint8Array(4e6)).length;", 1],
    ["a WebAssembly memory of 1 GiB (no module needed)", "return new WebAssembly.Memory({ initial: 16384 }).buffer.byteLength;", 1],
    ["a WebAssembly memory grown page by page", "const memory = new WebAssembly.Memory({ initial: 1, maximum: 65536 });\nfor (;;) memory.grow(16);", 2],
    ["Promise.all over a hundred thousand values", "const values = new Array(1e5).fill(0);\nreturn (await Promise.all(values)).length;", 2],
    ["a subclass of Array (its constructor's line)", "class Big extends Array {}\nreturn new Big(1e9).length;", 1],
    ["Reflect.construct(Array, [1e9])", "return Reflect.construct(Array, [1e9]).length;", 1],
    [
      "Array.from on a constructor that is not an array",
      "const Plain = function () { return {}; };\nreturn Array.from.call(Plain, { length: 1e9 }).length;",
      2,
    ],
    [
      "a copy with the array's constructor (its species) replaced",
      "const big = new Array(3e5).fill(0);\nbig.constructor = undefined;\nconst kept = [];\nfor (;;) kept.push(big.slice());",
      4,
    ],
    [
      "a gzip bomb unpacked with DecompressionStream",
      'const packed = new Blob(["x"]).stream();\nreturn await new Response(packed.pipeThrough(new DecompressionStream("gzip"))).text();',
      2,
    ],
    ["a CompressionStream", 'return new CompressionStream("gzip") !== null;', 1],
    ["a Response body copied each turn", 'const big = "r".repeat(1e5);\nconst kept = [];\nfor (;;) kept.push(await new Response(big).arrayBuffer());', 3],
    [
      "a Response of a stream the program feeds",
      "const s = new ReadableStream({ pull(c) { c.enqueue(new Uint8Array(1e6)); } });\nreturn (await new Response(s).arrayBuffer()).byteLength;",
      2,
    ],
    ["spreading matchAll over a big text", 'const text = "x".repeat(1e6);\nreturn [...text.matchAll(/x/g)].length;', 2],
    [
      "spreading a big Map's entries kept each turn",
      "const m = new Map();\nfor (let i = 0; i < 1e4; i++) m.set(i, i);\nconst kept = [];\nfor (;;) kept.push([...m]);",
      4,
    ],
    ["spreading Intl.Segmenter's segments of a big text", 'const text = "y".repeat(1e6);\nreturn [...new Intl.Segmenter().segment(text)].length;', 2],
    [
      "Object.getOwnPropertyDescriptors of a big array",
      "const big = new Array(2e5).fill(0);\nreturn Object.keys(Object.getOwnPropertyDescriptors(big)).length;",
      2,
    ],
    ["a Set filled from an iterator of 300,000 keys", "const keys = new Array(3e5).keys();\nreturn new Set(keys).size;", 2],
    ["a Map made from the entries of a big array", "const pairs = new Array(2e5).fill(0).entries();\nreturn new Map(pairs).size;", 2],
    ["a Request with a body", 'return await new Request("http://x/", { method: "POST", body: "b".repeat(10) }).text();', 1],
    [
      "a program that catches the limit and allocates on",
      'let caught = 0;\nfor (;;) { try { new Array(1e6).fill(0); } catch { caught++; } if (caught > 3) return "x".repeat(10); }',
      2,
    ],
  ] as const) {
    it(`${name}: a LimitError at line ${line}, and the Worker answers afterwards`, async () => {
      const reply = await execute(code);
      expect(reply.result?.isError).toBe(true);
      expect(firstText(reply)).toBe(`The program failed at line ${line}: ${OVER_SECURE}`);
      await stillAnswers();
    });
  }

  it("with the default budget (32 MiB) too", async () => {
    const reply = await execute("const kept = [];\nwhile (true) kept.push(new Array(1e6).fill(0));", "open");
    expect(firstText(reply)).toBe(`The program failed at line 2: ${overBudget(33_554_432)}`);
  });

  it("a program that catches the limit can still log text and give a small answer", async () => {
    const reply = await execute('try {\n  new Array(1e9).fill(0);\n} catch (e) {\n  console.log(e.name, "caught");\n}\nreturn { answer: "fallback" };');
    expect(reply.result?.isError).toBeUndefined();
    expect(reply.result?.content.map((part) => part.text)).toEqual(['{"answer":"fallback"}', "console:\nLimitError caught"]);
  });

  it("a result too big to serialize ends with the limit, not a crash", async () => {
    const reply = await execute('const big = "r".repeat(1e5);\nreturn new Array(1e3).fill(big);');
    expect(firstText(reply)).toBe(`The program failed: ${OVER_SECURE}`);
  });
});

describe("lengths and strings are read once, so a getter cannot show the charge a small size", () => {
  it("an array-like whose length grows on the second read is copied at the size it first said", async () => {
    const reply = await execute(`
      let reads = 0;
      const liar = { get length() { return reads++ === 0 ? 1 : 1e9; } };
      const proxied = new Proxy([], { get: (t, key) => (key === "length" ? (reads++ === 1 ? 2 : 1e9) : t[key]) });
      return [Array.from(liar).length, Array.prototype.map.call(proxied, () => 0).length];`);
    expect(firstText(reply)).toBe("[1,2]");
  });

  it("a toString that answers big the second time is called once", async () => {
    const reply = await execute(`
      let calls = 0;
      const big = "q".repeat(1e5);
      const sneaky = { toString: () => (calls++ === 0 ? "a" : big) };
      return ["b".concat(sneaky).length, "xy".padEnd(3, sneaky).length, calls];`);
    expect(firstText(reply)).toBe("[2,3,2]");
  });
});

describe("the wrappers cannot be removed, and the built-ins they wrap cannot be reached", () => {
  it("refuses to replace, delete or redefine a wrapper; every path to Array leads to the wrapper", async () => {
    const reply = await execute(
      `
      const out = {};
      const attempt = (key, f) => { try { f(); out[key] = "done"; } catch (e) { out[key] = e.name; } };
      attempt("assign", () => { Array.prototype.fill = function () { return this; }; });
      attempt("delete", () => { delete Array.prototype.fill; });
      attempt("define", () => Object.defineProperty(String.prototype, "repeat", { value: () => "" }));
      attempt("reflect", () => { if (!Reflect.defineProperty(JSON, "stringify", { value: () => "" })) throw new TypeError(); });
      attempt("global", () => { globalThis.Uint8Array = null; });
      const budget = await import("./allocation-budget.js").then((m) => m.installAllocationBudget, (e) => e.name);
      out.imported = typeof budget;
      attempt("install again", () => budget(1e12));
      out.samePaths = [Object.getPrototypeOf([]).constructor === Array, [].constructor === Array, Reflect.getPrototypeOf([]).fill === Array.prototype.fill,
        Object.getOwnPropertyDescriptor(Array.prototype, "fill").value === [].fill, Object.getPrototypeOf(Int8Array).prototype.fill === new Int8Array(1).fill,
        Object.getPrototypeOf(globalThis).Blob === Blob, Object.getPrototypeOf(globalThis).structuredClone === structuredClone, !Object.hasOwn(globalThis, "Blob")].every(Boolean);
      out.realm = [typeof ShadowRealm, await import("node:vm").then(() => "imported", () => "refused")];
      console.log(JSON.stringify(out));
      return new Array(1e9).fill(0).length;`,
      "open",
    );
    expect(firstText(reply)).toBe(`The program failed at line 17: ${overBudget(33_554_432)}`);
    const logged = reply.result?.content[1]?.text ?? "";
    expect(JSON.parse(logged.replace(/^console:\n/, ""))).toEqual({
      assign: "TypeError",
      delete: "TypeError",
      define: "TypeError",
      reflect: "TypeError",
      global: "TypeError",
      imported: "function",
      "install again": "TypeError",
      samePaths: true,
      realm: ["undefined", "refused"],
    });
  });

  it("a stack trace's frames do not give the built-ins away", async () => {
    const reply = await execute(
      `
      Error.prepareStackTrace = (error, frames) => frames;
      let functions = [];
      [1].map(() => { functions = new Error().stack.map((frame) => typeof frame.getFunction()); });
      Error.prepareStackTrace = undefined;
      return functions.filter((type) => type !== "undefined");`,
      "open",
    );
    expect(firstText(reply)).toBe("[]");
  });
});

describe("a program with moderate allocations still runs", () => {
  it("arrays, strings, JSON and typed arrays of a few hundred thousand elements", async () => {
    const reply = await execute(
      `
      const numbers = Array.from({ length: 100000 }, (_, i) => i);
      const even = numbers.filter((n) => n % 2 === 0).map((n) => n * 3);
      const text = even.slice(0, 1000).join(",");
      const words = "the quick brown fox ".repeat(1000).trim().split(" ");
      const counts = {};
      for (const word of words) counts[word] = (counts[word] ?? 0) + 1;
      const bytes = new TextEncoder().encode(text);
      const copy = structuredClone({ even: even.slice(0, 10), counts });
      const wide = new Float64Array(50000).fill(1.5).map((x) => x * 2);
      const nested = [[1, [2, [3]]], [4]].flat(Infinity).concat([5], 6);
      const json = JSON.parse(JSON.stringify({ counts, nested }, null, 2));
      return {
        even: even.length, text: text.length, words: words.length, counts, bytes: bytes.length, copy: copy.even.at(-1), wide: wide[49999],
        nested: json.nested, sorted: [3, 1, 2].toSorted(), replaced: "a-b-c".replaceAll("-", "+"), padded: "7".padStart(3, "0"),
        spread: [..."héllo"].length, keys: Object.keys(numbers.slice(0, 10)).length, blob: new Blob(["abc", bytes]).size,
      };`,
      "open",
    );
    expect(reply.result?.isError).toBeUndefined();
    expect(JSON.parse(firstText(reply))).toEqual({
      even: 50000,
      text: 4813,
      words: 4000,
      counts: { the: 1000, quick: 1000, brown: 1000, fox: 1000 },
      bytes: 4813,
      copy: 54,
      wide: 3,
      nested: [1, 2, 3, 4, 5, 6],
      sorted: [1, 2, 3],
      replaced: "a+b+c",
      padded: "007",
      spread: 5,
      keys: 10,
      blob: 4816,
    });
  });
});
