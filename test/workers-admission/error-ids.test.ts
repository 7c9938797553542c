// Every refusal carries a JSON-RPC error body with `id`: the request's id when it was read, null otherwise (JSON-RPC 2.0 §5).
import { describe, expect, it } from "vitest";
import { API_KEY, BASE_HEADERS, bearer, send } from "./fixture.ts";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const DISCOVER = { jsonrpc: "2.0", id: 7, method: "server/discover", params: { _meta: META } };
const MODERN = { "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" };

/** One refusal path: how to provoke it, and the status it answers with. */
const paths: [string, () => Promise<Response>, number][] = [
  ["401 without a token", () => send("secure", { body: DISCOVER, headers: MODERN }), 401],
  ["401 with a malformed token", () => send("secure", { body: DISCOVER, headers: { ...MODERN, authorization: "Bearer not.a.jwt" } }), 401],
  ["401 with an unknown API key", () => send("secure", { body: DISCOVER, headers: { ...MODERN, authorization: `Bearer ${API_KEY}x` } }), 401],
  ["403 for a foreign Origin", () => send("open", { body: DISCOVER, headers: { ...MODERN, origin: "https://evil.example" } }), 403],
  [
    "403 for a missing scope",
    async () =>
      send("secure", {
        body: { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "invoice_total", arguments: { lines: [1] }, _meta: META } },
        headers: {
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "invoice_total",
          authorization: await bearer({ scope: "profile:read" }),
        },
      }),
    403,
  ],
  ["400 for a body that is not JSON", () => send("open", { body: "{not json", headers: MODERN }), 400],
  ["400 for a message without a method", () => send("open", { body: { jsonrpc: "2.0", id: 9 }, headers: MODERN }), 400],
  ["400 for an empty batch", () => send("open", { body: "[]", headers: MODERN }), 400],
  ["400 for a header that disagrees with the body", () => send("open", { body: DISCOVER, headers: { ...MODERN, "mcp-method": "tools/list" } }), 400],
  [
    "413 for a body over the cap",
    () => send("open", { body: `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"${"x".repeat(1_100_000)}"}}`, headers: MODERN }),
    413,
  ],
  ["415 for a text body", () => send("open", { body: DISCOVER, headers: { ...MODERN, "content-type": "text/plain" } }), 415],
  ["406 for an Accept without JSON", () => send("open", { body: DISCOVER, headers: { ...MODERN, accept: "text/html" } }), 406],
  [
    "404 for an unknown session",
    () => send("open", { body: { jsonrpc: "2.0", id: 3, method: "ping" }, headers: { "mcp-session-id": "nope", "mcp-protocol-version": "2025-11-25" } }),
    404,
  ],
  ["404 for an unknown method", () => send("open", { body: { ...DISCOVER, method: "no/such" }, headers: { ...MODERN, "mcp-method": "no/such" } }), 404],
  [
    "429 past the rate limit",
    async () => {
      const address = `198.51.100.${200 + Math.floor(Math.random() * 50)}`;
      for (let sent = 0; sent < 20; sent++) {
        const response = await send("anon", { body: DISCOVER, headers: { ...MODERN, "cf-connecting-ip": address } });
        if (response.status === 429) return response;
        await response.text();
      }
      throw new Error("no 429 after 20 requests");
    },
    429,
  ],
];

describe("JSON-RPC error ids", () => {
  it.each(paths)("%s answers a JSON-RPC error with an id member", async (_label, provoke, status) => {
    const response = await provoke();
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await response.json<Record<string, unknown>>();
    expect(body).toMatchObject({ jsonrpc: "2.0", error: { code: expect.any(Number), message: expect.any(String) } });
    expect(Object.keys(body)).toContain("id");
    expect(body["id"] === null || typeof body["id"] === "number").toBe(true);
  });

  it("answers null for the id of a body it could not parse, and the request's id when it read one", async () => {
    const unread = await send("open", { body: "{not json", headers: MODERN }).then((r) => r.json<Record<string, unknown>>());
    expect(unread["id"]).toBeNull();
    const unauthorised = await send("secure", { body: DISCOVER, headers: { ...MODERN, ...BASE_HEADERS } }).then((r) => r.json<Record<string, unknown>>());
    expect(unauthorised).toHaveProperty("id");
  });
});
