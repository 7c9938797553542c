// Session traffic passes the same admission as stateless traffic: scopes, rate limits, identity, auth before 405.
import { describe, expect, it } from "vitest";
import { API_KEY, bearer, inSession, initialize, modern, resultOf, send, clearOfMinuteEnd } from "./fixture.ts";

describe("admission inside 2025-11-25 sessions", () => {
  it("refuses a tool call in a session when the token lacks the tool's scope, with the 403 challenge", async () => {
    const reader = await bearer({ scope: "profile:read" });
    const { status, sessionId } = await initialize("secure", reader);
    expect(status).toBe(200);
    const refused = await inSession("secure", sessionId as string, "tools/call", { name: "invoice_total", arguments: { lines: [1, 2] } }, reader);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer error="insufficient_scope", scope="invoices:read"/);
    expect(await refused.json()).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/invoices:read/) } });
    // The same principal with the scope is served in the same session.
    const allowed = await resultOf(
      await inSession(
        "secure",
        sessionId as string,
        "tools/call",
        { name: "invoice_total", arguments: { lines: [1, 2] } },
        await bearer({ scope: "profile:read invoices:read" }),
      ),
    );
    expect(allowed.result?.content[0]?.text).toBe("Total: 3");
  });

  it("answers 429 with Retry-After once a session passes the tenant's per-tool rate limit", { timeout: 30_000 }, async () => {
    await clearOfMinuteEnd();
    const { sessionId } = await initialize("open");
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 8 && !limited; i++) {
      const response = await inSession("open", sessionId as string, "tools/call", { name: "invoice_total", arguments: { lines: [i] } });
      statuses.push(response.status);
      if (response.status === 429) limited = response;
      else await response.text();
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(limited?.headers.get("retry-after")).toBe("60");
    expect(await limited?.json()).toMatchObject({ error: { code: -31429, data: { retryAfterSeconds: 60 } } });
  });

  it("gives handlers the verified principal inside a session", async () => {
    const token = await bearer({ sub: "ada", scope: "profile:read" });
    const { sessionId } = await initialize("secure", token);
    const reply = await resultOf(await inSession("secure", sessionId as string, "tools/call", { name: "whoami", arguments: {} }, token));
    expect(JSON.parse(reply.result?.content[0]?.text as string)).toEqual({
      tenant: "secure",
      issuer: "https://issuer-one.test",
      subject: "ada",
      scopes: ["profile:read"],
    });
  });

  it("sends no response for a request the client cancelled, even when the answer would be JSON", async () => {
    const { sessionId } = await initialize("open");
    const id = 4242;
    const pending = inSession("open", sessionId as string, "tools/call", { name: "wait", arguments: { ms: 5_000 } }, undefined, id);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const cancel = await send("open", {
      body: { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "changed my mind" } },
      headers: { "mcp-session-id": sessionId as string, "mcp-protocol-version": "2025-11-25" },
    });
    expect(cancel.status).toBe(202);
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/event-stream");
    expect(await answer.text()).toBe("");
  });
});

describe("authentication comes before the method check", () => {
  it.each(["GET", "DELETE", "PUT"])("answers an unauthenticated %s with 401 and a challenge, not 405", async (method) => {
    const response = await send("secure", { method, headers: { accept: "text/event-stream" } });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(
      /^Bearer resource_metadata="http:\/\/127\.0\.0\.1\/\.well-known\/oauth-protected-resource\/t\/secure\/mcp"/,
    );
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32600, message: expect.stringMatching(/^Unauthorized/) } });
  });

  it("answers GET and DELETE of a session without a token with 401, and keeps the session", async () => {
    const token = await bearer();
    const { sessionId } = await initialize("secure", token);
    for (const method of ["GET", "DELETE"]) {
      const response = await send("secure", { method, headers: { accept: "text/event-stream", "mcp-session-id": sessionId as string } });
      expect(response.status).toBe(401);
      await response.text();
    }
    expect((await inSession("secure", sessionId as string, "ping", {}, token)).status).toBe(200);
  });

  it("answers an authenticated GET without a session id with 405", async () => {
    const response = await send("secure", { method: "GET", headers: { accept: "text/event-stream", authorization: `Bearer ${API_KEY}` } });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST, DELETE");
    await response.text();
  });

  it("checks scopes of stateless 2026-07-28 calls the same way", async () => {
    const response = await modern("secure", "tools/call", { name: "invoice_total", arguments: { lines: [1] } }, await bearer({ scope: "profile:read" }));
    expect(response.status).toBe(403);
    await response.text();
  });
});
