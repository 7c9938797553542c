// Handler argument types (checked by `npm run typecheck`, which includes this file): JSON Schema literals and Standard Schemas.
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { defineTool, type FromJsonSchema, type ToolArgs, type ToolDefinition } from "../../../../src/index.ts";

describe("handler argument types", () => {
  it("types the arguments of an inline JSON Schema: required, optional, closed objects", () => {
    defineTool({
      name: "t",
      inputSchema: { type: "object", properties: { text: { type: "string" }, count: { type: "integer" } }, required: ["text"], additionalProperties: false },
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ text: string; count?: number }>();
        // @ts-expect-error a closed object has no other properties
        void args.other;
        return args.text;
      },
    });
  });

  it("types the arguments of a schema declared elsewhere `as const`", () => {
    const schema = { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } as const;
    defineTool({
      name: "t",
      inputSchema: schema,
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ a: number; b: number; [name: string]: unknown }>();
        return String(args.a + args.b);
      },
    });
  });

  it("keeps a plain object for a schema whose literal types were widened", () => {
    const schema: Record<string, unknown> = { type: "object", properties: { a: { type: "number" } } };
    defineTool({
      name: "t",
      inputSchema: schema,
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
        return "ok";
      },
    });
  });

  it("reads enum, const, type lists, items, nested objects, anyOf and oneOf", () => {
    const schema = {
      type: "object",
      properties: {
        unit: { enum: ["c", "f"] },
        kind: { const: "reading" },
        note: { type: ["string", "null"] },
        tags: { type: "array", items: { type: "string" } },
        any: { type: "array" },
        place: { type: "object", properties: { lat: { type: "number" } }, required: ["lat"], additionalProperties: false },
        id: { anyOf: [{ type: "string" }, { type: "integer" }] },
        flag: { oneOf: [{ type: "boolean" }, { type: "null" }] },
        free: {},
      },
      required: ["unit", "kind", "note", "tags", "any", "place", "id", "flag", "free"],
      additionalProperties: false,
    } as const;
    type Reading = {
      unit: "c" | "f";
      kind: "reading";
      note: string | null;
      tags: string[];
      any: unknown[];
      place: { lat: number };
      id: string | number;
      flag: boolean | null;
      free: unknown;
    };
    expectTypeOf<FromJsonSchema<typeof schema>>().toEqualTypeOf<Reading>();
    defineTool({
      name: "t",
      inputSchema: schema,
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<Reading>();
        return args.unit;
      },
    });
  });

  it("gives an object with any properties for `type: object` alone", () => {
    expectTypeOf<ToolArgs<{ readonly type: "object" }>>().toEqualTypeOf<{ [name: string]: unknown }>();
  });

  it("infers the output of a Standard Schema (zod)", () => {
    defineTool({
      name: "t",
      inputSchema: z.object({ city: z.string(), days: z.number().optional() }),
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number | undefined }>();
        return args.city;
      },
    });
  });

  it("lets tools with different arguments share one ToolDefinition[] list", () => {
    const echo = defineTool({
      name: "echo",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      handler: (args) => args.text,
    });
    const weather = defineTool({ name: "weather", inputSchema: z.object({ city: z.string() }), handler: ({ city }) => city });
    const tools: ToolDefinition[] = [echo, weather];
    expectTypeOf(tools).toEqualTypeOf<ToolDefinition[]>();
  });

  it("refuses, at compile time, a JSON Schema type that is not a type name and a required that is not a list", () => {
    defineTool({
      name: "t",
      inputSchema: {
        type: "object",
        // @ts-expect-error "integr" is not a JSON Schema type name
        properties: { n: { type: "integr" } },
        // @ts-expect-error required lists property names
        required: "n",
      },
      handler: () => "ok",
    });
    defineTool({
      name: "t",
      // @ts-expect-error the root type too
      inputSchema: { type: "obj" },
      handler: () => "ok",
    });
    defineTool({
      name: "t",
      inputSchema: { type: "object", properties: { n: { type: "integer" } } },
      // @ts-expect-error the output schema too
      outputSchema: { type: "object", properties: { sum: { type: ["number", "nul"] } } },
      handler: () => "ok",
    });
  });
});
