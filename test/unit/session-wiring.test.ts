// An endpoint given a session gateway needs the session routes, which only what brings a gateway wires
// (createMcpApp, the session object's gateway module). Built by hand without them, its 2025-era
// requests fail with the error that names the fix, and nothing reaches the gateway.
import { describe, expect, it } from "vitest";
import { DefinitionError } from "../../src/core/definition-error.ts";
import { createEndpointApp } from "../../src/http/app.ts";
import { createEndpoint } from "../../src/http/endpoint.ts";
import type { SessionGateway } from "../../src/http/session-gateway.ts";
import { sessionRoutes } from "../../src/http/session-wiring.ts";
import { createServer } from "../../src/server/server.ts";
import { legacy } from "./app-client.ts";

const server = createServer({ info: { name: "sessions", version: "1" }, tools: [] });
const forwarded: string[] = [];
const gateway: SessionGateway = {
  mint: () => "s",
  forward: (sessionId) => {
    forwarded.push(sessionId);
    return Promise.resolve(Response.json({ jsonrpc: "2.0", id: 1, result: {} }));
  },
};
const INITIALIZE = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } };

describe("a session gateway's routes", () => {
  it("are missing until something wires them, and the error names createMcpApp", async () => {
    expect(() => sessionRoutes()).toThrow(DefinitionError);
    expect(() => sessionRoutes()).toThrow(/createMcpApp\(\{ sessions \}\)/);
    const app = createEndpointApp(createEndpoint({ server, sessions: gateway }));
    const response = await legacy(app, "initialize", INITIALIZE);
    expect(response.status).toBe(500);
    expect(forwarded).toEqual([]);
  });

  it("are wired by createMcpApp, after which the same request opens a session", async () => {
    const { createMcpApp } = await import("../../src/http/mcp-app.ts");
    const app = createMcpApp({ server, sessions: gateway });
    const response = await legacy(app, "initialize", INITIALIZE);
    expect(response.status).toBe(200);
    expect(forwarded).toEqual(["s"]);
  });
});
