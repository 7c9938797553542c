// An unknown tool name in tools/call: the error suggests the closest tool the caller may see, and only such a tool.
import { describe, expect, it } from "vitest";
import { createMcpApp } from "../../../../src/http/mcp-app.ts";
import type { Feature } from "../../../../src/server/feature.ts";
import { createServer } from "../../../../src/server/server.ts";
import { resolveTool } from "../../../../src/server/tools/call-tool.ts";
import { defineTool } from "../../../../src/server/tools/tool.ts";
import { legacy, modern } from "../../app-client.ts";

const tools = [
  defineTool({ name: "get_weather", inputSchema: { type: "object" }, handler: () => "sunny" }),
  defineTool({ name: "get_forecast", inputSchema: { type: "object" }, handler: () => "rain" }),
  defineTool({ name: "admin_reset", inputSchema: { type: "object" }, handler: () => "reset" }),
];
const info = { name: "t", version: "1" };

/** A feature that hides admin_reset from every view, as apps hide an app-only tool. */
const hiding: Feature = {
  name: "hiding",
  install: () => ({ toolFilter: () => ({ key: "no-admin", allows: (name: string) => name !== "admin_reset" }) }),
};

describe("resolveTool's suggestion", () => {
  const registry = createServer({ info, tools }).tools;

  it("suggests the closest visible tool of a near miss", () => {
    expect(() => resolveTool(registry, { name: "get_wether" }, () => true)).toThrow("Unknown tool: get_wether; did you mean get_weather?");
    expect(() => resolveTool(registry, { name: "GET_FORECAST" }, () => true)).toThrow("Unknown tool: GET_FORECAST; did you mean get_forecast?");
  });

  it("suggests nothing for a name close to no tool", () => {
    expect(() => resolveTool(registry, { name: "translate" }, () => true)).toThrow(/^Unknown tool: translate$/);
  });

  it("never suggests a tool the caller may not see", () => {
    expect(() => resolveTool(registry, { name: "admin_rest" }, (name) => name !== "admin_reset")).toThrow(/^Unknown tool: admin_rest$/);
  });

  it("suggests nothing when it is not told what the caller sees", () => {
    expect(() => resolveTool(registry, { name: "get_wether" })).toThrow(/^Unknown tool: get_wether$/);
  });
});

describe("tools/call of an unknown tool over HTTP", () => {
  it("answers -32602 with the closest tool, in both eras", async () => {
    const app = createMcpApp({ server: createServer({ info, tools }) });
    for (const reply of [
      await modern(app, "tools/call", { name: "get_wether", arguments: {} }),
      await legacy(app, "tools/call", { name: "get_wether", arguments: {} }),
    ]) {
      expect(reply.body["error"]).toMatchObject({ code: -32602, message: "Unknown tool: get_wether; did you mean get_weather?" });
    }
  });

  it("where a feature hides tools, suggests only among those its model view shows", async () => {
    const app = createMcpApp({ server: createServer({ info, tools, features: [hiding] }) });
    const hidden = await modern(app, "tools/call", { name: "admin_rest", arguments: {} });
    expect(hidden.body["error"]).toMatchObject({ code: -32602, message: "Unknown tool: admin_rest" });
    const shown = await modern(app, "tools/call", { name: "get_wether", arguments: {} });
    expect(shown.body["error"]).toMatchObject({ code: -32602, message: "Unknown tool: get_wether; did you mean get_weather?" });
  });
});
