// Code mode's inner calls observed like direct calls: each tools.x(...) of a program gets its own span
// (a child of execute's) and its own usage record (method tools/call, its tool, its outcome, via code_mode).
import { env } from "cloudflare:workers";
import { SpanStatusCode } from "@opentelemetry/api";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resultOf, send } from "../workers-admission/fixture.ts";
import { clientSpan, modernCall, named, parentOf, serverSpan, spanExporter, spansOf } from "./span-exporter.ts";

spanExporter();
const dataset = (env as unknown as { MCP_USAGE: AnalyticsEngineDataset }).MCP_USAGE;

afterEach(() => {
  vi.restoreAllMocks();
});

const execute = (code: string, traceparent: string): Promise<Response> => modernCall("execute", traceparent, { code });

describe("code mode's inner calls", () => {
  it("gives each inner call a span under execute's and a usage record of its own", async () => {
    const write = vi.spyOn(dataset, "writeDataPoint");
    const client = clientSpan();
    const reply = await resultOf(
      await execute(
        `const a = await tools.add({ a: 1, b: 2 });
         const b = await tools.add({ a: "x" }).catch((e) => "failed");
         const c = await tools.no_such_tool({}).catch((e) => "unknown");
         return [a, b, c];`,
        client.traceparent,
      ),
    );
    expect(reply.result?.isError, JSON.stringify(reply)).toBeUndefined();

    const inner = (spans: Awaited<ReturnType<typeof spansOf>>) => spans.filter((span) => span.attributes["edge_mcp.via"] === "code_mode");
    const spans = await spansOf(client.traceId, 5, (found) => inner(found).length === 3);
    const execute_ = named(spans, "execute_tool execute");
    expect(parentOf(execute_)).toBe(serverSpan(spans).spanContext().spanId);
    // Picked by what they are, not by start time: workerd's clock stands still between I/O, so two inner calls can start at one instant.
    const calls = inner(spans);
    const ok = calls.find((span) => span.name === "execute_tool add" && span.attributes["error.type"] === undefined);
    const toolError = calls.find((span) => span.name === "execute_tool add" && span.attributes["error.type"] !== undefined);
    const unknown = calls.find((span) => span.name !== "execute_tool add");
    for (const span of [ok, toolError, unknown]) expect(parentOf(span)).toBe(execute_?.spanContext().spanId);
    expect(ok?.name).toBe("execute_tool add");
    expect(ok?.attributes).toMatchObject({ "gen_ai.tool.name": "add", "edge_mcp.admission": "admitted" });
    expect(ok?.status.code).toBe(SpanStatusCode.UNSET);
    expect(toolError?.attributes["error.type"]).toBe("tool_error");
    expect(toolError?.status.code).toBe(SpanStatusCode.ERROR);
    expect(unknown?.name).toBe("execute_tool no_such_tool");
    expect(unknown?.attributes).toMatchObject({ "edge_mcp.admission": "refused", "error.type": "-32602" });

    // Usage: execute's own record and one per admitted inner call (the unknown tool was refused by admission).
    const points = await vi.waitFor(
      () => {
        const found = write.mock.calls.map((args) => args[0] as AnalyticsEngineDataPoint).filter((point) => point.indexes?.[0] === "initech");
        if (found.length < 3) throw new Error(`${found.length} data points so far`);
        return found;
      },
      { timeout: 10_000, interval: 20 },
    );
    const rows = points.map((point) => [point.blobs?.[2], point.blobs?.[3], point.blobs?.[4], point.blobs?.[7]]);
    expect(rows).toEqual([
      ["tools/call", "execute", "ok", "direct"],
      ["tools/call", "add", "ok", "code_mode"],
      ["tools/call", "add", "tool_error", "code_mode"],
    ]);
    // The inner records carry the caller of the request that ran the program.
    expect(new Set(points.map((point) => point.blobs?.[1])).size).toBe(1);
  });

  it("runs a tool service called from a program under that inner call's span, not under execute's", async () => {
    const client = clientSpan();
    const reply = await resultOf(await execute("return await tools.remote_crunch({});", client.traceparent));
    expect(reply.result?.isError, JSON.stringify(reply)).toBeUndefined();
    const spans = await spansOf(
      client.traceId,
      4,
      (found) => named(found, "crunch in the service") !== undefined && named(found, "execute_tool remote_crunch") !== undefined,
    );
    const inner = named(spans, "execute_tool remote_crunch");
    expect(parentOf(inner)).toBe(named(spans, "execute_tool execute")?.spanContext().spanId);
    expect(parentOf(named(spans, "crunch in the service"))).toBe(inner?.spanContext().spanId);
    // The service was handed the inner call's span as its parent.
    expect(JSON.stringify(reply.result)).toContain(`00-${client.traceId}-${inner?.spanContext().spanId}-01`);
  });

  it("observes the inner calls of a 2025 session's program (run in the session object) like a stateless request's", async () => {
    const write = vi.spyOn(dataset, "writeDataPoint");
    const opened = await send("initech", {
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
    });
    await opened.text();
    const sessionId = opened.headers.get("mcp-session-id") as string;
    expect(sessionId).toBeTruthy();
    const client = clientSpan();
    const reply = await resultOf(
      await send("initech", {
        body: {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: {
            name: "execute",
            arguments: { code: `const a = await tools.add({ a: 1, b: 2 }); const r = await tools.remote_crunch({}); return [a, r];` },
          },
        },
        headers: { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25", traceparent: client.traceparent },
      }),
    );
    expect(reply.result?.isError, JSON.stringify(reply)).toBeUndefined();

    const inner = (spans: Awaited<ReturnType<typeof spansOf>>) => spans.filter((span) => span.attributes["edge_mcp.via"] === "code_mode");
    const spans = await spansOf(client.traceId, 6, (found) => inner(found).length === 2 && named(found, "crunch in the service") !== undefined);
    // Under the hop into the session object, where the program ran.
    const hop = named(spans, "edge_mcp.session.forward");
    const add = named(spans, "execute_tool add");
    const crunch = named(spans, "execute_tool remote_crunch");
    expect(parentOf(add)).toBe(hop?.spanContext().spanId);
    expect(parentOf(crunch)).toBe(hop?.spanContext().spanId);
    expect(add?.attributes).toMatchObject({ "gen_ai.tool.name": "add", "edge_mcp.admission": "admitted", "edge_mcp.via": "code_mode" });
    expect(parentOf(named(spans, "crunch in the service"))).toBe(crunch?.spanContext().spanId);

    // Usage: the session's execute (written by the Worker) and one record per inner call (written by the session object).
    const points = await vi.waitFor(
      () => {
        const found = write.mock.calls
          .map((args) => args[0] as AnalyticsEngineDataPoint)
          .filter((point) => point.indexes?.[0] === "initech" && point.blobs?.[2] === "tools/call");
        if (found.length < 3) throw new Error(`${found.length} data points so far`);
        return found;
      },
      { timeout: 10_000, interval: 20 },
    );
    const rows = points.map((point) => [point.blobs?.[3], point.blobs?.[4], point.blobs?.[6], point.blobs?.[7]]).sort();
    expect(rows).toEqual([
      ["add", "ok", "session", "code_mode"],
      ["execute", "ok", "session", "direct"],
      ["remote_crunch", "ok", "session", "code_mode"],
    ]);
    expect(new Set(points.map((point) => point.blobs?.[1])).size).toBe(1);
  });
});

describe("an inner call still running when the wall time ends the run", () => {
  it("is metered when it ends: the request's record and one for the inner call, via code_mode", async () => {
    const write = vi.spyOn(dataset, "writeDataPoint");
    const response = await send("hasty", {
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "execute",
          arguments: { code: `return await tools.pause({ ms: 800 });` },
          _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
        },
      },
      headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "execute" },
    });
    const reply = await resultOf(response);
    expect(reply.result?.content[0]?.text).toMatch(/did not finish within 300 ms/);
    const points = await vi.waitFor(
      () => {
        const found = write.mock.calls.map((args) => args[0] as AnalyticsEngineDataPoint).filter((point) => point.indexes?.[0] === "hasty");
        if (found.length < 2) throw new Error(`${found.length} data points so far`);
        return found;
      },
      { timeout: 5_000, interval: 20 },
    );
    expect(points.map((point) => [point.blobs?.[3], point.blobs?.[7]])).toEqual([
      ["execute", "direct"],
      ["pause", "code_mode"],
    ]);
  });
});
