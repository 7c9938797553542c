// MCP Apps on a multi-tenant Worker: an app-only tool is an ordinary admitted call (scopes hold), a
// module's and a service's apps are served under their prefixes without colliding, a tenant reads
// only its own apps, and a tenant with apps off serves plain tools.
import { describe, expect, it } from "vitest";
import { bearer, initialize, inSession, modern, resultOf, send } from "./fixture.ts";

const UI = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": UI };

/** A 2026-07-28 resources/read, with the Mcp-Name header it needs. */
const read = async (tenant: string, uri: string, authorization?: string) =>
  resultOf(
    await send(tenant, {
      body: { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri, _meta: META } },
      headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "resources/read", "mcp-name": uri, ...(authorization ? { authorization } : {}) },
    }),
  );

const toolsOf = async (tenant: string, authorization: string | undefined, capabilities?: Record<string, unknown>) => {
  const body = await resultOf(await modern(tenant, "tools/list", {}, authorization, capabilities));
  return (body.result?.["tools"] ?? []) as { name: string; _meta?: Record<string, unknown> }[];
};

describe("admission of app-only tools", () => {
  it("refuses an app-only tool to a caller without its scope (403 insufficient_scope), as any tool call", async () => {
    const response = await modern("gallery", "tools/call", { name: "shop_cart_update", arguments: { items: 2 } }, await bearer({ tenant: "gallery" }), UI);
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toMatch(/insufficient_scope/);
  });

  it("runs it for a caller with the scope whose client renders apps", async () => {
    const authorization = await bearer({ tenant: "gallery", scope: "cart:write" });
    const body = await resultOf(await modern("gallery", "tools/call", { name: "shop_cart_update", arguments: { items: 2 } }, authorization, UI));
    expect(body.result?.content[0]?.text).toBe("The cart has 2 items.");
  });

  it("refuses an unauthenticated read of an app resource (401), as any resource read", async () => {
    expect((await read("gallery", "ui://shop/cart/app.html")).status).toBe(401);
  });
});

describe("apps of modules and services, under their prefixes", () => {
  it("links each tool to its app under the module prefix, and two services' apps do not collide", async () => {
    const tools = await toolsOf("gallery", await bearer({ tenant: "gallery", scope: "cart:write" }), UI);
    const uriOf = (name: string) => (tools.find((t) => t.name === name)?._meta?.["ui"] as { resourceUri?: string } | undefined)?.resourceUri;
    expect(uriOf("shop_cart_show")).toBe("ui://shop/cart/app.html");
    expect(uriOf("shop_cart_update")).toBe("ui://shop/cart/app.html");
    expect(uriOf("pics_show")).toBe("ui://pics/viewer/app.html");
    expect(uriOf("more_show")).toBe("ui://more/viewer/app.html");
    expect(tools.find((t) => t.name === "more_zoom")?._meta).toEqual({
      ui: { resourceUri: "ui://more/viewer/app.html", visibility: ["app"] },
      "ui/resourceUri": "ui://more/viewer/app.html",
    });
  });

  it("reads a service's app over RPC under its prefixed URI, and refuses a service app with a bad CSP alone", async () => {
    const authorization = await bearer({ tenant: "gallery" });
    const body = await read("gallery", "ui://more/viewer/app.html", authorization);
    const content = (body.result?.["contents"] as { uri: string; text: string; mimeType: string; _meta: Record<string, unknown> }[])[0];
    expect(content).toMatchObject({ uri: "ui://more/viewer/app.html", mimeType: "text/html;profile=mcp-app", _meta: { ui: { prefersBorder: false } } });
    expect(content?.text).toBe("<!doctype html><title>ui://viewer/app.html</title><p>for gallery</p>");
    const broken = await read("gallery", "ui://pics/broken/app.html", authorization);
    expect(broken.error?.code).toBe(-32602);
  });

  it("lets a tenant read only its own apps", async () => {
    const own = await read("gallery", "ui://shop/cart/app.html", await bearer({ tenant: "gallery" }));
    expect((own.result?.["contents"] as { text: string }[])[0]?.text).toContain("cart");
    // The plain tenant has no resources at all: resources/read is not one of its methods.
    const body = await read("plain", "ui://shop/cart/app.html");
    expect(body.error?.code).toBe(-32601);
    expect(body.result).toBeUndefined();
  });

  it("serves plain tools, no app resources and no extension to a tenant with apps off", async () => {
    const tools = await toolsOf("gallery-off", undefined, UI);
    const names = tools.map((t) => t.name);
    expect(names).toContain("shop_cart_show");
    expect(names).not.toContain("shop_cart_update");
    expect(tools.find((t) => t.name === "shop_cart_show")?._meta).toBeUndefined();
    const discover = await resultOf(await modern("gallery-off", "server/discover", {}, undefined, UI));
    expect((discover.result?.["capabilities"] as { extensions?: object }).extensions ?? {}).not.toHaveProperty("io.modelcontextprotocol/ui");
    expect((await read("gallery-off", "ui://shop/cart/app.html")).error?.code).toBe(-32601);
  });
});

describe("negotiation in a 2025-11-25 session", () => {
  it("hides app-only tools from a session whose client did not declare the extension", async () => {
    const authorization = await bearer({ tenant: "gallery", scope: "cart:write" });
    const opened = await initialize("gallery", authorization);
    expect((opened.body["result"] as { capabilities: { extensions: object } }).capabilities.extensions).toHaveProperty("io.modelcontextprotocol/ui");
    const listed = await resultOf(await inSession("gallery", opened.sessionId as string, "tools/list", {}, authorization));
    const names = ((listed.result?.["tools"] ?? []) as { name: string }[]).map((t) => t.name);
    expect(names).toContain("shop_cart_show");
    expect(names).not.toContain("shop_cart_update");
    const called = await resultOf(
      await inSession("gallery", opened.sessionId as string, "tools/call", { name: "shop_cart_update", arguments: { items: 1 } }, authorization),
    );
    expect(called.error).toMatchObject({ code: -32602, message: "Unknown tool: shop_cart_update" });
  });
});
