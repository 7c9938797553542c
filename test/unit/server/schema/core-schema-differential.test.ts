// The core JSON Schema validator against @cfworker/json-schema (the full one): the same verdict on
// every schema of a corpus (hand-written, zod 4's output, the keywords one by one) for many values.
import { Validator, type Schema } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compileCoreSchema } from "../../../../src/server/schema/core-schema.ts";
import { jsonSchemaProblems } from "../../../../src/server/schema/json-schema-check.ts";
import { seededRandom } from "../../../seeded-random.mjs";

const json = (text: string): unknown => JSON.parse(text);

/** Values every schema is tried on: the edge cases of JSON types, lengths, equality and prototype names. */
const COMMON: unknown[] = [
  null,
  true,
  false,
  0,
  -0,
  1,
  1.0,
  1.5,
  -1,
  0.1,
  0.3,
  1e308,
  -1e-7,
  2 ** 53,
  2 ** 53 + 2,
  "",
  "a",
  "abc",
  "é",
  "😀",
  "😀😀",
  "a😀",
  "\ud83d",
  "x".repeat(300),
  [],
  [1],
  [1, 1],
  [1, "1"],
  [0, -0],
  [{ a: 1 }, { a: 1 }],
  [{ a: 1, b: 2 }, json('{"b":2,"a":1}')],
  [
    [1, 2],
    [1, 2],
  ],
  [
    [1, 2],
    [2, 1],
  ],
  [null, null],
  [true, 1],
  {},
  { a: 1 },
  { a: "x", b: 2 },
  json('{"__proto__":1}'),
  json('{"__proto__":{"a":1}}'),
  { constructor: 1 },
  { toString: "x" },
  { hasOwnProperty: null },
  { "a/b": 1, "c~d": 2, "#": 3 },
  { a: { a: { a: { a: 1 } } } },
];

// Each schema with values of its own (besides COMMON).
const CORPUS: [unknown, unknown[]][] = [
  [true, []],
  [false, []],
  [{}, []],
  [{ type: "integer" }, [2.0, 2.5, 1e21, -3]],
  [{ type: ["string", "null"] }, []],
  [{ type: ["integer", "boolean"] }, [3, 3.1]],
  [{ enum: [1, "a", null, [1, 2], { x: 1 }] }, [[1, 2], [2, 1], { x: 1 }, { x: 1, y: 2 }, 1.0, "A"]],
  [{ const: { a: [1, { b: 2 }] } }, [{ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] }]],
  [{ const: 0 }, [-0, 0, "0"]],
  [{ const: null }, []],
  [
    { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"], additionalProperties: false },
    [{ a: 2, b: 3 }, { a: 2 }, { a: 2, b: 3, c: 4 }, { a: "2", b: 3 }],
  ],
  [{ type: "object", required: ["constructor", "__proto__"] }, [{ constructor: 1 }, json('{"constructor":1,"__proto__":2}')]],
  [
    { properties: { __proto__: { type: "string" }, constructor: { type: "string" } } },
    [json('{"__proto__":"x"}'), json('{"__proto__":5}'), { constructor: 5 }],
  ],
  [
    { additionalProperties: { type: "string" }, properties: { n: { type: "number" } } },
    [
      { n: 1, s: "x" },
      { n: 1, s: 2 },
    ],
  ],
  [
    { patternProperties: { "^x-": { type: "string" }, "\\d": { type: "integer" } }, additionalProperties: false },
    [{ "x-a": "1" }, { "x-1": "1" }, { y: 1 }, { "1": 1 }],
  ],
  [{ propertyNames: { pattern: "^[a-z]+$", maxLength: 3 } }, [{ abc: 1 }, { abcd: 1 }, { A: 1 }]],
  [{ minProperties: 1, maxProperties: 2 }, [{ a: 1, b: 2, c: 3 }]],
  [{ items: { type: "integer" }, minItems: 1, maxItems: 3 }, [[1, 2, 3, 4], [1.5], [1, 2]]],
  [{ prefixItems: [{ type: "string" }, { type: "number" }], items: false }, [["a", 1], ["a", 1, 2], ["a"], [1, "a"]]],
  [
    { prefixItems: [{ type: "string" }], items: { type: "boolean" } },
    [
      ["a", true, false],
      ["a", 1],
    ],
  ],
  [{ items: [{ type: "string" }, { type: "number" }] }, [["a", 1, null], [1]]],
  [
    { uniqueItems: true },
    [
      [1, 2, 3],
      [{ a: [1] }, { a: [1.0] }],
      ["1", 1],
      [[], {}],
      [{}, {}],
    ],
  ],
  [{ uniqueItems: false }, []],
  [{ minLength: 2, maxLength: 3 }, ["😀😀😀", "😀😀😀😀", "ab", "abcd", "😀"]],
  [{ pattern: "^\\p{Lu}" }, ["Émile", "émile"]],
  [{ pattern: "a+" }, ["baaa", "bbb"]],
  [{ minimum: 1, maximum: 10 }, [1, 10, 0.999, 10.001]],
  [{ exclusiveMinimum: 1, exclusiveMaximum: 10 }, [1, 10, 1.0001, 9.999]],
  [{ multipleOf: 0.01 }, [0.07, 1.1, 19.99, 0.075, 1e-9, 4.35]],
  [{ multipleOf: 3 }, [9, 10, 9.0, 2 ** 53, 1e300]],
  [{ multipleOf: 1e-10 }, [1, 0.5e-10, 3e-10]],
  [
    {
      anyOf: [
        { type: "string", maxLength: 2 },
        { type: "number", minimum: 5 },
      ],
    },
    ["ab", "abc", 7, 3],
  ],
  [{ oneOf: [{ type: "integer" }, { type: "number", minimum: 2 }] }, [1, 3, 2.5, 1.5]],
  [{ allOf: [{ required: ["a"] }, { required: ["b"] }] }, [{ a: 1, b: 2 }, { a: 1 }]],
  [{ not: { type: "string" } }, []],
  [{ not: {} }, []],
  [{ $ref: "#/$defs/pos", $defs: { pos: { type: "number", minimum: 0 } } }, [3, -3]],
  [{ $ref: "#/definitions/a~1b", definitions: { "a/b": { type: "string" } } }, []],
  [{ $ref: "#/$defs/a%20b", $defs: { "a b": { type: "boolean" } } }, []],
  [{ $ref: "#/$defs/t~0", $defs: { "t~": { const: 1 } } }, []],
  [
    { properties: { self: { $ref: "#" } }, type: "object", required: ["n"] },
    [
      { n: 1, self: { n: 2 } },
      { n: 1, self: { m: 2 } },
      { n: 1, self: 5 },
    ],
  ],
  [
    {
      $defs: {
        node: { type: "object", properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#/$defs/node" } } }, required: ["value"] },
      },
      $ref: "#/$defs/node",
    },
    [
      { value: 1, children: [{ value: 2, children: [] }] },
      { value: 1, children: [{ children: [] }] },
    ],
  ],
  [{ $ref: "#/properties/a", properties: { a: { type: "string" } } }, []],
  [{ $id: "https://example.com/s", $ref: "#/$defs/x", $defs: { x: { type: "integer" } } }, []],
  [{ type: "string", title: "t", description: "d", default: "x", examples: ["y"], deprecated: true, readOnly: true, "x-extra": 1, $comment: "c" }, []],
];

const FORMATS = ["date", "time", "date-time", "email", "hostname", "ipv4", "ipv6", "uri", "uuid", "int32", "binary"];
const FORMAT_VALUES = [
  "2024-02-29",
  "2023-02-29",
  "2024-13-01",
  "2024-04-31",
  "1900-02-29",
  "2000-02-29",
  "24-01-01",
  "0000-02-29",
  "0004-02-29",
  "0100-02-29",
  "0400-02-29",
  "2024-00-10",
  "2024-01-00",
  "2024-12-31",
  "2024-11-31",
  "2024-12-32",
  "9999-12-31",
  "12:00:00Z",
  "12:00:00",
  "12:00:00.123+05:30",
  "23:59:60Z",
  "22:59:60Z",
  "23:59:60+01:00",
  "00:59:60+01:00",
  "24:00:00Z",
  "12:60:00z",
  "12:00:00+24:00",
  "2024-01-01T12:00:00Z",
  "2024-01-01t12:00:00z",
  "2024-01-01 12:00:00Z",
  "2024-01-01T12:00:00",
  "2024-01-01TT12:00:00Z",
  "P1D",
  "PT1H30M",
  "P1W",
  "P1Y2M3DT4H5M6S",
  "P",
  "PT",
  "P1H",
  "user@example.com",
  "first.last+tag@sub.example.co",
  '"quoted local"@example.com',
  ".dot@example.com",
  "dot.@example.com",
  "do..t@example.com",
  "a@[127.0.0.1]",
  "a@[IPv6:::1]",
  "a@-bad.com",
  "no-at-sign",
  `${"l".repeat(65)}@example.com`,
  "example.com",
  "a.b-c.d",
  "-a.com",
  "a-.com",
  "a..b",
  `${"a".repeat(64)}.com`,
  `${"a.".repeat(126)}a`,
  "127.0.0.1",
  "256.0.0.1",
  "01.02.03.004",
  "0.0.0.0",
  "255.255.255.255",
  "249.250.199.100",
  "000.010.099.255",
  "1.2.3.0255",
  "1.2.3.25a",
  "1.2.3.-1",
  "1..3.4",
  "::ffff:0.0.0.0",
  "::ffff:255.250.249.10",
  "::ffff:192.168.0.256",
  "::ffff:192.168.00.1",
  "::1.2.3.4",
  "1.2.3.4::",
  "1::2::3",
  "1:2:3:4:5:6:7",
  "1:2:3:4:5:6:7:8:9",
  "ABCD:EF01::1",
  "::ffff:1.2.3.4:5",
  "1:2:3:4:5:6:1.2.3.04",
  "1:2:3:4:5:1.2.3.4",
  "1.2.3",
  "1.2.3.4.5",
  "::",
  "::1",
  "1::",
  "1:2:3:4:5:6:7:8",
  "1:2:3:4:5:6:7::",
  "1::2:3:4:5:6:7",
  "::ffff:192.168.0.1",
  "::ffff:192.168.0.01",
  "1:2:3:4:5:6:1.2.3.4",
  "1:2:3:4:5:6:7:1.2.3.4",
  "1:::2",
  ":1::2",
  "12345::",
  "g::1",
  "fe80::1%eth0",
  "https://example.com/path?q=1#frag",
  "http://user:pass@[::1]:8080/",
  "http://[1:2]/",
  "http://[v1.abc]/",
  "mailto:user@example.com",
  "urn:isbn:0451450523",
  "a:",
  "a:/",
  "//example.com",
  "/relative/path",
  "http://exa mple.com",
  "http://example.com/%zz",
  "http://é.com",
  "ftp://ftp.is.co.za/rfc/rfc1808.txt",
  "123e4567-e89b-12d3-a456-426614174000",
  "123E4567-E89B-12D3-A456-426614174000",
  "123e4567e89b12d3a456426614174000",
  "^a+$",
  "(unclosed",
  "a\\Z",
  "/a/b~0~1",
  "/a~2",
  "",
  "0/a",
  "1#",
  "01/a",
];

function fullVerdict(schema: unknown, value: unknown): boolean {
  return new Validator(schema as Schema, "2020-12", false).validate(value).valid;
}

function expectSameVerdicts(schema: unknown, values: readonly unknown[]): void {
  expect(jsonSchemaProblems(schema, "")).toEqual([]);
  const core = compileCoreSchema(schema);
  const full = new Validator(schema as Schema, "2020-12", false);
  const differ = values.filter((value) => (core(value).length === 0) !== full.validate(value).valid);
  expect(differ.map((value) => `${JSON.stringify(value)}: full says ${fullVerdict(schema, value)}`)).toEqual([]);
}

describe("the core validator gives the full one's verdict", () => {
  it.each(CORPUS.map(([schema, values], i) => [i, JSON.stringify(schema).slice(0, 80), schema, values] as const))(
    "schema %i %s",
    (_i, _text, schema, values) => {
      expectSameVerdicts(schema, [...values, ...COMMON]);
      // The same schema one level down, and under a $ref, must not change a verdict (its own $refs are written for the root).
      if (JSON.stringify(schema).includes('"$')) return;
      expectSameVerdicts(
        { type: "object", properties: { v: schema } },
        [...values, ...COMMON].map((v) => ({ v })),
      );
      expectSameVerdicts({ $defs: { s: schema }, items: { $ref: "#/$defs/s" } }, [[...values, ...COMMON]]);
    },
  );

  it.each(FORMATS)("format %s", (format) => {
    expectSameVerdicts({ format }, [...FORMAT_VALUES, 5, null]);
  });

  it("agrees on zod 4's JSON Schema output, recursive types included", () => {
    interface Tree {
      name: string;
      children: Tree[];
    }
    const tree: z.ZodType<Tree> = z.object({
      name: z.string().min(1),
      get children() {
        return z.array(tree);
      },
    });
    const schemas = [
      z.object({ a: z.number(), b: z.number() }),
      z.object({ city: z.string().max(40), days: z.int().min(1).max(14).optional(), units: z.enum(["metric", "imperial"]).default("metric") }),
      z.object({ email: z.email(), site: z.url(), id: z.uuid(), when: z.iso.datetime(), day: z.iso.date(), at: z.iso.time(), ip: z.ipv4(), ip6: z.ipv6() }),
      z.object({ tags: z.array(z.string()).min(1).max(5), pair: z.tuple([z.string(), z.number()]), score: z.number().multipleOf(0.5).gt(0).lte(100) }),
      z.object({ kind: z.union([z.literal("a"), z.literal("b")]), value: z.union([z.string(), z.number()]).nullable() }),
      z.object({
        shape: z.discriminatedUnion("type", [
          z.object({ type: z.literal("circle"), r: z.number() }),
          z.object({ type: z.literal("square"), side: z.number() }),
        ]),
      }),
      z.object({ meta: z.record(z.string(), z.number()), strict: z.strictObject({ x: z.boolean() }) }),
      z.object({ root: tree }),
    ];
    const random = seededRandom(19);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const samples: unknown[] = [
      { a: 1, b: 2 },
      { city: "Paris", days: 3, units: "metric" },
      { city: "Paris", days: 0 },
      {
        email: "a@b.co",
        site: "https://x.dev",
        id: "123e4567-e89b-12d3-a456-426614174000",
        when: "2024-01-01T00:00:00Z",
        day: "2024-01-01",
        at: "12:00:00",
        ip: "1.2.3.4",
        ip6: "::1",
      },
      { email: "nope", site: "x", id: "1", when: "yesterday", day: "2024-02-30", at: "25:00:00", ip: "1.2.3", ip6: "::g" },
      { tags: ["a"], pair: ["a", 1], score: 99.5 },
      { tags: [], pair: ["a", 1, 2], score: 0 },
      { kind: "a", value: null },
      { kind: "c", value: true },
      { shape: { type: "circle", r: 1 } },
      { shape: { type: "circle", side: 1 } },
      { meta: { x: 1 }, strict: { x: true } },
      { meta: { x: "1" }, strict: { x: true, y: 1 } },
      { root: { name: "a", children: [{ name: "b", children: [] }] } },
      { root: { name: "a", children: [{ name: "", children: [] }] } },
      { root: { name: "a", children: [{ name: "b" }] } },
    ];
    for (let i = 0; i < 200; i++) samples.push({ [pick(["a", "b", "city", "days", "tags", "kind", "root", "meta"])]: pick(COMMON) });
    for (const schema of schemas) expectSameVerdicts(z.toJSONSchema(schema), [...samples, ...COMMON]);
  });

  it("agrees on random values against random combinations of the keywords", () => {
    const random = seededRandom(2026);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const fragments: Record<string, unknown>[] = CORPUS.map(([schema]) => schema).filter(
      (s): s is Record<string, unknown> => typeof s === "object" && s !== null && !("$ref" in s) && !("$defs" in s) && !("definitions" in s) && !("$id" in s),
    );
    for (let round = 0; round < 60; round++) {
      const schema = { ...pick(fragments), ...pick(fragments) };
      expectSameVerdicts(schema, COMMON);
    }
  });
});
