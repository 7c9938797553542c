// MCP Apps inside workerd: declarations refused at startup, the demo's tally app negotiated in both
// revisions, its ui:// resource read from static assets with a digest, and its metadata checked by ext-apps' schemas.
import { McpUiResourceMetaSchema, McpUiToolMetaSchema } from "@modelcontextprotocol/ext-apps";
import { describe, expect, it } from "vitest";
import { DefinitionError, apps, createServer, defineApp, defineTool, type AppDefinition, type AppsOptions, type ToolDefinition } from "../../src/index.ts";
import { MODERN_META, post, postModern, rpc } from "./post.ts";

const UI = { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } };
const withApps = { _meta: { ...MODERN_META, "io.modelcontextprotocol/clientCapabilities": { extensions: UI } } };
const TALLY = "ui://tally/app.html";

const tool = (name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition =>
  defineTool({ name, description: "A tool.", inputSchema: { type: "object" }, handler: () => "ok", ...extra });
const app = (extra: Partial<AppDefinition> = {}): AppDefinition => defineApp({ uri: "ui://a/app.html", name: "a", html: "<!doctype html><p>a</p>", ...extra });

/** The DefinitionError of a server with these apps. */
function refusal(list: AppDefinition[], options?: AppsOptions): string {
  try {
    createServer({ info: { name: "t", version: "1" }, features: [apps(list, options)] });
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as Error).message;
  }
  throw new Error("expected a DefinitionError");
}

describe("apps refused at startup, naming the app and the problem", () => {
  it.each([
    [
      "a URI of another scheme",
      app({ uri: "https://a/app.html" }),
      /^apps\[0\] \(https:\/\/a\/app.html\): uri "https:\/\/a\/app.html" must start with ui:\/\//,
    ],
    ["a ui:// URI with a space", app({ uri: "ui://a/my app.html" }), /uri "ui:\/\/a\/my app.html" is not a ui:\/\/ URI/],
    ["a ui:// URI with a fragment", app({ uri: "ui://a/app.html#x" }), /is not a ui:\/\/ URI/],
    ["a ui:// URI without a name", app({ uri: "ui:///app.html" }), /is not a ui:\/\/ URI/],
    [
      "a CSP domain with a path",
      app({ csp: { connectDomains: ["https://api.example.com/v1"] } }),
      /csp.connectDomains\[0\] "https:\/\/api.example.com\/v1" is not an origin/,
    ],
    ["a CSP domain without a scheme", app({ csp: { resourceDomains: ["cdn.example.com"] } }), /csp.resourceDomains\[0\] "cdn.example.com" is not an origin/],
    ["a CSP domain of another scheme", app({ csp: { frameDomains: ["ftp://files.example.com"] } }), /csp.frameDomains\[0\] .* is not an origin/],
    ["an unknown CSP field", app({ csp: { scriptDomains: [] } as never }), /csp.scriptDomains is not a CSP field/],
    ["an unknown permission", app({ permissions: { usb: {} } as never }), /permissions.usb is not a permission/],
    ["an asset without a loader", app({ html: { asset: "/a.html" } }), /html.asset needs a loader of static assets/],
    ["an asset path that is not absolute", app({ html: { asset: "a.html" } }), /html.asset must be the path of a static asset/],
    [
      "a model-visible app tool",
      app({ appTools: [tool("t", { _meta: { ui: { visibility: ["model"] } } })] }),
      /appTools\[0\] \(tool t\): an app tool \(appTools\) cannot have "model"/,
    ],
    [
      "a bad visibility",
      app({ tools: [tool("t", { _meta: { ui: { visibility: ["agent"] } } })] }),
      /tools\[0\] \(tool t\): _meta.ui.visibility must be a non-empty list/,
    ],
  ])("refuses %s", (_name, definition, message) => {
    expect(refusal([definition])).toMatch(message);
  });

  it("refuses the same app declared twice", () => {
    expect(refusal([app(), app()])).toMatch(/^apps\[1\]: the app ui:\/\/a\/app.html is declared twice/);
  });

  it("refuses a tool linked to a resource that is not an app", () => {
    const linked = tool("t", { _meta: { ui: { resourceUri: "ui://missing/app.html" } } });
    expect(refusal([app()], { tools: [linked] })).toMatch(
      /^apps options.tools\[0\] \(tool t\): _meta.ui.resourceUri names ui:\/\/missing\/app.html, which is not an app/,
    );
  });

  it("accepts wildcard subdomains, ports and wss origins", () => {
    const csp = { resourceDomains: ["https://*.example.com"], connectDomains: ["http://127.0.0.1:8787", "wss://live.example.com"] };
    expect(() => createServer({ info: { name: "t", version: "1" }, features: [apps([app({ csp })])] })).not.toThrow();
  });
});

describe("the extension is declared in both revisions", () => {
  it("server/discover (2026-07-28) declares io.modelcontextprotocol/ui", async () => {
    const body = await rpc(await postModern("server/discover"));
    expect((body.result?.["capabilities"] as { extensions: object }).extensions).toMatchObject(UI);
  });

  it("initialize (2025-11-25) declares io.modelcontextprotocol/ui", async () => {
    const body = await rpc(
      await post({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: { extensions: UI }, clientInfo: { name: "t", version: "1" } },
      }),
    );
    expect(body.result?.["protocolVersion"]).toBe("2025-11-25");
    expect((body.result?.["capabilities"] as { extensions: object }).extensions).toMatchObject(UI);
  });
});

const toolsOf = async (response: Response) => ((await rpc(response)).result?.["tools"] ?? []) as { name: string; _meta?: Record<string, unknown> }[];

describe("app tools, as each client sees them", () => {
  it("lists the app tool with _meta.ui, the flat key and the app-only tool to a client that declared the extension", async () => {
    const tools = await toolsOf(await postModern("tools/list", withApps));
    const show = tools.find((t) => t.name === "show_tally");
    const bump = tools.find((t) => t.name === "tally_bump");
    expect(show?._meta).toEqual({ ui: { resourceUri: TALLY }, "ui/resourceUri": TALLY });
    expect(bump?._meta).toEqual({ ui: { resourceUri: TALLY, visibility: ["app"] }, "ui/resourceUri": TALLY });
    // What ext-apps itself accepts as tool metadata.
    expect(McpUiToolMetaSchema.safeParse(show?._meta?.["ui"]).success).toBe(true);
    expect(McpUiToolMetaSchema.safeParse(bump?._meta?.["ui"]).success).toBe(true);
  });

  it("hides the app-only tool from a 2026-07-28 client without the extension, and refuses its call as unknown", async () => {
    const names = (await toolsOf(await postModern("tools/list"))).map((t) => t.name);
    expect(names).toContain("show_tally");
    expect(names).not.toContain("tally_bump");
    const body = await rpc(await postModern("tools/call", { name: "tally_bump", arguments: { count: 1 } }));
    expect(body.error).toMatchObject({ code: -32602, message: "Unknown tool: tally_bump" });
  });

  it("answers the app tool with its text to a client without the extension (the spec's fallback)", async () => {
    const body = await rpc(await postModern("tools/call", { name: "show_tally", arguments: { label: "cups", start: 2 } }));
    expect(body.result?.["content"]).toEqual([{ type: "text", text: 'Tally "cups" is at 2.' }]);
  });

  it("runs the app-only tool for a client that declared the extension", async () => {
    const body = await rpc(await postModern("tools/call", { ...withApps, name: "tally_bump", arguments: { count: 41 } }));
    expect(body.result?.["structuredContent"]).toEqual({ count: 42 });
  });

  it("lists every tool to a 2025-11-25 stateless client, whose capabilities no request carries", async () => {
    const response = await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, { "mcp-protocol-version": "2025-11-25" });
    const names = (await toolsOf(response)).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["show_tally", "tally_bump"]));
  });
});

describe("the app's ui:// resource", () => {
  const read = async () => {
    const body = await rpc(await postModern("resources/read", { ...withApps, uri: TALLY }, { "mcp-name": TALLY }));
    expect(body.error).toBeUndefined();
    return body.result as Record<string, unknown>;
  };

  it("serves the HTML from static assets with its mime type, _meta.ui, a stable digest and cache hints", async () => {
    const first = await read();
    const [content] = first["contents"] as { uri: string; mimeType: string; text: string; _meta: Record<string, unknown> }[];
    expect(content?.uri).toBe(TALLY);
    expect(content?.mimeType).toBe("text/html;profile=mcp-app");
    expect(content?.text).toMatch(/^<!doctype html>/);
    expect(content?._meta["ui"]).toEqual({ csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true });
    expect(McpUiResourceMetaSchema.safeParse(content?._meta["ui"]).success).toBe(true);
    const bytes = new TextEncoder().encode(content?.text);
    const hex = [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
    expect(content?._meta["edge-mcp/digest"]).toBe(`sha256:${hex}`);
    expect(first["ttlMs"]).toBeTypeOf("number");
    const again = await read();
    expect((again["contents"] as { _meta: object }[])[0]?._meta).toEqual(content?._meta);
  });

  it("is listed with its mime type and _meta.ui", async () => {
    const body = await rpc(await postModern("resources/list"));
    const listed = (body.result?.["resources"] as { uri: string }[]).find((r) => r.uri === TALLY);
    expect(listed).toMatchObject({ name: "tally", mimeType: "text/html;profile=mcp-app", _meta: { ui: { prefersBorder: true } } });
  });
});
