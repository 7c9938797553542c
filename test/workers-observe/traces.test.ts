// Traces with a real OpenTelemetry SDK provider: span names and attributes after the MCP semantic
// conventions, the parent from _meta (SEP-414) or the traceparent header, one trace across a tool
// service, and refusals (401, 403, 429, -32602) as failed spans.
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { describe, expect, it, vi } from "vitest";
import { bearer, clearOfMinuteEnd, resultOf, send } from "../workers-admission/fixture.ts";
import { clientSpan, named, parentOf, serverSpan, spanExporter, spansOf } from "./span-exporter.ts";

const exporter = spanExporter();

const MODERN = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const hex = (bytes: number) => [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");

let nextId = 1;

/** A bearer token of a fresh caller of acme (rate limits count per caller and tool). */
const caller = () => bearer({ tenant: "acme", sub: `user-${hex(4)}` });

/** A 2026-07-28 tools/call of `tenant`, with `_meta` extras and headers. */
function call(tenant: string, name: string, args: object, options: { meta?: object; headers?: Record<string, string>; authorization?: string } = {}) {
  return send(tenant, {
    body: { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: args, _meta: { ...MODERN, ...options.meta } } },
    headers: {
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": name,
      ...(options.authorization === undefined ? {} : { authorization: options.authorization }),
      ...options.headers,
    },
  });
}

describe("traces", () => {
  it("names a tools/call span after its tool and parents it on the client's _meta.traceparent (SEP-414)", async () => {
    const client = clientSpan();
    const answer = await resultOf(await call("acme", "add", { a: 2, b: 3 }, { meta: { traceparent: client.traceparent }, authorization: await caller() }));
    expect(answer.result?.content[0]?.text).toBe("5");
    const spans = await spansOf(client.traceId);
    const root = serverSpan(spans);
    expect(root.name).toBe("tools/call add");
    expect(parentOf(root)).toBe(client.spanId);
    expect(root.status.code).toBe(SpanStatusCode.UNSET);
    expect(root.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "mcp.protocol.version": "2026-07-28",
      "gen_ai.tool.name": "add",
      "edge_mcp.tenant": "acme",
      "edge_mcp.era": "modern",
      "edge_mcp.admission": "admitted",
      "http.response.status_code": 200,
    });
    expect(root.attributes["jsonrpc.request.id"]).toMatch(/^\d+$/);
    // The caller id is a digest: the subject does not appear in it.
    expect(root.attributes["edge_mcp.caller"]).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(root.attributes)).not.toContain("user-");
    expect(parentOf(named(spans, "edge_mcp.admission"))).toBe(root.spanContext().spanId);
    expect(parentOf(named(spans, "execute_tool add"))).toBe(root.spanContext().spanId);
  });

  it("takes the parent from the W3C traceparent header when _meta has none, and prefers _meta when both do", async () => {
    const header = clientSpan();
    await call("acme", "add", { a: 1, b: 1 }, { headers: { traceparent: header.traceparent }, authorization: await caller() });
    expect(parentOf(serverSpan(await spansOf(header.traceId)))).toBe(header.spanId);

    const meta = clientSpan();
    const other = clientSpan();
    await call(
      "acme",
      "add",
      { a: 1, b: 1 },
      { meta: { traceparent: meta.traceparent }, headers: { traceparent: other.traceparent }, authorization: await caller() },
    );
    expect(parentOf(serverSpan(await spansOf(meta.traceId)))).toBe(meta.spanId);
  });

  it("writes the trace id in the access log line", async () => {
    const log = vi.spyOn(console, "log");
    try {
      const client = clientSpan();
      await (await call("acme", "add", { a: 1, b: 1 }, { meta: { traceparent: client.traceparent }, authorization: await caller() })).text();
      const lines = log.mock.calls.map((args) => String(args[0])).filter((line) => line.includes('"event":"mcp.request"'));
      expect(lines.some((line) => (JSON.parse(line) as { traceId?: string }).traceId === client.traceId)).toBe(true);
    } finally {
      log.mockRestore();
    }
  });

  it("starts a new trace when the traceparent is malformed", async () => {
    const before = exporter.getFinishedSpans().length;
    const response = await call("acme", "add", { a: 1, b: 1 }, { meta: { traceparent: "00-zz-not-a-trace" }, authorization: await caller() });
    expect(response.status).toBe(200);
    const root = await vi.waitFor(() => {
      const span = exporter
        .getFinishedSpans()
        .slice(before)
        .find((s) => s.kind === SpanKind.SERVER && s.name === "tools/call add");
      if (!span) throw new Error("no server span yet");
      return span;
    });
    expect(root.parentSpanContext).toBeUndefined();
  });

  it("keeps one trace across a service-bound tool: the service's span is a child of the tool's span", async () => {
    const client = clientSpan();
    const answer = await resultOf(await call("acme", "remote_crunch", {}, { meta: { traceparent: client.traceparent }, authorization: await caller() }));
    const spans = await spansOf(client.traceId, 4);
    const tool = named(spans, "execute_tool remote_crunch");
    expect(tool).toBeDefined();
    expect(parentOf(named(spans, "crunch in the service"))).toBe(tool?.spanContext().spanId);
    expect(answer.result?.content[0]?.text).toBe(`traceparent 00-${client.traceId}-${tool?.spanContext().spanId}-01`);
  });

  it("records a request without credentials (401) as a failed span with its status", async () => {
    const client = clientSpan();
    const response = await call("acme", "add", { a: 1, b: 1 }, { headers: { traceparent: client.traceparent } });
    expect(response.status).toBe(401);
    const spans = await spansOf(client.traceId, 2);
    const root = serverSpan(spans);
    expect(root.name).toBe("POST /t/acme/mcp");
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
    expect(root.attributes).toMatchObject({ "http.response.status_code": 401, "edge_mcp.admission": "refused", "edge_mcp.tenant": "acme" });
    expect(named(spans, "edge_mcp.admission")?.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("records a call without the tool's scope (403) as failed, with its JSON-RPC code", async () => {
    const client = clientSpan();
    const response = await call("acme", "invoice_total", {}, { meta: { traceparent: client.traceparent }, authorization: await caller() });
    expect(response.status).toBe(403);
    const { error } = await resultOf(response);
    const root = serverSpan(await spansOf(client.traceId, 2));
    expect(root.name).toBe("tools/call invoice_total");
    expect(parentOf(root)).toBe(client.spanId);
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
    expect(root.attributes).toMatchObject({ "http.response.status_code": 403, "rpc.jsonrpc.error_code": error?.code, "error.type": String(error?.code) });
  });

  it("records an unknown tool (-32602) as failed", async () => {
    const client = clientSpan();
    const { error } = await resultOf(await call("acme", "no_such_tool", {}, { meta: { traceparent: client.traceparent }, authorization: await caller() }));
    expect(error?.code).toBe(-32602);
    const root = serverSpan(await spansOf(client.traceId, 2));
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
    expect(root.attributes).toMatchObject({ "rpc.jsonrpc.error_code": -32602, "error.type": "-32602", "gen_ai.tool.name": "no_such_tool" });
  });

  it("records a tool result with isError (invalid arguments) as a tool_error on the server and tool spans", async () => {
    const client = clientSpan();
    const { result } = await resultOf(await call("acme", "add", { a: "two" }, { meta: { traceparent: client.traceparent }, authorization: await caller() }));
    expect(result?.isError).toBe(true);
    const spans = await spansOf(client.traceId);
    expect(serverSpan(spans).attributes["error.type"]).toBe("tool_error");
    expect(serverSpan(spans).status.code).toBe(SpanStatusCode.ERROR);
    expect(named(spans, "execute_tool add")?.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("records a call over the rate limit (429) as failed", { timeout: 30_000 }, async () => {
    await clearOfMinuteEnd(); // the limit's window is the clock minute: its count must not restart midway
    const authorization = await bearer({ tenant: "acme", sub: `limited-${hex(4)}` });
    let client = clientSpan();
    let response: Response | undefined;
    for (let i = 0; i < 6 && response?.status !== 429; i++) {
      client = clientSpan();
      response = await call("acme", "add", { a: 1, b: 1 }, { meta: { traceparent: client.traceparent }, authorization });
      await response.text();
    }
    expect(response?.status).toBe(429);
    const root = serverSpan(await spansOf(client.traceId, 2));
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
    expect(root.attributes).toMatchObject({ "http.response.status_code": 429, "rpc.jsonrpc.error_code": -31429, "edge_mcp.admission": "refused" });
  });
});
