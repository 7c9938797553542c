// An unknown tool's -32602 suggests the closest tool the caller may see, never one its scopes, its tenant or an
// app-only visibility hide (tenants "mixed-hidden", anonymousList "public-only", and "gallery" with an app-only tool).
import { describe, expect, it } from "vitest";
import { bearer, initialize, inSession, modern, resultOf } from "./fixture.ts";

const call = (tenant: string, name: string, authorization?: string) => modern(tenant, "tools/call", { name, arguments: {} }, authorization);

describe("an unknown tool name on an auth tenant", () => {
  it("suggests a tool the caller's scopes allow", async () => {
    const reply = await resultOf(await call("mixed-hidden", "invoice_totl", await bearer({ tenant: "mixed-hidden", scope: "invoices:read" })));
    expect(reply.error).toMatchObject({ code: -32602, message: "Unknown tool: invoice_totl; did you mean invoice_total?" });
    const publicTool = await resultOf(await call("mixed-hidden", "whoam", await bearer({ tenant: "mixed-hidden" })));
    expect(publicTool.error).toMatchObject({ code: -32602, message: "Unknown tool: whoam; did you mean whoami?" });
  });

  it("never suggests a tool that needs a scope the caller lacks", async () => {
    const reply = await resultOf(await call("mixed-hidden", "invoice_totl", await bearer({ tenant: "mixed-hidden" })));
    expect(reply.error).toMatchObject({ code: -32602, message: "Unknown tool: invoice_totl" });
  });

  it("answers an anonymous caller of a public-only tenant with the 401, naming no tool", async () => {
    const response = await call("mixed-hidden", "invoice_totl");
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain("invoice_total");
  });

  it("suggests nothing to another tenant's tools", async () => {
    const reply = await resultOf(await call("mixed-hidden", "shop_cart_sho", await bearer({ tenant: "mixed-hidden", scope: "invoices:read" })));
    expect(reply.error).toMatchObject({ code: -32602, message: "Unknown tool: shop_cart_sho" });
  });
});

describe("an unknown tool name where an app-only tool exists", () => {
  it("never suggests the app-only tool to a client without the apps extension", async () => {
    const authorization = await bearer({ tenant: "gallery", scope: "cart:write" });
    const opened = await initialize("gallery", authorization);
    const called = await resultOf(
      await inSession("gallery", opened.sessionId as string, "tools/call", { name: "shop_cart_updat", arguments: {} }, authorization),
    );
    expect(called.error).toMatchObject({ code: -32602, message: "Unknown tool: shop_cart_updat" });
    const modernCall = await resultOf(await call("gallery", "shop_cart_updat", authorization));
    expect(modernCall.error).toMatchObject({ code: -32602, message: "Unknown tool: shop_cart_updat" });
  });

  it("suggests a tool a model may see, to a client with or without the apps extension", async () => {
    const authorization = await bearer({ tenant: "gallery", scope: "cart:write" });
    const opened = await initialize("gallery", authorization);
    const called = await resultOf(await inSession("gallery", opened.sessionId as string, "tools/call", { name: "pics_shw", arguments: {} }, authorization));
    expect(called.error).toMatchObject({ code: -32602, message: "Unknown tool: pics_shw; did you mean pics_show?" });
    const modernCall = await resultOf(await call("gallery", "pics_shw", authorization));
    expect(modernCall.error).toMatchObject({ code: -32602, message: "Unknown tool: pics_shw; did you mean pics_show?" });
  });
});
