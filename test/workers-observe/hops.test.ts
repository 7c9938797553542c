// GET and DELETE traced like POST, and the hops out of the Worker as child spans: forwarding to a
// session object (whose work, a tool service's span, joins the same trace), a task object, and a
// publish to the notifications hub.
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { describe, expect, it, vi } from "vitest";
import { WITH_TASKS, resultOf, send } from "../workers-admission/fixture.ts";
import { clientSpan, modernCall, named, parentOf, serverSpan, spanExporter, spansOf } from "./span-exporter.ts";

spanExporter();

let nextId = 1;

/** Opens a 2025-11-25 session of initech under the client's trace (header); returns its id. */
async function openSession(traceparent: string): Promise<string> {
  const response = await send("initech", {
    body: {
      jsonrpc: "2.0",
      id: nextId++,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    },
    headers: { traceparent },
  });
  await response.text();
  const sessionId = response.headers.get("mcp-session-id");
  expect(sessionId).not.toBeNull();
  return sessionId as string;
}

const sessionHeaders = (sessionId: string, traceparent: string) => ({ "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25", traceparent });

describe("GET and DELETE are traced", () => {
  it("gives a session's GET stream and its DELETE a server span each, with a hop into the session object", async () => {
    const sessionId = await openSession(clientSpan().traceparent);

    const get = clientSpan();
    const stream = await send("initech", { method: "GET", headers: { ...sessionHeaders(sessionId, get.traceparent), accept: "text/event-stream" } });
    expect(stream.status).toBe(200);
    await stream.body?.cancel();
    const getSpans = await spansOf(get.traceId, 2);
    const getRoot = serverSpan(getSpans);
    expect(getRoot.name).toBe("GET /t/initech/mcp");
    expect(parentOf(getRoot)).toBe(get.spanId);
    expect(getRoot.attributes).toMatchObject({
      "http.request.method": "GET",
      "http.response.status_code": 200,
      "edge_mcp.tenant": "initech",
      "edge_mcp.admission": "admitted",
    });
    expect(getRoot.attributes["mcp.method.name"]).toBeUndefined();
    // The session id is a credential: a digest of it, never the id.
    expect(getRoot.attributes["mcp.session.id"]).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(getRoot.attributes)).not.toContain(sessionId);
    expect(getRoot.attributes["edge_mcp.caller"]).toMatch(/^[0-9a-f]{16}$/);
    const getHop = named(getSpans, "edge_mcp.session.forward");
    expect(getHop?.kind).toBe(SpanKind.CLIENT);
    expect(parentOf(getHop)).toBe(getRoot.spanContext().spanId);

    const del = clientSpan();
    const deleted = await send("initech", { method: "DELETE", headers: sessionHeaders(sessionId, del.traceparent) });
    expect(deleted.status).toBeLessThan(300);
    const delSpans = await spansOf(del.traceId, 2);
    const delRoot = serverSpan(delSpans);
    expect(delRoot.name).toBe("DELETE /t/initech/mcp");
    expect(delRoot.attributes).toMatchObject({ "http.request.method": "DELETE", "http.response.status_code": deleted.status });
    expect(delRoot.attributes["mcp.session.id"]).toBe(getRoot.attributes["mcp.session.id"]);
    expect(parentOf(named(delSpans, "edge_mcp.session.forward"))).toBe(delRoot.spanContext().spanId);
  });

  it("records a GET of an unknown session as failed at the hop, and a GET without a session (405) as a failed span", async () => {
    const unknown = clientSpan();
    const response = await send("initech", {
      method: "GET",
      headers: { ...sessionHeaders("not-a-session", unknown.traceparent), accept: "text/event-stream" },
    });
    expect(response.status).toBe(404);
    const spans = await spansOf(unknown.traceId, 2);
    expect(serverSpan(spans).status.code).toBe(SpanStatusCode.ERROR);
    expect(named(spans, "edge_mcp.session.forward")?.status.code).toBe(SpanStatusCode.ERROR);

    const bare = clientSpan();
    const refused = await send("initech", { method: "GET", headers: { accept: "text/event-stream", traceparent: bare.traceparent } });
    expect(refused.status).toBe(405);
    const root = serverSpan(await spansOf(bare.traceId, 1));
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
    expect(root.attributes).toMatchObject({ "http.response.status_code": 405, "error.type": "-32600" });
  });

  it("records an unauthenticated GET (401) as refused", async () => {
    const client = clientSpan();
    const response = await send("acme", { method: "GET", headers: { accept: "text/event-stream", traceparent: client.traceparent } });
    expect(response.status).toBe(401);
    const root = serverSpan(await spansOf(client.traceId, 2));
    expect(root.name).toBe("GET /t/acme/mcp");
    expect(root.attributes).toMatchObject({ "edge_mcp.admission": "refused", "http.response.status_code": 401 });
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe("hops into objects are child spans", () => {
  it("forwards a session's tools/call under a hop span, and the session's tool service joins the trace under it", async () => {
    const sessionId = await openSession(clientSpan().traceparent);
    const client = clientSpan();
    const answer = await resultOf(
      await send("initech", {
        body: { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "remote_crunch", arguments: {} } },
        headers: sessionHeaders(sessionId, client.traceparent),
      }),
    );
    const spans = await spansOf(client.traceId, 4, (found) => named(found, "crunch in the service") !== undefined);
    const root = serverSpan(spans);
    expect(root.name).toBe("tools/call remote_crunch");
    const hop = named(spans, "edge_mcp.session.forward");
    expect(hop?.attributes).toMatchObject({ "edge_mcp.hop": "session", "http.request.method": "POST", "http.response.status_code": 200 });
    // The hop runs under the request's span (the tool's, for a tool call); the object's work under the hop.
    expect([root.spanContext().spanId, named(spans, "execute_tool remote_crunch")?.spanContext().spanId]).toContain(parentOf(hop));
    expect(parentOf(named(spans, "crunch in the service"))).toBe(hop?.spanContext().spanId);
    expect(answer.result?.content[0]?.text).toBe(`traceparent 00-${client.traceId}-${hop?.spanContext().spanId}-01`);
  });

  it("creates a task under a hop span into the task object", async () => {
    const client = clientSpan();
    const response = await modernCall("slow_report", client.traceparent, {}, WITH_TASKS);
    const answer = await resultOf(response);
    expect(answer.result, JSON.stringify(answer)).toMatchObject({ resultType: "task" });
    const spans = await spansOf(client.traceId, 3, (found) => named(found, "edge_mcp.task.create") !== undefined);
    // initech has no authorizer and no rate limit: admission did no work, so it is an attribute, not a span.
    expect(named(spans, "edge_mcp.admission")).toBeUndefined();
    expect(serverSpan(spans).attributes["edge_mcp.admission"]).toBe("admitted");
    const hop = named(spans, "edge_mcp.task.create");
    expect(hop?.kind).toBe(SpanKind.CLIENT);
    expect(hop?.attributes["edge_mcp.hop"]).toBe("task");
    expect(hop?.status.code).toBe(SpanStatusCode.UNSET);
    expect(parentOf(hop)).toBe(named(spans, "execute_tool slow_report")?.spanContext().spanId);
  });

  it("publishes a change to the notifications hub under a hop span", async () => {
    const client = clientSpan();
    const answer = await resultOf(await modernCall("touch", client.traceparent));
    expect(answer.result?.content[0]?.text, JSON.stringify(answer)).toBe("touched");
    const spans = await spansOf(client.traceId, 4, (found) => named(found, "edge_mcp.hub.publish") !== undefined);
    const hop = named(spans, "edge_mcp.hub.publish");
    expect(hop?.attributes).toMatchObject({ "edge_mcp.hop": "hub", "mcp.method.name": "notifications/resources/updated" });
    expect(parentOf(hop)).toBe(named(spans, "execute_tool touch")?.spanContext().spanId);
  });

  it("traces the hub's own fan-out under the publish hop", async () => {
    const client = clientSpan();
    const answer = await resultOf(await modernCall("touch", client.traceparent));
    expect(answer.result?.content[0]?.text, JSON.stringify(answer)).toBe("touched");
    const spans = await spansOf(
      client.traceId,
      5,
      (found) => named(found, "edge_mcp.hub.fanout") !== undefined && named(found, "edge_mcp.hub.publish") !== undefined,
    );
    const fanout = named(spans, "edge_mcp.hub.fanout");
    expect(parentOf(fanout)).toBe(named(spans, "edge_mcp.hub.publish")?.spanContext().spanId);
    expect(fanout?.kind).toBe(SpanKind.INTERNAL);
    expect(fanout?.attributes).toMatchObject({ "edge_mcp.hop": "hub", "mcp.method.name": "notifications/resources/updated" });
    expect(typeof fanout?.attributes["edge_mcp.hub.subscribers"]).toBe("number");
    expect(typeof fanout?.attributes["edge_mcp.hub.coalesced"]).toBe("boolean");
    expect(fanout?.attributes["edge_mcp.hub.seq"]).toBeGreaterThan(0);
  });

  it("traces the notification the hub sends when a coalescing window closes, under the hop of the publish it held back", async () => {
    // Changes published together fall into one window: the first goes out at once, the last held back goes
    // out when the window closes. Retried in the rare case that no two publishes met in one window.
    const found = await vi.waitFor(
      async () => {
        const clients = [clientSpan(), clientSpan(), clientSpan(), clientSpan()];
        await Promise.all(clients.map(async (client) => (await modernCall("touch", client.traceparent)).text()));
        const traces = await Promise.all(clients.map((client) => spansOf(client.traceId, 4, (spans) => named(spans, "edge_mcp.hub.fanout") !== undefined)));
        const held = traces.filter((spans) => named(spans, "edge_mcp.hub.fanout")?.attributes["edge_mcp.hub.coalesced"] === true);
        if (held.length === 0) throw new Error("no publish was held back");
        // Only the last publish held back in a window is sent when it closes: one of them carries the span.
        const sent = await vi.waitFor(() => {
          const spans = spanExporter().getFinishedSpans();
          const trace = held.find((mine) =>
            spans.some((span) => span.name === "edge_mcp.hub.coalesced_send" && span.spanContext().traceId === mine[0]?.spanContext().traceId),
          );
          if (!trace) throw new Error("the window has not closed yet");
          return {
            trace,
            send: spans.find((span) => span.name === "edge_mcp.hub.coalesced_send" && span.spanContext().traceId === trace[0]?.spanContext().traceId),
          };
        });
        return sent;
      },
      { timeout: 30_000, interval: 0 },
    );
    expect(parentOf(found.send)).toBe(named(found.trace, "edge_mcp.hub.publish")?.spanContext().spanId);
    expect(found.send?.kind).toBe(SpanKind.INTERNAL);
    expect(found.send?.attributes).toMatchObject({ "edge_mcp.hop": "hub", "mcp.method.name": "notifications/resources/updated" });
    expect(found.send?.attributes["edge_mcp.hub.seq"]).toBeGreaterThan(0);
  });
});
