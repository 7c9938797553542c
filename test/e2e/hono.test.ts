// The Hono example (examples/hono) under wrangler dev: the app's routes and the mounted MCP endpoint side by side,
// both official clients through the app's own middleware and sign-in, and the endpoint's own admission still in force.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectLegacyClient, connectModernClient } from "./clients.ts";
import { startWranglerDev, type WranglerDev } from "./wrangler-dev.ts";

const ADA = { authorization: "Bearer demo-ada-published-example-token" };
const BOB = { authorization: "Bearer demo-bob-published-example-token" };
const LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });

let app: WranglerDev | undefined;
let base = "";

beforeAll(async () => {
  app = await startWranglerDev({ name: "hono", configPath: "examples/hono/wrangler.toml" });
  base = app.baseUrl;
}, 60_000);

afterAll(async () => {
  await app?.stop();
});

/** A 2025-11-25 POST of tools/list to the endpoint, with extra headers. */
function postList(headers: Record<string, string>): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25", ...headers },
    body: LIST,
  });
}

describe("an MCP endpoint mounted in a Hono app", () => {
  it("leaves the app's own routes answering as before", async () => {
    const home = await fetch(`${base}/`);
    expect(await home.text()).toContain("MCP endpoint at /mcp");
    expect(home.headers.get("x-request-id")).toMatch(/\S/);
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ ok: true });
    expect((await fetch(`${base}/nowhere`)).status).toBe(404);
  });

  it("SDK v1 (2025-11-25) lists and calls tools as the user the app signed in", async () => {
    const client = await connectLegacyClient(`${base}/mcp`, { headers: ADA });
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(["echo", "whoami"]);
      expect((await client.callTool({ name: "whoami", arguments: {} })).content).toEqual([{ type: "text", text: "You are ada." }]);
      expect((await client.callTool({ name: "echo", arguments: { text: "hi" } })).content).toEqual([{ type: "text", text: "hi" }]);
    } finally {
      await client.close();
    }
  });

  it("client v2 (2026-07-28) lists and calls tools, and sees only the tools the user's roles allow", async () => {
    const client = await connectModernClient(`${base}/mcp`, { headers: BOB });
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["whoami"]);
      expect((await client.callTool({ name: "whoami", arguments: {} })).content).toEqual([{ type: "text", text: "You are bob." }]);
    } finally {
      await client.close();
    }
  });

  it("runs the app's middleware on MCP requests: its sign-in refuses a caller without a token, its request id is on the answer", async () => {
    const refused = await postList({});
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: "sign in with Authorization: Bearer <token>" });
    const listed = await postList(ADA);
    expect(listed.status).toBe(200);
    expect(listed.headers.get("x-request-id")).toMatch(/\S/);
  });

  it("keeps the endpoint's own admission: a foreign Origin gets 403, a tool needing a role the user lacks gets 403", async () => {
    const foreign = await postList({ ...ADA, origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect((await foreign.json<{ error: { code: number } }>()).error.code).toBe(-32600);
    const call = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25", ...BOB },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } }),
    });
    expect(call.status).toBe(403);
  });

  it("answers a browser's preflight with hono's cors(), and an allowed Origin's request with CORS headers", async () => {
    const preflight = await fetch(`${base}/mcp`, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:5173", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    const listed = await postList({ ...ADA, origin: "http://localhost:5173" });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(listed.headers.get("access-control-expose-headers")).toContain("mcp-session-id");
  });
});
