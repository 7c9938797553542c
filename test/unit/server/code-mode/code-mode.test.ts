// Code mode's platform-free parts: the tenant field, declarations from JSON Schema, the program wrapper and its line numbers.
import { describe, expect, it } from "vitest";
import { DefinitionError } from "../../../../src/core/definition-error.ts";
import { toolDeclaration, typeOf } from "../../../../src/server/code-mode/declarations.ts";
import { guardProgram } from "../../../../src/server/code-mode/loop-guard.ts";
import { cutText, programLine } from "../../../../src/server/code-mode/program.ts";
import { defineTool } from "../../../../src/server/tools/tool.ts";
import { parseTenantConfig, parseTenantsDocument } from "../../../../src/tenancy/tenant-config.ts";
import { TenantDirectory } from "../../../../src/tenancy/tenant-directory.ts";

const base = { id: "acme", hosts: ["acme.example.com"], modules: [{ name: "greetings" }] };

describe("the codeMode field of a tenant config", () => {
  it("accepts true, false and limits", () => {
    expect(parseTenantConfig({ ...base, codeMode: true }).codeMode).toEqual({});
    expect(parseTenantConfig({ ...base, codeMode: false }).codeMode).toBeUndefined();
    expect(parseTenantConfig({ ...base, codeMode: { limits: { wallTimeMs: 5000, maxToolCalls: 3 } } }).codeMode).toEqual({ wallTimeMs: 5000, maxToolCalls: 3 });
    expect(parseTenantConfig({ ...base, codeMode: { limits: { maxAllocationBytes: 8_388_608 } } }).codeMode).toEqual({ maxAllocationBytes: 8_388_608 });
  });

  it.each([
    [{ codeMode: "yes" }, /tenant acme: codeMode must be true or an object/],
    [{ codeMode: { limit: {} } }, /tenant acme: codeMode.limit is not a known field \(limits\)/],
    [{ codeMode: { limits: [] } }, /tenant acme: codeMode.limits must be an object/],
    [{ codeMode: { limits: { wallTime: 1 } } }, /tenant acme: codeMode.limits.wallTime is not a known field \(wallTimeMs, cpuMs/],
    [{ codeMode: { limits: { cpuMs: 0 } } }, /tenant acme: codeMode.limits.cpuMs must be a positive integer/],
    [{ codeMode: { limits: { maxOutputBytes: "64k" } } }, /tenant acme: codeMode.limits.maxOutputBytes must be a positive integer/],
    [{ codeMode: { limits: { maxAllocationBytes: 1.5 } } }, /tenant acme: codeMode.limits.maxAllocationBytes must be a positive integer/],
    [{ codeMode: { limits: { maxAllocation: 1 } } }, /tenant acme: codeMode.limits.maxAllocation is not a known field \(.*maxAllocationBytes\)/],
  ])("refuses %j, naming the field", (extra, message) => {
    expect(() => parseTenantConfig({ ...base, ...extra })).toThrow(DefinitionError);
    expect(() => parseTenantConfig({ ...base, ...extra })).toThrow(message);
  });

  it.each([
    ["has no sandbox", {}, /tenant acme: codeMode needs a Worker Loader binding named MCP_LOADER/],
    ["did not opt in to code mode", { codeModeOptedIn: false }, /tenant acme: codeMode needs the Worker to opt in: .*tenantCodeMode\(\)/],
  ])("fails the tenant's server, saying what to do, when the Worker %s", async (_why, options, message) => {
    const hello = defineTool({ name: "hello", description: "Says hello.", inputSchema: { type: "object" }, handler: () => "hi" });
    const [tenant] = parseTenantsDocument({ tenants: [{ ...base, codeMode: true }] });
    const only = tenant as NonNullable<typeof tenant>;
    const directory = new TenantDirectory([only], {
      modules: { greetings: { tools: [hello] } },
      service: () => undefined,
      info: { name: "t", version: "1" },
      ...options,
    });
    await expect(directory.server(only)).rejects.toThrow(message);
  });
});

describe("declarations from JSON Schema", () => {
  it("maps types, enums, consts, unions, arrays and records", () => {
    expect(typeOf({ type: "integer" })).toBe("number");
    expect(typeOf({ type: ["string", "null"] })).toBe("string | null");
    expect(typeOf({ enum: ["a", 1, null] })).toBe('"a" | 1 | null');
    expect(typeOf({ const: "x" })).toBe('"x"');
    expect(typeOf({ anyOf: [{ type: "string" }, { type: "number" }] })).toBe("string | number");
    expect(typeOf({ type: "array", items: { type: "string" } })).toBe("string[]");
    expect(typeOf({ type: "array", items: { enum: ["a", "b"] } })).toBe('Array<"a" | "b">');
    expect(typeOf({ type: "object" })).toBe("Record<string, unknown>");
    expect(typeOf({ type: "object", additionalProperties: { type: "number" } })).toBe("{\n  [key: string]: number;\n}");
    expect(typeOf({ $ref: "#/definitions/x" })).toBe("unknown");
    expect(typeOf(true)).toBe("unknown");
  });

  it("stops at a depth, so a deep or recursive schema stays short", () => {
    let schema: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 20; i++) schema = { type: "object", properties: { next: schema }, required: ["next"] };
    expect(typeOf(schema).split("\n").length).toBeLessThan(20);
    expect(typeOf(schema)).toContain("next: unknown;");
  });

  it("declares a tool with its description, property docs, required and optional arguments, and its output", () => {
    const text = toolDeclaration({
      name: "crm.contact-get",
      description: "Gets a contact.\nBy id. Never writes */ anything.",
      inputSchema: {
        type: "object",
        properties: { id: { type: "string", description: "The contact's id." }, fields: { type: "array", items: { type: "string" } } },
        required: ["id"],
      },
      outputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
    expect(text).toBe(
      [
        "  /**",
        "   * Gets a contact.",
        "   * By id. Never writes *\\/ anything.",
        "   */",
        '  "crm.contact-get"(args: {',
        "    /** The contact's id. */",
        "    id: string;",
        "    fields?: string[];",
        "  }): Promise<{",
        "    name: string;",
        "  }>;",
      ].join("\n"),
    );
    expect(toolDeclaration({ name: "ping", inputSchema: { type: "object" } })).toBe("  ping(args?: Record<string, unknown>): Promise<string>;");
  });
});

describe("the program", () => {
  it("wraps a function body, and leaves a module with a default export as it is", () => {
    const budget = { maxIterations: 10, wallTimeMs: 10 };
    const body = guardProgram("return 1;", budget);
    expect(body).toMatchObject({ ok: true, lineOffset: 1 });
    expect(body.ok && body.source).toMatch(/; export default async function \(tools\) \{__edgeMcpGuard\(\);\nreturn 1;\n\}\n$/);
    const module = "const x = 1;\nexport default async (tools) => x;";
    const asModule = guardProgram(module, budget);
    expect(asModule).toMatchObject({ ok: true, lineOffset: 0 });
    expect(asModule.ok && asModule.source).toMatch(/; const x = 1;\nexport default async \(tools\) => \(__edgeMcpGuard\(\), x\);$/);
  });

  it("finds the program's line in a stack, or says nothing", () => {
    expect(programLine("Error: boom\n    at Module.default (program.js:4:9)\n    at Harness.run (harness.js:30:5)", 1)).toBe(3);
    expect(programLine("Error: boom\n    at Harness.run (harness.js:30:5)", 1)).toBeUndefined();
    expect(programLine("at program.js:1:1", 1)).toBeUndefined();
    // A frame in the wrapper's line (the loop guard's) is passed over for the program's own.
    expect(programLine("RangeError: too deep\n    at guard (program.js:1:300)\n    at deeper (program.js:2:21)", 1)).toBe(1);
  });

  it("cuts text on a character boundary", () => {
    expect(cutText("abc", 10)).toEqual({ text: "abc", cut: false, bytes: 3 });
    expect(cutText("ééé", 5)).toEqual({ text: "éé", cut: true, bytes: 6 });
    expect(cutText("a€b", 3)).toEqual({ text: "a", cut: true, bytes: 5 });
  });
});
