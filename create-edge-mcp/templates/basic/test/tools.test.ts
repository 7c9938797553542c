// The Worker inside workerd: its tools are listed and called as an MCP client would.
import { describe, expect, it } from "vitest";
import { mcp } from "./mcp";

describe("the MCP server", () => {
  it("lists its tools with their input schemas", async () => {
    const { result } = await mcp("tools/list");
    const tools = result?.["tools"] as { name: string; inputSchema: { type: string } }[];
    expect(tools.map((tool) => tool.name)).toEqual(["greet", "convert_temperature", "note"]);
    expect(tools.every((tool) => tool.inputSchema.type === "object")).toBe(true);
  });

  it("greets by name", async () => {
    const { result } = await mcp("tools/call", { name: "greet", arguments: { name: "Ada" } });
    expect(result).toMatchObject({ content: [{ type: "text", text: "Hello, Ada!" }] });
  });

  it("converts a temperature and returns structured content", async () => {
    const { result } = await mcp("tools/call", { name: "convert_temperature", arguments: { value: 100, from: "celsius" } });
    expect(result).toMatchObject({ structuredContent: { value: 212, unit: "fahrenheit" } });
  });

  it("saves a note in its KV namespace and reads it back", async () => {
    const missing = await mcp("tools/call", { name: "note", arguments: { name: "shopping" } });
    expect(missing.result).toMatchObject({ content: [{ type: "text", text: "There is no note named shopping." }] });
    await mcp("tools/call", { name: "note", arguments: { name: "shopping", text: "bread, milk" } });
    const { result } = await mcp("tools/call", { name: "note", arguments: { name: "shopping" } });
    expect(result).toMatchObject({ content: [{ type: "text", text: "bread, milk" }] });
  });

  it("answers arguments that break the schema with an isError result, not a call", async () => {
    const { result } = await mcp("tools/call", { name: "convert_temperature", arguments: { value: "hot", from: "kelvin" } });
    expect(result).toMatchObject({ isError: true });
  });
});
