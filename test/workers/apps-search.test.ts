// Tool search with MCP Apps inside workerd: an app-only tool is never offered to a model (search_tools,
// describe_tools) nor run through call_tool, for every client; the client's tools/list is unchanged.
import { describe, expect, it } from "vitest";
import { apps, createServer, defineApp, defineTool, toolSearch } from "../../src/index.ts";
import { createMcpApp } from "../../src/http/mcp-app.ts";
import { legacy, modern, type Reply } from "../unit/app-client.ts";

const TALLY = "ui://tally/app.html";
const UI_CLIENT = {
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } },
};

const tally = defineApp({
  uri: TALLY,
  name: "tally",
  html: "<!doctype html><p>tally</p>",
  tools: [defineTool({ name: "show_tally", description: "Shows a tally counter.", inputSchema: { type: "object" }, handler: () => "Tally is at 0." })],
  appTools: [defineTool({ name: "tally_bump", description: "Bumps the tally counter.", inputSchema: { type: "object" }, handler: () => "bumped" })],
});
const other = defineTool({ name: "tally_report", description: "Reports every tally counter.", inputSchema: { type: "object" }, handler: () => "report" });
const app = createMcpApp({
  server: createServer({ info: { name: "apps-search", version: "1" }, tools: [other], toolSearch: toolSearch(), features: [apps([tally])] }),
});

type Found = { tools: { name: string }[]; total?: number; notFound?: string[] };
const found = (reply: Reply): Found => (reply.body["result"] as { structuredContent: Found }).structuredContent;
const names = (reply: Reply): string[] => found(reply).tools.map((tool) => tool.name);

/** The three kinds of client: one that renders apps, a 2026-07-28 one that does not, a 2025-11-25 stateless one (no capabilities known). */
const clients = {
  "a client that renders apps": (method: string, params: Record<string, unknown>) => modern(app, method, params, UI_CLIENT),
  "a 2026-07-28 client without apps": (method: string, params: Record<string, unknown>) => modern(app, method, params),
  "a 2025-11-25 stateless client": (method: string, params: Record<string, unknown>) => legacy(app, method, params),
};

describe.each(Object.entries(clients))("tool search for %s", (_client, send) => {
  it("search_tools finds the app tool and the plain tool, never the app-only tool, and counts only what it may offer", async () => {
    const reply = await send("tools/call", { name: "search_tools", arguments: { query: "tally counter" } });
    expect(names(reply).sort()).toEqual(["show_tally", "tally_report"]);
    expect(found(reply).total).toBe(2);
  });

  it("search_tools select: names the app-only tool as not found", async () => {
    const reply = await send("tools/call", { name: "search_tools", arguments: { query: "select:tally_bump,show_tally" } });
    expect(names(reply)).toEqual(["show_tally"]);
    expect(found(reply).notFound).toEqual(["tally_bump"]);
  });

  it("describe_tools does not describe the app-only tool", async () => {
    const reply = await send("tools/call", { name: "describe_tools", arguments: { names: ["tally_bump", "tally_report"] } });
    expect(names(reply)).toEqual(["tally_report"]);
    expect(found(reply).notFound).toEqual(["tally_bump"]);
  });

  it("call_tool refuses the app-only tool as unknown, and runs the app tool", async () => {
    const refused = await send("tools/call", { name: "call_tool", arguments: { name: "tally_bump" } });
    expect(refused.body["error"]).toMatchObject({ code: -32602, message: "Unknown tool: tally_bump" });
    const ran = await send("tools/call", { name: "call_tool", arguments: { name: "show_tally" } });
    expect((ran.body["result"] as { content: unknown }).content).toEqual([{ type: "text", text: "Tally is at 0." }]);
  });
});

describe("what a client that renders apps still gets", () => {
  it("tools/list lists the app-only tool, for the host to hand to the app", async () => {
    const reply = await modern(app, "tools/list", {}, UI_CLIENT);
    expect((reply.body["result"] as { tools: { name: string }[] }).tools.map((tool) => tool.name)).toContain("tally_bump");
  });

  it("a direct tools/call of the app-only tool runs (the app calls it through the host)", async () => {
    const reply = await modern(app, "tools/call", { name: "tally_bump", arguments: {} }, UI_CLIENT);
    expect((reply.body["result"] as { content: unknown }).content).toEqual([{ type: "text", text: "bumped" }]);
  });
});
