// The core JSON Schema validator keyword by keyword (with its messages), its bounds on hostile
// values, and the fail-closed refusal of schemas outside it, at startup and at run time.
import { afterEach, describe, expect, it, vi } from "vitest";
import { DefinitionError } from "../../../../src/core/definition-error.ts";
import { fullJsonSchema } from "../../../../src/json-schema.ts";
import { collectServiceModule } from "../../../../src/modules/service-parts.ts";
import type { ToolService } from "../../../../src/modules/service-contract.ts";
import { createServer } from "../../../../src/server/server.ts";
import { compileCoreSchema } from "../../../../src/server/schema/core-schema.ts";
import { compileSchema } from "../../../../src/server/tools/schema-validator.ts";
import { defineTool } from "../../../../src/server/tools/tool.ts";
import { parseTenantConfig, parseTenantsDocument } from "../../../../src/tenancy/tenant-config.ts";
import { TenantDirectory } from "../../../../src/tenancy/tenant-directory.ts";
import { checkOptions } from "../../../../src/core/option-checks.ts";
import { MULTI_TENANT_OPTION_RULES } from "../../../../src/workers/multi-tenant-option-rules.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

const issues = (schema: unknown, value: unknown): string[] => compileCoreSchema(schema)(value);

describe("the core validator, keyword by keyword", () => {
  it.each<[string, unknown, unknown, unknown, string]>([
    ["type", { type: "number" }, 1, "1", '(root): Instance type "string" is invalid. Expected "number".'],
    ["type list", { type: ["string", "null"] }, null, 1, '(root): Instance type "number" is invalid. Expected "string", "null".'],
    ["integer", { type: "integer" }, 2.0, 2.5, '(root): Instance type "number" is invalid. Expected "integer".'],
    ["enum", { enum: ["a", [1]] }, [1], "b", '(root): Instance does not match any of ["a",[1]].'],
    ["const", { const: { a: 1 } }, { a: 1 }, { a: 2 }, '(root): Instance does not match {"a":1}.'],
    ["required", { required: ["a"] }, { a: 0 }, {}, '(root): Instance does not have required property "a".'],
    ["properties", { properties: { a: { type: "string" } } }, { a: "x" }, { a: 1 }, '/a: Instance type "number" is invalid. Expected "string".'],
    [
      "additionalProperties false",
      { properties: { a: {} }, additionalProperties: false },
      { a: 1 },
      { a: 1, b: 2 },
      '(root): Property "b" does not match additional properties schema.',
    ],
    [
      "patternProperties",
      { patternProperties: { "^n": { type: "number" } } },
      { n1: 1 },
      { n1: "1" },
      '/n1: Instance type "string" is invalid. Expected "number".',
    ],
    ["propertyNames", { propertyNames: { maxLength: 2 } }, { ab: 1 }, { abc: 1 }, '(root): Property name "abc" does not match schema.'],
    ["minProperties", { minProperties: 1 }, { a: 1 }, {}, "(root): Instance does not have at least 1 properties."],
    ["maxProperties", { maxProperties: 1 }, { a: 1 }, { a: 1, b: 2 }, "(root): Instance has more than 1 properties."],
    ["items", { items: { type: "string" } }, ["a"], ["a", 1], '/1: Instance type "number" is invalid. Expected "string".'],
    ["prefixItems", { prefixItems: [{ type: "string" }], items: false }, ["a"], ["a", 1], "/1: False boolean schema."],
    ["minItems", { minItems: 2 }, [1, 2], [1], "(root): Array has too few items (1 < 2)."],
    ["maxItems", { maxItems: 1 }, [1], [1, 2], "(root): Array has too many items (2 > 1)."],
    [
      "uniqueItems",
      { uniqueItems: true },
      [{ a: 1 }, { a: 2 }],
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      "(root): Duplicate items at indexes 0 and 1.",
    ],
    ["minLength (code points)", { minLength: 2 }, "😀😀", "😀", "(root): String is too short (1 < 2)."],
    ["maxLength (code points)", { maxLength: 2 }, "😀😀", "😀😀😀", "(root): String is too long (3 > 2)."],
    ["pattern (unicode)", { pattern: "^\\p{L}+$" }, "Émile", "Émile1", "(root): String does not match pattern."],
    ["minimum", { minimum: 1 }, 1, 0, "(root): 0 is less than 1."],
    ["maximum", { maximum: 1 }, 1, 2, "(root): 2 is greater than 1."],
    ["exclusiveMinimum", { exclusiveMinimum: 1 }, 1.5, 1, "(root): 1 is less than 1."],
    ["exclusiveMaximum", { exclusiveMaximum: 1 }, 0.5, 1, "(root): 1 is greater than or equal to 1."],
    ["multipleOf (decimal)", { multipleOf: 0.01 }, 19.99, 0.075, "(root): 0.075 is not a multiple of 0.01."],
    ["anyOf", { anyOf: [{ type: "string" }, { type: "number" }] }, 1, null, "(root): Instance does not match any subschemas."],
    ["oneOf", { oneOf: [{ type: "integer" }, { minimum: 0 }] }, -1, 1, "(root): Instance does not match exactly one subschema (2 matches)."],
    ["allOf", { allOf: [{ required: ["a"] }, { required: ["b"] }] }, { a: 1, b: 1 }, { a: 1 }, '(root): Instance does not have required property "b".'],
    ["not", { not: { type: "string" } }, 1, "s", '(root): Instance matched "not" schema.'],
    ["false", false, undefined, 1, "(root): False boolean schema."],
    ["$ref", { $ref: "#/$defs/a~1b", $defs: { "a/b": { type: "string" } } }, "x", 1, '(root): Instance type "number" is invalid. Expected "string".'],
    ["format", { format: "email" }, "a@b.co", "nope", '(root): String does not match format "email".'],
  ])("%s", (_name, schema, good, bad, message) => {
    if (good !== undefined) expect(issues(schema, good)).toEqual([]);
    expect(issues(schema, bad)).toContain(message);
  });

  it("ignores annotations and formats it does not know", () => {
    const schema = { title: "t", description: "d", default: 1, examples: [1], deprecated: true, readOnly: true, "x-any": { type: "string" }, format: "int32" };
    expect(issues(schema, 5)).toEqual([]);
  });

  it("follows recursive references (zod's output for a tree)", () => {
    const tree = { $ref: "#/$defs/node", $defs: { node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } } } } };
    expect(issues(tree, { children: [{ children: [] }] })).toEqual([]);
    expect(issues(tree, { children: [{ children: [5] }] })).toEqual(['/children/0/children/0: Instance type "number" is invalid. Expected "object".']);
  });

  it("writes paths as JSON pointers and prototype names as ordinary keys", () => {
    const schema = JSON.parse(
      '{ "type": "object", "properties": { "a/b": { "type": "string" }, "__proto__": { "type": "string" } }, "required": ["constructor"] }',
    ) as unknown;
    expect(issues(schema, JSON.parse('{"a/b":1,"__proto__":2}'))).toEqual([
      '(root): Instance does not have required property "constructor".',
      '/a~1b: Instance type "number" is invalid. Expected "string".',
      '/__proto__: Instance type "number" is invalid. Expected "string".',
    ]);
  });
});

describe("compileSchema on flat object schemas (most tools' arguments)", () => {
  it("answers with the value itself when valid, and with the issues when not", () => {
    const add = compileSchema(
      { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"], additionalProperties: false },
      "tool add inputSchema",
    );
    const args = { a: 2, b: 3 };
    expect(add.validate(args)).toEqual({ ok: true, value: args });
    expect((add.validate(args) as { value: unknown }).value).toBe(args);
    expect(add.validate({ a: "2", b: 3 })).toEqual({ ok: false, issues: ['/a: Instance type "string" is invalid. Expected "number".'] });
    expect(add.validate({ a: 2 })).toEqual({ ok: false, issues: ['(root): Instance does not have required property "b".'] });
    expect(add.validate({ a: 2, b: 3, c: 4 })).toMatchObject({ ok: false, issues: [expect.stringMatching(/"c"/)] });
    const counted = compileSchema({ type: "object", properties: { n: { type: "integer" } }, required: ["n"] }, "tool count inputSchema");
    expect(counted.validate({ n: 2.5 })).toMatchObject({ ok: false, issues: [expect.stringMatching(/^\/n: .*integer/)] });
  });
});

describe("bounded work on hostile values", () => {
  it("names at most 8 issues of a huge invalid array, quickly", () => {
    const started = performance.now();
    const found = issues(
      { type: "object", properties: { lines: { type: "array", items: { type: "number" } } } },
      { lines: Array.from({ length: 70_000 }, () => "oops") },
    );
    expect(found).toHaveLength(8);
    expect(found[0]).toBe('/lines/0: Instance type "string" is invalid. Expected "number".');
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("answers a value nested past the stack with one issue, never a RangeError", () => {
    let deep: unknown = {};
    for (let i = 0; i < 200_000; i++) deep = { next: deep };
    expect(issues({ $defs: { n: { type: "object", properties: { next: { $ref: "#/$defs/n" } } } }, $ref: "#/$defs/n" }, deep)).toEqual([
      "(root): the value is nested too deeply to check",
    ]);
  });

  it("finds duplicates in a long array in one pass (pairwise comparison would take minutes)", () => {
    const started = performance.now();
    const list = Array.from({ length: 30_000 }, (_, i) => ({ i }));
    expect(issues({ uniqueItems: true }, list)).toEqual([]);
    expect(issues({ uniqueItems: true }, [...list, { i: 7 }])).toEqual(["(root): Duplicate items at indexes 7 and 30000."]);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

const conditional = {
  type: "object",
  properties: { kind: { enum: ["a", "b"] }, a: { type: "string" } },
  if: { properties: { kind: { const: "a" } } },
  then: { required: ["a"] },
};
const tool = (inputSchema: Record<string, unknown>) => defineTool({ name: "pick", inputSchema, handler: () => "ok" });

describe("fail closed: a schema outside the core validator", () => {
  it("is refused at startup, naming the tool, the keyword's path and the opt-in", () => {
    expect(() => createServer({ info: { name: "s", version: "1" }, tools: [tool(conditional)] })).toThrow(DefinitionError);
    expect(() => createServer({ info: { name: "s", version: "1" }, tools: [tool(conditional)] })).toThrow(
      "tool pick inputSchema: (root): if, then are outside the core JSON Schema validator; add fullJsonSchema() from edge-mcp/json-schema to the features (see docs/json-schema.md)",
    );
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["dependentRequired", { type: "object", properties: { a: { dependentRequired: { x: ["y"] } } } }, "properties.a: dependentRequired is outside"],
    ["unevaluatedProperties", { type: "object", unevaluatedProperties: false }, "(root): unevaluatedProperties is outside"],
    ["contains", { type: "object", properties: { l: { contains: { const: 1 } } } }, "properties.l: contains is outside"],
    ["$anchor", { type: "object", properties: { a: { $ref: "#/$defs/a" } }, $defs: { a: { $anchor: "x" } } }, "$defs.a: $anchor is outside"],
    ["$dynamicRef", { type: "object", properties: { a: { $dynamicRef: "#x" } } }, "properties.a: $dynamicRef is outside"],
    ["a nested $id", { type: "object", properties: { a: { $id: "https://x.dev/a" } } }, "properties.a.$id: $id below the root is outside"],
    ["a remote $ref", { type: "object", properties: { a: { $ref: "https://x.dev/s.json" } } }, 'properties.a.$ref: a $ref to "https://x.dev/s.json"'],
    ["an anchor $ref", { type: "object", properties: { a: { $ref: "#x" } } }, 'properties.a.$ref: a $ref to "#x"'],
    ["format uri-reference", { type: "object", properties: { a: { format: "uri-reference" } } }, 'properties.a.format: format "uri-reference" is outside'],
    ["format duration", { type: "object", properties: { a: { format: "duration" } } }, 'properties.a.format: format "duration" is outside'],
  ])("%s", (_name, schema, message) => {
    expect(() => compileSchema(schema, "tool pick inputSchema")).toThrow(`tool pick inputSchema: ${message}`);
  });

  it("refuses a local $ref that points at nothing at startup, where the full validator failed every call", () => {
    expect(() => compileSchema({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } }, "tool pick inputSchema")).toThrow(
      'tool pick inputSchema: properties.a.$ref: "#/$defs/missing" points at no schema in this document',
    );
  });

  it("is checked with the full validator when the server opts in", async () => {
    const server = createServer({ info: { name: "s", version: "1" }, tools: [tool(conditional)], features: [fullJsonSchema()] });
    const pick = server.tools.get("pick");
    expect(await pick?.input.validate({ kind: "a", a: "x" })).toMatchObject({ ok: true });
    expect(await pick?.input.validate({ kind: "a" })).toEqual({
      ok: false,
      issues: ['(root): Instance does not match "then" schema.', '(root): Instance does not have required property "a".'],
    });
    expect(await pick?.input.validate({ kind: "b" })).toMatchObject({ ok: true });
  });
});

function service(inputSchema: Record<string, unknown>): ToolService {
  return {
    describe: async () => ({
      tools: [
        { name: "pick", inputSchema },
        { name: "plain", inputSchema: { type: "object" } },
      ],
    }),
    callTool: async () => ({ content: [{ type: "text", text: "ok" }] }),
    readSkillFile: async () => "",
  };
}

describe("fail closed at run time: a tool service's schema outside the core validator", () => {
  const module = { name: "svc", prefix: "svc", timeoutMs: 1000, binding: "SVC" };

  it("leaves the tool out with a log line naming it, the path and the opt-in; its module's other tools stay", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const parts = await collectServiceModule(service(conditional), module, { tools: new Set(), skills: new Set() }, "tenant acme: ");
    expect(parts.tools.map((t) => t.name)).toEqual(["svc_plain"]);
    expect(log).toHaveBeenCalledWith(
      "edge-mcp: tenant acme: module svc: tool svc_pick is left out: tool svc_pick inputSchema: (root): if, then are outside the core JSON Schema validator; add fullJsonSchema() from edge-mcp/json-schema to the features (see docs/json-schema.md)",
    );
  });

  it("keeps it with the full validator", async () => {
    const parts = await collectServiceModule(service(conditional), module, { tools: new Set(), skills: new Set() }, "", undefined, fullJsonSchema().jsonSchema);
    expect(parts.tools.map((t) => t.name)).toEqual(["svc_pick", "svc_plain"]);
  });

  it("reaches a multi-tenant Worker's tenants through its jsonSchema option", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const config = { id: "acme", hosts: ["acme.example.com"], modules: [{ name: "svc", service: "SVC" }] };
    const directory = (jsonSchema?: ReturnType<typeof fullJsonSchema>) =>
      new TenantDirectory(parseTenantsDocument({ tenants: [config] }), {
        modules: {},
        service: () => service(conditional),
        info: { name: "t", version: "1" },
        ...(jsonSchema ? { jsonSchema } : {}),
      });
    const names = async (dir: TenantDirectory) =>
      [...(await dir.server(parseTenantConfig(config))).tools.page(undefined, "modern").matchAll(/"name":"(svc_\w+)"/g)].map((m) => m[1]);
    expect(await names(directory())).toEqual(["svc_plain"]);
    expect(await names(directory(fullJsonSchema()))).toEqual(["svc_pick", "svc_plain"]);
  });

  it("takes createMultiTenantWorker's jsonSchema option from fullJsonSchema() only", () => {
    expect(() => checkOptions({ modules: {}, jsonSchema: fullJsonSchema() }, MULTI_TENANT_OPTION_RULES, "createMultiTenantWorker")).not.toThrow();
    expect(() => checkOptions({ modules: {}, jsonSchema: true }, MULTI_TENANT_OPTION_RULES, "createMultiTenantWorker")).toThrow(
      /jsonSchema must be fullJsonSchema\(\) from edge-mcp\/json-schema/,
    );
  });
});
