// Sessions under limits: a refused initialize frees its place, GET and DELETE meet the rate limits, listen streams are capped per caller.
import { describe, expect, it } from "vitest";
import { sseReader } from "../workers-conformance/sse-reader.ts";
import { from, initializeFrom } from "./network.ts";
import { clearOfMinuteEnd, send } from "./fixture.ts";

describe("a refused initialize", () => {
  it("answers 400 with the request's id, and gives its session place back: after 3 refusals, 3 sessions open (cap 3)", async () => {
    const address = "2001:db8:c1:1::1";
    for (const [id, params] of [
      [11, {}],
      [12, { protocolVersion: 2025 }],
      [13, { protocolVersion: null }],
    ] as const) {
      const refused = await initializeFrom("anon", address, params, id);
      expect(refused.status).toBe(400);
      expect(refused.headers.get("mcp-session-id")).toBeNull();
      expect(await refused.json()).toMatchObject({ jsonrpc: "2.0", id, error: { code: -32602, message: expect.stringMatching(/protocolVersion/) } });
    }
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await initializeFrom("anon", address);
      await response.text();
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  }, 30_000);
});

describe("GET and DELETE of a session", () => {
  it("meet the same rate limit as POST (429 with Retry-After)", async () => {
    await clearOfMinuteEnd();
    const address = "2001:db8:c2:1::1";
    const opened = await initializeFrom("anon", address);
    const sessionId = opened.headers.get("mcp-session-id") as string;
    expect(sessionId).toBeTruthy();
    // POSTs until the caller's limit (10 a minute) answers 429.
    for (let i = 0; i < 12; i++) {
      const response = await from("anon", address, "server/discover");
      await response.text();
      if (response.status === 429) break;
    }
    const session = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25", "cf-connecting-ip": address };
    const get = await send("anon", { method: "GET", headers: { ...session, accept: "text/event-stream" } });
    await get.body?.cancel();
    const del = await send("anon", { method: "DELETE", headers: session });
    await del.body?.cancel();
    expect([get.status, del.status]).toEqual([429, 429]);
    expect(get.headers.get("retry-after")).toBe("60");
    expect(del.headers.get("retry-after")).toBe("60");
  }, 30_000);
});

describe("listen streams per caller", () => {
  const listen = (tenant: string, address: string, id = 1) =>
    send(tenant, {
      body: {
        jsonrpc: "2.0",
        id,
        method: "subscriptions/listen",
        params: {
          notifications: { toolsListChanged: true },
          _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
        },
      },
      headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "subscriptions/listen", "cf-connecting-ip": address },
    });

  it("refuses the 17th stream of a caller with 429 and a JSON-RPC error (default 16), and frees a place when a stream closes", async () => {
    const address = "2001:db8:c3:1::1";
    const open: Response[] = [];
    for (let i = 0; i < 16; i++) {
      const response = await listen("open", address);
      expect(response.status).toBe(200);
      open.push(response);
    }
    const over = await listen("open", address, 17);
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toBe("10");
    expect(await over.json()).toMatchObject({
      jsonrpc: "2.0",
      id: 17,
      error: { code: -31429, message: expect.stringMatching(/Too many open listen streams/), data: { quota: "streams", perPrincipal: 16 } },
    });
    // Another caller has its own allowance.
    const other = await listen("open", "2001:db8:c3:2::1");
    expect(other.status).toBe(200);
    await other.body?.cancel();
    await open.pop()?.body?.cancel();
    let again = await listen("open", address, 18);
    for (let tries = 0; again.status === 429 && tries < 20; tries++) {
      await again.text();
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = await listen("open", address, 18);
    }
    expect(again.status).toBe(200);
    open.push(again);
    for (const response of open) await response.body?.cancel();
  }, 30_000);

  it("counts a session's GET stream in the same quota (a tenant allowing 3)", async () => {
    const address = "2001:db8:c4:1::1";
    const opened = await initializeFrom("anon", address);
    const sessionId = opened.headers.get("mcp-session-id") as string;
    const streams = [await listen("anon", address), await listen("anon", address)];
    const get = await send("anon", {
      method: "GET",
      headers: { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25", accept: "text/event-stream", "cf-connecting-ip": address },
    });
    expect([...streams, get].map((r) => r.status)).toEqual([200, 200, 200]);
    expect(get.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const over = await listen("anon", address, 4);
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ id: 4, error: { code: -31429, data: { quota: "streams", perPrincipal: 3 } } });
    // The GET stream's place is freed when it closes.
    const reader = sseReader(get);
    await reader.cancel();
    let again = await listen("anon", address, 5);
    for (let tries = 0; again.status === 429 && tries < 20; tries++) {
      await again.text();
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = await listen("anon", address, 5);
    }
    expect(again.status).toBe(200);
    for (const response of [...streams, again]) await response.body?.cancel();
  }, 30_000);
});
