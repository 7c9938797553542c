// Server Cards (SEP-2127 draft, experimental-ext-server-card 8924e08) and the AI Catalog of a host.
import { Validator } from "@cfworker/json-schema";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import cardSchema from "../fixtures/schema/server-card.schema.json";

const validator = new Validator({ ...cardSchema, $ref: "#/$defs/ServerCard" }, "2020-12", false);
const get = (url: string, headers: Record<string, string> = {}) => exports.default.fetch(url, { headers });

describe("server card", () => {
  it("serves the card of a tenant: 200, the media type, an ETag, CORS *, valid against the draft's schema", async () => {
    const response = await get("http://127.0.0.1/t/roles/mcp/server-card", { accept: "application/mcp-server-card+json" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/mcp-server-card+json");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/);
    const card = await response.json<Record<string, unknown>>();
    expect(validator.validate(card).errors).toEqual([]);
    expect(card).toMatchObject({
      $schema: "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
      name: "test.edge-mcp/roles",
      version: "1.0.0",
      description: "Grants and public tools under test.",
      remotes: [
        { type: "streamable-http", url: "http://127.0.0.1/t/roles/mcp", supportedProtocolVersions: expect.arrayContaining(["2026-07-28", "2025-11-25"]) },
      ],
      _meta: {
        "io.github.edge-mcp/authorization": { required: true, resourceMetadata: "http://127.0.0.1/.well-known/oauth-protected-resource/t/roles/mcp" },
        "io.github.edge-mcp/capabilities": { tools: expect.anything() },
      },
    });
    expect(card).not.toHaveProperty("tools");
  });

  it("answers 304 to If-None-Match with its ETag, and 200 to another", async () => {
    const first = await get("http://127.0.0.1/t/open/mcp/server-card");
    const etag = first.headers.get("etag") as string;
    const card = await first.json<Record<string, unknown>>();
    expect(validator.validate(card).errors).toEqual([]);
    const again = await get("http://127.0.0.1/t/open/mcp/server-card", { "if-none-match": `"other", W/${etag}` });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const changed = await get("http://127.0.0.1/t/open/mcp/server-card", { "if-none-match": '"stale"' });
    expect(changed.status).toBe(200);
    await changed.text();
  });

  it("varies by Host: the card's remote URL comes from it, so a shared cache keys it by Host", async () => {
    const here = await get("http://127.0.0.1/t/open/mcp/server-card");
    const there = await get("http://localhost/t/open/mcp/server-card");
    for (const response of [here, there]) {
      expect(response.status).toBe(200);
      expect(response.headers.get("vary")).toMatch(/(^|,\s*)Host(\s*,|$)/i);
    }
    const urls = [await here.json(), await there.json()].map((card) => (card as { remotes: { url: string }[] }).remotes[0]?.url);
    expect(urls).toEqual(["http://127.0.0.1/t/open/mcp", "http://localhost/t/open/mcp"]);
    const etag = (await get("http://127.0.0.1/t/open/mcp/server-card")).headers.get("etag") as string;
    const unchanged = await get("http://127.0.0.1/t/open/mcp/server-card", { "if-none-match": etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get("vary")).toMatch(/Host/i);
  });

  it("has no card for a tenant that did not turn it on, nor for an unknown tenant (404)", async () => {
    for (const url of ["http://127.0.0.1/t/secure/mcp/server-card", "http://127.0.0.1/t/nobody/mcp/server-card"]) {
      const response = await get(url);
      expect(response.status, url).toBe(404);
      await response.text();
    }
  });
});

describe("AI catalog", () => {
  it("lists exactly the carded tenants served at the host", async () => {
    const byPath = await get("http://127.0.0.1/.well-known/ai-catalog.json");
    expect(byPath.headers.get("content-type")).toBe("application/ai-catalog+json");
    expect(await byPath.json()).toEqual({
      specVersion: "1.0",
      entries: [
        { identifier: "urn:air:127.0.0.1:mcp:roles", type: "application/mcp-server-card+json", url: "http://127.0.0.1/t/roles/mcp/server-card" },
        { identifier: "urn:air:127.0.0.1:mcp:open", type: "application/mcp-server-card+json", url: "http://127.0.0.1/t/open/mcp/server-card" },
      ].sort((a, b) => (a.url < b.url ? 1 : -1)),
    });
    const byHost = await get("http://cards.example/.well-known/ai-catalog.json");
    expect(await byHost.json()).toEqual({
      specVersion: "1.0",
      entries: [{ identifier: "urn:air:cards.example:mcp:carded", type: "application/mcp-server-card+json", url: "http://cards.example/mcp/server-card" }],
    });
    for (const response of [byPath, byHost]) expect(response.headers.get("vary")).toMatch(/(^|,\s*)Host(\s*,|$)/i);
    const card = await get("http://cards.example/mcp/server-card");
    expect(await card.json()).toMatchObject({ name: "example.cards/carded", version: "2.0.0", title: "Carded" });
  });
});
