// Every tool definition is checked once, at startup: a schema typo or a schema that cannot be JSON names tool, path and fix.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DefinitionError } from "../../../../src/core/definition-error.ts";
import type { ToolDefinition } from "../../../../src/server/tools/tool.ts";
import { createServer } from "../../../../src/server/server.ts";
import { jsonSchemaProblems } from "../../../../src/server/schema/json-schema-check.ts";

const INFO = { name: "t", version: "1" };

function startup(tool: Partial<ToolDefinition> & Pick<ToolDefinition, "inputSchema">): unknown {
  try {
    createServer({ info: INFO, tools: [{ name: "add", handler: () => "ok", ...tool }] });
  } catch (error) {
    return error;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  expect(error).toBeInstanceOf(DefinitionError);
  return (error as DefinitionError).message;
}

describe("JSON Schema of a tool, checked at startup", () => {
  it("refuses a type name typo, naming the tool, the path and the type names", () => {
    const message = messageOf(startup({ inputSchema: { type: "object", properties: { n: { type: "integr" } } } as never }));
    expect(message).toBe(
      'tool add inputSchema: properties.n.type: "integr" is not a JSON Schema type (one of string, number, integer, boolean, object, array, null)',
    );
  });

  it("refuses required given as a string, with the list it should be", () => {
    const message = messageOf(startup({ inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: "n" } as never }));
    expect(message).toContain('tool add inputSchema: required: must be an array of property names, such as ["n"]; got "n"');
  });

  it("checks the output schema too, and nested items, combinators and definitions", () => {
    expect(
      messageOf(
        startup({
          inputSchema: { type: "object" },
          outputSchema: { type: "object", properties: { xs: { type: "array", items: { type: "flaot" } } } } as never,
        }),
      ),
    ).toContain("tool add outputSchema: properties.xs.items.type:");
    expect(jsonSchemaProblems({ anyOf: [{ type: "string" }, { type: "strin" }] })).toEqual([
      'anyOf.1.type: "strin" is not a JSON Schema type (one of string, number, integer, boolean, object, array, null)',
    ]);
    expect(jsonSchemaProblems({ $defs: { a: { required: [1] } } })[0]).toMatch(/^\$defs\.a\.required: must be an array of property names/);
    expect(jsonSchemaProblems({ type: ["string", "nul"] })[0]).toMatch(/^type: "nul" is not/);
    expect(jsonSchemaProblems({ type: [] })[0]).toMatch(/^type: must name at least one type/);
  });

  it("refuses malformed bounds, patterns and combinators", () => {
    expect(jsonSchemaProblems({ minLength: -1 })).toEqual(["minLength: must be a non-negative integer; got -1"]);
    expect(jsonSchemaProblems({ maximum: "10" })).toEqual(['maximum: must be a number; got "10"']);
    expect(jsonSchemaProblems({ multipleOf: 0 })).toEqual(["multipleOf: must be a number above 0; got 0"]);
    expect(jsonSchemaProblems({ pattern: "([a-z]" })[0]).toMatch(/^pattern: is not a valid regular expression/);
    expect(jsonSchemaProblems({ oneOf: [] })[0]).toMatch(/^oneOf: must be a non-empty array of schemas/);
    expect(jsonSchemaProblems({ properties: { a: "string" } })[0]).toBe('properties.a: must be a schema (an object or a boolean); got "string"');
    expect(jsonSchemaProblems({ enum: "a" })[0]).toBe('enum: must be an array of values; got "a"');
  });

  it("names a misspelt structural keyword that would silently drop a constraint", () => {
    expect(jsonSchemaProblems({ type: "object", propertes: { a: { type: "string" } } })).toEqual([
      "propertes: is not a JSON Schema keyword; did you mean properties?",
    ]);
    expect(jsonSchemaProblems({ type: "object", requried: ["a"] })).toEqual(["requried: is not a JSON Schema keyword; did you mean required?"]);
  });

  it("accepts 2020-12 and the draft-07 shapes clients send, and annotations it does not know", () => {
    const schemas = [
      { type: "object", properties: { a: { type: "string", format: "date-time", "x-mcp-header": "A" } }, required: ["a"], additionalProperties: false },
      { type: "array", items: [{ type: "string" }, { type: "number" }], additionalItems: false },
      { type: "array", prefixItems: [{ type: "string" }], items: false },
      { definitions: { p: { type: "object" } }, $ref: "#/definitions/p", $schema: "http://json-schema.org/draft-07/schema#" },
      { type: ["string", "null"], minLength: 0, maxLength: 10, pattern: "^[a-z]+$", examples: ["a"], example: "a", deprecated: true },
      { if: { type: "string" }, then: { minLength: 1 }, else: true, not: false, dependentRequired: { a: ["b"] } },
      true,
    ];
    for (const schema of schemas) expect(jsonSchemaProblems(schema)).toEqual([]);
  });

  it("stops at five problems", () => {
    const properties = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, { type: "x" }]));
    expect(jsonSchemaProblems({ type: "object", properties })).toHaveLength(5);
  });
});

describe("Standard Schema of a tool, converted at startup", () => {
  it("names the tool, the field, the library's reason and what to use instead (z.date())", () => {
    const message = messageOf(startup({ inputSchema: z.object({ title: z.string(), when: z.date() }) }));
    expect(message).toContain(
      "tool add inputSchema: field when: the zod schema cannot be converted to JSON Schema (Date cannot be represented in JSON Schema)",
    );
    expect(message).toContain("z.iso.datetime()");
    expect(message).toContain("or pass a JSON Schema");
    expect((startup({ inputSchema: z.object({ when: z.date() }) }) as Error).cause).toBeUndefined();
  });

  it("finds a field inside nested objects and arrays", () => {
    expect(messageOf(startup({ inputSchema: z.object({ events: z.array(z.object({ at: z.date() })) }) }))).toContain("field events[].at:");
    expect(messageOf(startup({ inputSchema: z.object({ a: z.object({ b: z.bigint() }) }) }))).toContain("field a.b:");
    expect(messageOf(startup({ inputSchema: z.object({}), outputSchema: z.object({ m: z.map(z.string(), z.string()) }) }))).toContain(
      "tool add outputSchema: field m:",
    );
  });
});

describe("the fields of a tool, checked at startup", () => {
  it("names a misspelt handler key and the key it means", () => {
    const make = () => createServer({ info: INFO, tools: [{ name: "t", inputSchema: { type: "object" }, handle: () => "x" } as unknown as ToolDefinition] });
    expect(make).toThrow(DefinitionError);
    expect(make).toThrow("tool t: handler must be a function; handle is not a tool field: did you mean handler?");
  });

  it("says only what is wrong when no key is close to handler", () => {
    const make = () => createServer({ info: INFO, tools: [{ name: "t", inputSchema: { type: "object" } } as unknown as ToolDefinition] });
    expect(make).toThrow(/^tool t: handler must be a function$/);
  });
});
