// An endpoint given a session gateway needs the session routes, handed to it by value with the gateway
// by what brings one (createMcpApp, the session object's module). Built by hand without them, it is
// refused at startup with the error that names the fix.
import { describe, expect, it } from "vitest";
import { DefinitionError } from "../../../../src/core/definition-error.ts";
import { createEndpointApp } from "../../../../src/http/app.ts";
import { createEndpoint } from "../../../../src/http/endpoint.ts";
import type { SessionGateway } from "../../../../src/http/sessions/session-gateway.ts";
import { sessionRoutes } from "../../../../src/http/sessions/session-routes.ts";
import { createServer } from "../../../../src/server/server.ts";
import { legacy } from "../../app-client.ts";

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
  it("are asked for at startup: an endpoint given a gateway without them is refused, naming createMcpApp", () => {
    expect(() => createEndpoint({ server, sessions: gateway })).toThrow(DefinitionError);
    expect(() => createEndpoint({ server, sessions: gateway })).toThrow(/createMcpApp\(\{ sessions \}\)/);
    expect(forwarded).toEqual([]);
  });

  it("travel with the endpoint's options: given by value, a 2025-era initialize opens a session", async () => {
    const app = createEndpointApp(createEndpoint({ server, sessions: gateway, sessionRoutes }));
    const response = await legacy(app, "initialize", INITIALIZE);
    expect(response.status).toBe(200);
    expect(forwarded).toEqual(["s"]);
  });

  it("are added by createMcpApp to a gateway of your own", async () => {
    const { createMcpApp } = await import("../../../../src/http/mcp-app.ts");
    const app = createMcpApp({ server, sessions: gateway });
    const response = await legacy(app, "initialize", INITIALIZE);
    expect(response.status).toBe(200);
    expect(forwarded).toEqual(["s", "s"]);
  });
});
