// The quick acceptance of flat object schemas (properties with a type and nothing else): never accepts what the full validator refuses,
// accepts ordinary valid arguments, and leaves every other schema to the full validator.
import { Validator, type Schema } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../src/core/types.ts";
import { flatSchemaCheck } from "../../src/server/tools/flat-schema.ts";
import { compileSchema } from "../../src/server/tools/schema-validator.ts";
import { seededRandom } from "../seeded-random.mjs";

const FLAT: JsonSchema[] = [
  { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"], additionalProperties: false },
  { type: "object", properties: { n: { type: "integer", description: "a count" }, s: { type: "string" }, f: { type: "boolean" } }, required: ["n"] },
  { type: "object", title: "anything", properties: {}, additionalProperties: true },
  { type: "object", properties: { x: { type: "string" } }, required: ["x", "y"] },
  { type: "object" },
  // Every JSON type, not only scalars: a property with a type and nothing else is checked by its type alone.
  { type: "object", properties: { a: { type: "array" }, b: { type: "object" }, n: { type: "null" }, s: { type: "string" } } },
];

const NOT_FLAT: JsonSchema[] = [
  { type: "object", properties: { a: { type: "number", minimum: 0 } } },
  { type: "object", properties: { a: { type: ["number", "string"] } } },
  { type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "string" } },
  // (JSON text: the object literal's `toString` key confuses the type of properties)
  JSON.parse('{ "type": "object", "properties": { "toString": { "type": "string" } } }') as JsonSchema,
  { type: "object", required: ["constructor"] },
  { type: "object", properties: { a: { $ref: "#/$defs/a" } }, $defs: { a: { type: "string" } } },
  { properties: { a: { type: "string" } } },
  { type: "object", minProperties: 1 },
  { type: "array" },
];

const KEYS = ["a", "b", "n", "s", "f", "x", "y", "z", "__proto__", "toString"];
const SCALARS = (random: () => number): unknown[] => [Math.floor(random() * 10), random() * 10, -0, 1e21, String(random()), "", random() < 0.5, null, [], {}];

function randomValue(random: () => number): unknown {
  const pick = random();
  if (pick < 0.05) return SCALARS(random)[Math.floor(random() * 10)];
  if (pick < 0.1) return [];
  const value: Record<string, unknown> = {};
  const count = Math.floor(random() * 5);
  const scalars = SCALARS(random);
  for (let i = 0; i < count; i++) {
    const key = KEYS[Math.floor(random() * KEYS.length)] as string;
    Object.defineProperty(value, key, { value: scalars[Math.floor(random() * scalars.length)], enumerable: true, writable: true, configurable: true });
  }
  // JSON text, as arguments arrive (`__proto__` becomes an own key).
  return JSON.parse(JSON.stringify(value));
}

describe("flatSchemaCheck", () => {
  it("never accepts a value the full validator refuses, and accepts the valid ones it sees", () => {
    const random = seededRandom(19);
    for (const schema of FLAT) {
      const quick = flatSchemaCheck(schema);
      expect(quick, JSON.stringify(schema)).toBeDefined();
      const full = new Validator(schema as Schema, "2020-12", false);
      let valid = 0;
      for (let i = 0; i < 3000; i++) {
        const value = randomValue(random);
        const ok = full.validate(value).valid;
        if (quick?.(value)) expect(ok, `${JSON.stringify(schema)} accepted ${JSON.stringify(value)}`).toBe(true);
        else if (ok) expect.unreachable(`${JSON.stringify(schema)} refused the valid ${JSON.stringify(value)}`);
        if (ok) valid++;
      }
      expect(valid).toBeGreaterThan(0);
    }
  });

  it("leaves schemas with any other keyword, type or property name to the full validator", () => {
    for (const schema of NOT_FLAT) expect(flatSchemaCheck(schema), JSON.stringify(schema)).toBeUndefined();
  });

  it("keeps compileSchema's answers: the value itself when valid, the same issues when not", () => {
    const add = compileSchema(FLAT[0] as JsonSchema, "tool add inputSchema");
    const args = { a: 2, b: 3 };
    expect(add.validate(args)).toEqual({ ok: true, value: args });
    expect((add.validate(args) as { value: unknown }).value).toBe(args);
    expect(add.validate({ a: "2", b: 3 })).toEqual({ ok: false, issues: ['/a: Instance type "string" is invalid. Expected "number".'] });
    expect(add.validate({ a: 2 })).toEqual({ ok: false, issues: ['(root): Instance does not have required property "b".'] });
    expect(add.validate({ a: 2, b: 3, c: 4 })).toMatchObject({ ok: false, issues: [expect.stringMatching(/"c"/)] });
    const counted = compileSchema(FLAT[1] as JsonSchema, "tool count inputSchema");
    expect(counted.validate({ n: 2.5 })).toMatchObject({ ok: false, issues: [expect.stringMatching(/^\/n: .*integer/)] });
  });
});
