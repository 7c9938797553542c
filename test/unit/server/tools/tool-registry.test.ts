import { describe, expect, it } from "vitest";
import { DefinitionError } from "../../../../src/core/definition-error.ts";
import { ErrorCode, ProtocolError } from "../../../../src/core/errors.ts";
import { ToolRegistry } from "../../../../src/server/tools/tool-registry.ts";
import { defineTool, type ToolDefinition } from "../../../../src/server/tools/tool.ts";

function tool(name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return defineTool({ name, description: name, inputSchema: { type: "object" }, handler: () => name, ...extra });
}

const OPTIONS = { pageSize: 2, modernTail: ',"resultType":"complete"', scope: "test" };

describe("ToolRegistry", () => {
  it("pages tools in declaration order with opaque cursors", () => {
    const registry = new ToolRegistry([tool("a"), tool("b"), tool("c")], OPTIONS);
    const first = JSON.parse(registry.page(undefined, "legacy")) as { tools: { name: string }[]; nextCursor: string };
    expect(first.tools.map((t) => t.name)).toEqual(["a", "b"]);
    expect(typeof first.nextCursor).toBe("string");
    const second = JSON.parse(registry.page(first.nextCursor, "modern")) as Record<string, unknown>;
    expect(second).toEqual({ tools: [{ name: "c", description: "c", inputSchema: { type: "object" } }], resultType: "complete" });
  });

  it("refuses a cursor it did not mint, or one minted by another registry, with -32602", () => {
    const registry = new ToolRegistry([tool("a"), tool("b"), tool("c")], OPTIONS);
    const other = new ToolRegistry([tool("a"), tool("b"), tool("c")], { ...OPTIONS, scope: "other" });
    const foreign = (JSON.parse(other.page(undefined, "legacy")) as { nextCursor: string }).nextCursor;
    for (const cursor of ["bogus", "", 3, foreign]) {
      expect(() => registry.page(cursor, "legacy")).toThrow(ProtocolError);
      try {
        registry.page(cursor, "legacy");
      } catch (error) {
        expect((error as ProtocolError).code).toBe(ErrorCode.InvalidParams);
      }
    }
  });

  it.each(["", "has space", "x".repeat(129), "slash/name"])("refuses the tool name %j", (name) => {
    expect(() => new ToolRegistry([tool(name)], OPTIONS)).toThrow(DefinitionError);
  });

  it("refuses duplicate names and input schemas whose root is not an object", () => {
    expect(() => new ToolRegistry([tool("a"), tool("a")], OPTIONS)).toThrow(/twice/);
    expect(() => new ToolRegistry([tool("a", { inputSchema: { type: "string" } })], OPTIONS)).toThrow(/type "object"/);
  });

  it("refuses x-mcp-header on a property that is not a primitive, or a name used twice", () => {
    const onObject = { type: "object", properties: { p: { type: "object", "x-mcp-header": "P" } } } as const;
    expect(() => new ToolRegistry([tool("a", { inputSchema: onObject })], OPTIONS)).toThrow(/x-mcp-header/);
    const twice = { type: "object", properties: { p: { type: "string", "x-mcp-header": "P" }, q: { type: "string", "x-mcp-header": "p" } } } as const;
    expect(() => new ToolRegistry([tool("a", { inputSchema: twice })], OPTIONS)).toThrow(/twice/);
    const bad = { type: "object", properties: { p: { type: "string", "x-mcp-header": "a b" } } } as const;
    expect(() => new ToolRegistry([tool("a", { inputSchema: bad })], OPTIONS)).toThrow(/token/);
  });
});
