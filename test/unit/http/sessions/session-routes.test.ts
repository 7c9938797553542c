// The session routes of an app given a session gateway of its own making (createMcpApp wires them):
// initialize takes a quota place and opens a session, later requests go to the session they name.
import { describe, expect, it } from "vitest";
import type { Admission } from "../../../../src/core/admission.ts";
import { createMcpApp } from "../../../../src/http/mcp-app.ts";
import type { SessionGateway, SessionOpening } from "../../../../src/http/sessions/session-gateway.ts";
import { createServer } from "../../../../src/server/server.ts";
import { createMemoryQuotaCounter } from "../../../../src/server/state/quotas.ts";
import { legacy, request } from "../../app-client.ts";

interface Forwarded {
  sessionId: string;
  method: string;
  body: string | undefined;
  tenant: string;
  opening: SessionOpening | undefined;
}

/** A gateway that records what it is handed and answers as an opened session (with its id) would. */
function recordingGateway(): SessionGateway & { forwarded: Forwarded[] } {
  const forwarded: Forwarded[] = [];
  let minted = 0;
  return {
    forwarded,
    mint: () => `session-${++minted}`,
    forward(sessionId: string, request: Request, body: string | undefined, admission: Admission, opening: SessionOpening | undefined) {
      forwarded.push({ sessionId, method: request.method, body, tenant: admission.tenant, opening });
      return Promise.resolve(Response.json({ jsonrpc: "2.0", id: 1, result: {} }, { headers: { "mcp-session-id": sessionId } }));
    },
  };
}

const server = createServer({ info: { name: "sessions", version: "1" }, tools: [] });
const INITIALIZE = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } };
const stream = (method: string, sessionId: string | undefined, accept = "text/event-stream"): RequestInit => ({
  method,
  headers: { accept, "mcp-protocol-version": "2025-11-25", ...(sessionId === undefined ? {} : { "mcp-session-id": sessionId }) },
});

describe("an app with a session gateway of its own", () => {
  it("opens a session on initialize, with its id digest and quota lease, and forwards the session's POST, GET and DELETE", async () => {
    const sessions = recordingGateway();
    const app = createMcpApp({ server, sessions, quotaCounter: createMemoryQuotaCounter() });
    expect((await legacy(app, "initialize", INITIALIZE)).status).toBe(200);
    const [opened] = sessions.forwarded;
    expect(opened?.sessionId).toBe("session-1");
    expect(opened?.opening?.idHash).toMatch(/^[0-9a-f]{64}$/);
    expect(opened?.opening?.leaseExpiresAt).toBeGreaterThan(Date.now());

    const ping = await request(app, "/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": " session-1 " },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
    });
    expect(ping.status).toBe(200);
    expect((await request(app, "/mcp", stream("GET", " session-1 "))).status).toBe(200);
    expect((await request(app, "/mcp", stream("DELETE", "session-1", "*/*"))).status).toBe(200);
    expect(sessions.forwarded.slice(1).map(({ method, sessionId, opening }) => [method, sessionId.trim(), opening])).toEqual([
      ["POST", "session-1", undefined],
      ["GET", "session-1", undefined],
      ["DELETE", "session-1", undefined],
    ]);
  });

  it("refuses a 2025-era POST without a session id (400), and a session GET that does not accept a stream (406)", async () => {
    const sessions = recordingGateway();
    const app = createMcpApp({ server, sessions });
    const reply = await legacy(app, "ping");
    expect(reply.status).toBe(400);
    expect((reply.body["error"] as { message: string }).message).toMatch(/^Missing Mcp-Session-Id header/);
    expect((await request(app, "/mcp", stream("GET", "session-1", "application/json"))).status).toBe(406);
    expect(sessions.forwarded).toEqual([]);
  });

  it("refuses an initialize over the caller's session quota at admission (429), before the gateway is asked", async () => {
    const sessions = recordingGateway();
    const app = createMcpApp({ server, sessions, quotaCounter: createMemoryQuotaCounter(), quotas: { sessions: { perPrincipal: 1, perTenant: 5 } } });
    expect((await legacy(app, "initialize", INITIALIZE)).status).toBe(200);
    const refused = await legacy(app, "initialize", INITIALIZE);
    expect(refused.status).toBe(429);
    expect((refused.body["error"] as { message: string }).message).toMatch(/^Too many open sessions: a caller may hold 1/);
    expect(sessions.forwarded).toHaveLength(1);
  });
});
