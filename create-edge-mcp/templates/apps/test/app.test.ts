// The Worker inside workerd: the app tool is listed with its ui:// resource, answers with text, and the
// app's HTML is served from static assets as an MCP App resource.
import { describe, expect, it } from "vitest";
import { mcp } from "./mcp";

const URI = "ui://counter/app.html";
const RENDERS_APPS = { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } };

describe("the counter app", () => {
  it("lists show_counter linked to its app; counter_add only to a client that renders apps", async () => {
    const plain = (await mcp("tools/list")).result?.["tools"] as { name: string; _meta?: Record<string, unknown> }[];
    expect(plain.map((tool) => tool.name)).toEqual(["show_counter"]);
    expect(plain[0]?._meta).toEqual({ ui: { resourceUri: URI }, "ui/resourceUri": URI });
    const withApps = (await mcp("tools/list", {}, {}, "/mcp", { extensions: RENDERS_APPS })).result?.["tools"] as { name: string }[];
    expect(withApps.map((tool) => tool.name)).toEqual(["show_counter", "counter_add"]);
  });

  it("answers show_counter with a text any client can show", async () => {
    const { result } = await mcp("tools/call", { name: "show_counter", arguments: { label: "cups", start: 2 } });
    expect(result).toMatchObject({ content: [{ type: "text", text: 'Counter "cups" is at 2.' }], structuredContent: { label: "cups", count: 2 } });
  });

  it("serves the app's HTML from static assets, with the MCP App mime type and a digest", async () => {
    const { result } = await mcp("resources/read", { uri: URI }, { "mcp-name": URI });
    const [content] = result?.["contents"] as { uri: string; mimeType: string; text: string; _meta: Record<string, unknown> }[];
    expect(content).toMatchObject({ uri: URI, mimeType: "text/html;profile=mcp-app" });
    expect(content?.text).toContain('<h1 id="label">counter</h1>');
    expect(content?._meta["edge-mcp/digest"]).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
