// Legacy sessions on the session Durable Object: lifecycle, routing of client responses, resumability, isolation.
import { env } from "cloudflare:workers";
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { durableSessionGateway } from "../../src/workers/sessions/session-gateway.ts";
import { fetchMcp } from "./fixture.ts";
import { sseReader } from "./sse-reader.ts";
import { admission, principal } from "../admission.ts";

const sessions = (env as unknown as { MCP_SESSIONS: DurableObjectNamespace }).MCP_SESSIONS;
const stubOf = (id: string) => sessions.get(sessions.idFromString(id.split(".")[0] as string));

async function open(capabilities: Record<string, unknown> = {}): Promise<string> {
  const response = await fetchMcp("initialize", { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "t", version: "1" } }, {});
  expect(response.status).toBe(200);
  const id = response.headers.get("mcp-session-id");
  await response.text(); // an unread body keeps the request in flight
  expect(id).toMatch(/^[0-9a-f]{64}\.[A-Za-z0-9_-]{32}$/);
  return id as string;
}

function inSession(id: string, method: string, params: Record<string, unknown> = {}) {
  return fetchMcp(method, params, { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" });
}

function raw(id: string, init: RequestInit & { headers?: Record<string, string> }) {
  const worker = (globalThis as unknown as { __worker?: never }).__worker;
  void worker;
  return import("cloudflare:workers").then(({ exports }) =>
    (exports.default as unknown as { fetch(url: string, init: RequestInit): Promise<Response> }).fetch("http://127.0.0.1:8788/mcp", {
      ...init,
      headers: {
        "mcp-session-id": id,
        "mcp-protocol-version": "2025-11-25",
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        ...init.headers,
      },
    }),
  );
}

describe("session lifecycle", () => {
  it("requires Mcp-Session-Id on 2025 requests, answers 404 for unknown, forged and deleted ids", async () => {
    const missing = await fetchMcp("ping", {}, { "mcp-protocol-version": "2025-11-25" });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/Mcp-Session-Id/) } });
    expect((await inSession("f".repeat(64), "ping")).status).toBe(404);
    expect((await inSession("not-a-session", "ping")).status).toBe(404);
    const id = await open();
    // The right object with a wrong secret is no session.
    expect((await inSession(`${id.split(".")[0]}.${"A".repeat(32)}`, "ping")).status).toBe(404);
    expect(await (await inSession(id, "ping")).json()).toMatchObject({ result: {} });
    expect((await raw(id, { method: "DELETE" })).status).toBe(204);
    expect((await inSession(id, "ping")).status).toBe(404);
    expect((await raw(id, { method: "GET", headers: { accept: "text/event-stream" } })).status).toBe(404);
  });

  it("answers a session GET whose Accept lacks text/event-stream with 406 and a JSON-RPC error", async () => {
    const id = await open();
    for (const accept of ["application/json", "text/html"]) {
      const refused = await raw(id, { method: "GET", headers: { accept } });
      expect(refused.status).toBe(406);
      expect(await refused.json()).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/text\/event-stream/) } });
    }
    expect((await raw(id, { method: "DELETE" })).status).toBe(204);
  });

  it("accepts any supported MCP-Protocol-Version header within a session", async () => {
    const id = await open();
    const response = await fetchMcp("tools/list", {}, { "mcp-session-id": id, "mcp-protocol-version": "2025-03-26" });
    expect(response.status).toBe(200);
  });

  it("survives the Durable Object being evicted, keeping what the client set", async () => {
    const id = await open();
    await (await inSession(id, "logging/setLevel", { level: "error" })).text();
    await evictDurableObject(stubOf(id));
    const record = await runInDurableObject(stubOf(id), (_instance, state) => state.storage.get<{ logLevel: string }>("session"));
    expect(record?.logLevel).toBe("error");
    const reply = await inSession(id, "tools/call", { name: "test_tool_with_logging", arguments: {} });
    // Level error: the tool's info messages are not sent, so the answer is plain JSON.
    expect(reply.headers.get("content-type")).toBe("application/json");
  });

  it("makes its events table on the first streamed event only, and not again once deleted", async () => {
    const id = await open();
    const tables = () =>
      runInDurableObject(
        stubOf(id),
        (_instance, state) =>
          state.storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'events'").toArray().length,
      );
    await (await inSession(id, "tools/call", { name: "test_simple_text", arguments: {} })).text();
    expect(await tables()).toBe(0);
    const streamed = await inSession(id, "tools/call", { name: "test_tool_with_progress", arguments: {}, _meta: { progressToken: "p" } });
    expect(streamed.headers.get("content-type")).toBe("text/event-stream");
    await streamed.text();
    expect(await tables()).toBe(1);
    expect((await raw(id, { method: "DELETE" })).status).toBe(204);
    expect(await tables()).toBe(0);
  });

  it("expires after the idle time: the alarm deletes it", async () => {
    const id = await open();
    await runInDurableObject(stubOf(id), async (_instance, state) => {
      const record = await state.storage.get<Record<string, unknown>>("session");
      await state.storage.put("session", { ...record, lastSeen: Date.now() - 31 * 60_000 });
    });
    await evictDurableObject(stubOf(id));
    expect(await runDurableObjectAlarm(stubOf(id))).toBe(true);
    expect((await inSession(id, "ping")).status).toBe(404);
  });

  it("refuses a session id presented for another tenant or principal", async () => {
    const id = await open();
    const gateway = durableSessionGateway(sessions);
    const request = new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    });
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    expect((await gateway.forward(id, request, body, admission("tenant-b", principal("bob")), undefined)).status).toBe(404);
    expect((await gateway.forward(id, request, body, admission("default", principal("bob")), undefined)).status).toBe(404);
    expect((await gateway.forward(id, request, body, admission("default"), undefined)).status).toBe(200);
  });
});

describe("server→client requests", () => {
  it("routes the client's response, sent in a separate POST, to the waiting tool call", async () => {
    const id = await open({ elicitation: {} });
    const call = sseReader(await inSession(id, "tools/call", { name: "test_elicitation", arguments: { message: "Who are you?" } }));
    expect((await call.next())?.data).toBeUndefined(); // priming event
    const request = (await call.next())?.data as { id: string; method: string; params: Record<string, unknown> };
    expect(request).toMatchObject({ method: "elicitation/create", params: { message: "Who are you?" } });
    const answer = await raw(id, {
      method: "POST",
      body: JSON.stringify({ jsonrpc: "2.0", id: request.id, result: { action: "accept", content: { username: "ada", email: "ada@example.com" } } }),
    });
    expect(answer.status).toBe(202);
    const result = (await call.next())?.data;
    expect(result).toMatchObject({ result: { content: [{ type: "text", text: expect.stringMatching(/action=accept.*ada/) }] } });
    expect(await call.next()).toBeUndefined();
  });

  it("treats a malformed answer as no answer: the POST gets 400, the tool sees no content", async () => {
    for (const bad of [
      { action: "accept", content: "x" },
      { action: "accept", content: { username: 42 } },
      { action: "accept", content: { username: "ada", email: "not an address" } },
      { action: "maybe" },
    ]) {
      const id = await open({ elicitation: {} });
      const call = sseReader(await inSession(id, "tools/call", { name: "test_elicitation", arguments: { message: "Who are you?" } }));
      await call.next(); // priming event
      const request = (await call.next())?.data as { id: string };
      const answer = await raw(id, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: request.id, result: bad }) });
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(await answer.json()).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/does not answer its request/) } });
      const result = (await call.next())?.data as { result: { isError: boolean; content: { text: string }[] } };
      expect(result.result.isError).toBe(true);
      expect(result.result.content[0]?.text).toMatch(/malformed.*counts as no answer/);
      expect(await call.next()).toBeUndefined();
    }
  });

  it("refuses a response nobody waits for", async () => {
    const id = await open();
    const reply = await raw(id, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: "srv-404", result: {} }) });
    expect(reply.status).toBe(400);
  });

  it("answers an isError result when the client did not declare the capability", async () => {
    const id = await open({});
    const body = await (
      await inSession(id, "tools/call", { name: "test_sampling", arguments: { prompt: "hi" } })
    ).json<{ result: { isError: boolean; content: { text: string }[] } }>();
    expect(body.result.isError).toBe(true);
    expect(body.result.content[0]?.text).toMatch(/sampling\/createMessage.*did not declare/);
  });
});

describe("resumability and cancellation", () => {
  it("replays the events missed while disconnected when the client comes back with Last-Event-ID", async () => {
    const id = await open();
    const first = sseReader(await inSession(id, "tools/call", { name: "test_tool_with_progress", arguments: {}, _meta: { progressToken: "p" } }));
    const priming = await first.next();
    const progress0 = await first.next();
    expect(progress0?.data).toMatchObject({ method: "notifications/progress", params: { progress: 0 } });
    await first.cancel(); // the connection drops; in a session the tool goes on
    await new Promise((resolve) => setTimeout(resolve, 250));
    const resumed = sseReader(await raw(id, { method: "GET", headers: { accept: "text/event-stream", "last-event-id": progress0?.id as string } }));
    const events = await resumed.rest();
    expect(events.map((e) => (e.data?.["method"] as string | undefined) ?? "result")).toEqual(["notifications/progress", "notifications/progress", "result"]);
    expect(events.map((e) => e.id)).toEqual([2, 3, 4].map((n) => `${priming?.id?.split(".")[0]}.${n}`));
  });

  it("aborts the tool on notifications/cancelled and sends no result", async () => {
    const id = await open();
    const body = {
      jsonrpc: "2.0",
      id: "to-cancel",
      method: "tools/call",
      params: { name: "test_tool_with_progress", arguments: {}, _meta: { progressToken: "c" } },
    };
    const call = sseReader(await raw(id, { method: "POST", body: JSON.stringify(body) }));
    await call.next();
    await call.next(); // progress 0
    const cancelled = await raw(id, {
      method: "POST",
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "to-cancel", reason: "user stopped it" } }),
    });
    expect(cancelled.status).toBe(202);
    const rest = await call.rest();
    expect(rest.some((e) => e.data && "result" in e.data)).toBe(false);
  });

  it("refuses an unknown Last-Event-ID with 404", async () => {
    const id = await open();
    expect((await raw(id, { method: "GET", headers: { accept: "text/event-stream", "last-event-id": "nope.3" } })).status).toBe(404);
  });
});

describe("the standalone GET stream", () => {
  it("carries list changes and updates of subscribed resources, not of others", async () => {
    const id = await open();
    const stream = sseReader(await raw(id, { method: "GET", headers: { accept: "text/event-stream" } }));
    expect((await stream.next())?.data).toBeUndefined(); // priming event
    await (await inSession(id, "resources/subscribe", { uri: "test://watched-resource" })).text();
    await (await inSession(id, "tools/call", { name: "test_trigger_tool_change", arguments: {} })).text();
    expect((await stream.next())?.data).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: {} });
    await (await inSession(id, "tools/call", { name: "test_trigger_resource_update", arguments: { uri: "test://static-text" } })).text();
    await (await inSession(id, "tools/call", { name: "test_trigger_resource_update", arguments: { uri: "test://watched-resource" } })).text();
    expect((await stream.next())?.data).toEqual({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "test://watched-resource" } });
    await stream.cancel();
  });
});
