// The demo (root wrangler.toml) under `wrangler dev` with OTEL_EXPORTER_OTLP_ENDPOINT set and nothing else:
// a client's call with a traceparent arrives at a local OTLP/HTTP receiver as spans of that trace.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { attribute, startOtlpReceiver, type OtlpReceiver } from "./otlp-receiver.ts";
import { startWranglerDev, type WranglerDev } from "./wrangler-dev.ts";

let receiver: OtlpReceiver;
let demo: WranglerDev;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  demo = await startWranglerDev({
    name: "demo with OTLP export",
    vars: {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20collector-token",
      OTEL_SERVICE_NAME: "demo-under-test",
    },
  });
}, 90_000);

afterAll(async () => {
  await demo?.stop();
  await receiver?.close();
});

const hex = (bytes: number) => [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");

describe("OTLP export from wrangler dev", () => {
  it("exports the spans of a traced tools/call to the collector, in the client's trace", async () => {
    const traceId = hex(16);
    const parent = hex(8);
    const response = await fetch(`${demo.baseUrl}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "add",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: {
          name: "add",
          arguments: { a: 2, b: 40 },
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            traceparent: `00-${traceId}-${parent}-01`,
          },
        },
      }),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("42");

    const spans = await vi.waitFor(
      () => {
        const mine = receiver.spans().filter((span) => span.traceId === traceId);
        if (mine.length < 2) throw new Error(`${mine.length} spans of the trace so far`);
        return mine;
      },
      { timeout: 20_000, interval: 100 },
    );
    const root = spans.find((span) => span.kind === 2);
    expect(root?.name).toBe("tools/call add");
    expect(root?.parentSpanId).toBe(parent);
    expect(root?.service).toBe("demo-under-test");
    expect(attribute(root!, "mcp.method.name")).toBe("tools/call");
    expect(attribute(root!, "jsonrpc.request.id")).toBe("7");
    expect(attribute(root!, "edge_mcp.tenant")).toBe("default");
    expect(BigInt(root!.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(root!.startTimeUnixNano));
    // The demo has no authorizer or rate limiter: admission did no work, so it is the request span's attribute, not a span.
    expect(spans.map((span) => span.name).sort()).toEqual(["execute_tool add", "tools/call add"]);
    expect(attribute(root!, "edge_mcp.admission")).toBe("admitted");
    expect(spans.filter((span) => span !== root).every((span) => span.parentSpanId === root?.spanId)).toBe(true);
    expect(receiver.headers().every((headers) => headers["authorization"] === "Bearer collector-token")).toBe(true);
  });
});
