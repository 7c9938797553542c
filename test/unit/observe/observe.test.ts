// The pure parts of observability: W3C trace context, OTLP settings and JSON, usage data points, the view's gate.
import { describe, expect, it } from "vitest";
import { SpanBytes } from "../../../src/observe/otlp/otlp-bytes.ts";
import { otlpSettings } from "../../../src/observe/otlp/otlp-export.ts";
import { bodyEnds } from "../../../src/observe/otlp/otlp-json.ts";
import { RecordingTracer } from "../../../src/observe/recording-tracer.ts";
import { parseTraceparent, readTraceCarrier } from "../../../src/observe/trace-context.ts";
import { usageDataPoint, type UsageRecord } from "../../../src/observe/usage/usage-record.ts";
import { handleUsageView } from "../../../src/observe/usage/usage-view.ts";
import { renderUsagePage } from "../../../src/observe/usage/usage-page.ts";
import type { UsageReport } from "../../../src/observe/usage/usage-report.ts";
import { PendingRequests, createSessionInputs } from "../../../src/session/session-inputs.ts";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN = "00f067aa0ba902b7";

/** The OTLP body an export sends for these spans (each its JSON text), as text. */
function otlpBody(spans: readonly string[], serviceName: string): string {
  const bytes = new SpanBytes(...bodyEnds(serviceName));
  bytes.add(spans);
  return new TextDecoder().decode(bytes.take());
}

describe("W3C trace context", () => {
  it("parses a version 00 traceparent and its sampled flag", () => {
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-01`)).toEqual({ traceId: TRACE, spanId: SPAN, sampled: true });
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-00`)?.sampled).toBe(false);
  });

  it("refuses malformed, all-zero, version ff and upper-case values", () => {
    for (const bad of [
      "",
      "garbage",
      `00-${"0".repeat(32)}-${SPAN}-01`,
      `00-${TRACE}-${"0".repeat(16)}-01`,
      `ff-${TRACE}-${SPAN}-01`,
      `00-${TRACE.toUpperCase()}-${SPAN}-01`,
      `00-${TRACE}-${SPAN}-01-extra`,
      42,
      null,
    ]) {
      expect(parseTraceparent(bad)).toBeUndefined();
    }
    // A later version may add fields.
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-01-extra`)?.traceId).toBe(TRACE);
  });

  it("prefers _meta (SEP-414) over the headers, and falls back to the headers when _meta's is invalid", () => {
    const headers = new Headers({ traceparent: `00-${"1".repeat(32)}-${SPAN}-01`, tracestate: "a=1" });
    expect(readTraceCarrier({ _meta: { traceparent: `00-${TRACE}-${SPAN}-01`, tracestate: "k=v", baggage: "user=x" } }, headers)).toEqual({
      traceparent: `00-${TRACE}-${SPAN}-01`,
      tracestate: "k=v",
      baggage: "user=x",
    });
    expect(readTraceCarrier({ _meta: { traceparent: "nonsense" } }, headers)).toEqual({ traceparent: `00-${"1".repeat(32)}-${SPAN}-01`, tracestate: "a=1" });
    expect(readTraceCarrier({ _meta: { tracestate: 5 } }, new Headers())).toBeUndefined();
    expect(readTraceCarrier(undefined, new Headers())).toBeUndefined();
  });
});

describe("OTLP export", () => {
  it("reads the standard variables: endpoint + /v1/traces, URL-encoded headers, service name", () => {
    expect(otlpSettings({})).toBeUndefined();
    const settings = otlpSettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: "https://collector.example/",
      OTEL_EXPORTER_OTLP_HEADERS: "Authorization=Bearer%20abc, x-team = blue,broken,bad=%zz",
      OTEL_SERVICE_NAME: "billing-mcp",
    });
    expect(settings?.url).toBe("https://collector.example/v1/traces");
    expect({ ...settings?.headers }).toEqual({ authorization: "Bearer abc", "x-team": "blue" });
    expect(settings?.serviceName).toBe("billing-mcp");
    expect(otlpSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/custom" })?.url).toBe("http://127.0.0.1:4318/custom");
  });

  it("encodes spans as OTLP JSON with hex ids, the parent, nanosecond times and typed attributes", () => {
    const tracer = new RecordingTracer();
    const root = tracer.startSpan("tools/call add", { kind: 1, startTime: 1000, attributes: { "mcp.method.name": "tools/call", n: 3, d: 1.5, ok: true } });
    root.setStatus({ code: 2, message: "boom" });
    root.end(1002.5);
    const body = JSON.parse(otlpBody(tracer.spans, "svc")) as { resourceSpans: { resource: unknown; scopeSpans: { spans: Record<string, unknown>[] }[] }[] };
    const span = body.resourceSpans[0]?.scopeSpans[0]?.spans[0] as Record<string, unknown>;
    expect(span["traceId"]).toMatch(/^[0-9a-f]{32}$/);
    expect(span["spanId"]).toMatch(/^[0-9a-f]{16}$/);
    expect(span["kind"]).toBe(2); // SERVER in OTLP's numbering
    expect(span["startTimeUnixNano"]).toBe("1000000000");
    expect(span["endTimeUnixNano"]).toBe("1002500000");
    expect(span["status"]).toEqual({ code: 2, message: "boom" });
    expect(span["attributes"]).toEqual([
      { key: "mcp.method.name", value: { stringValue: "tools/call" } },
      { key: "n", value: { intValue: 3 } },
      { key: "d", value: { doubleValue: 1.5 } },
      { key: "ok", value: { boolValue: true } },
    ]);
  });
});

describe("OTLP JSON written by hand", () => {
  it("carries the parent, the client's trace state, strings that need escaping, arrays and unset attributes", () => {
    const tracer = new RecordingTracer();
    const parent = tracer.start("parent", {}, undefined, { traceparent: `00-${TRACE}-${SPAN}-01`, tracestate: "vendor=a,other=b" });
    const child = tracer.start(
      'child "quoted"\n',
      { kind: 2, startTime: 5, attributes: { list: ["a", "b"], nums: [1, 2.5], gone: undefined, 'k"ey': "v\u2028" } },
      parent,
    );
    child.end(6);
    parent.end(7);
    const body = JSON.parse(otlpBody(tracer.spans, 'svc "x"')) as {
      resourceSpans: { resource: { attributes: unknown[] }; scopeSpans: { scope: unknown; spans: Record<string, unknown>[] }[] }[];
    };
    expect(body.resourceSpans[0]?.resource.attributes).toEqual([{ key: "service.name", value: { stringValue: 'svc "x"' } }]);
    expect(body.resourceSpans[0]?.scopeSpans[0]?.scope).toEqual({ name: "edge-mcp" });
    const [first, second] = body.resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    expect(first).toEqual({
      traceId: TRACE,
      spanId: child.spanContext().spanId,
      parentSpanId: parent.spanContext().spanId,
      traceState: "vendor=a,other=b",
      name: 'child "quoted"\n',
      kind: 3,
      startTimeUnixNano: "5000000",
      endTimeUnixNano: "6000000",
      attributes: [
        { key: "list", value: { arrayValue: { values: [{ stringValue: "a" }, { stringValue: "b" }] } } },
        { key: "nums", value: { arrayValue: { values: [{ intValue: 1 }, { doubleValue: 2.5 }] } } },
        { key: 'k"ey', value: { stringValue: "v\u2028" } },
      ],
      status: {},
    });
    expect(second).toMatchObject({ traceId: TRACE, parentSpanId: SPAN, name: "parent", kind: 1 });
  });
});

describe("usage", () => {
  const record: UsageRecord = {
    tenant: "acme",
    caller: "0123456789abcdef",
    method: "tools/call",
    tool: "add",
    outcome: "-32602",
    errorCode: -32602,
    durationMs: 12,
    bytesIn: 100,
    bytesOut: 200,
    era: "modern",
    session: false,
    at: 0,
  };

  it("writes the documented Analytics Engine columns, indexed by tenant", () => {
    expect(usageDataPoint(record)).toEqual({
      blobs: ["acme", "0123456789abcdef", "tools/call", "add", "-32602", "modern", "stateless", "direct"],
      doubles: [1, 12, 100, 200, -32602],
      indexes: ["acme"],
    });
  });

  it("keeps the usage view off (404) without an admin token, whatever the request carries", async () => {
    const response = await handleUsageView(new Request("http://x/admin/usage?tenant=acme", { headers: { authorization: "Bearer " } }), undefined, undefined);
    expect(response.status).toBe(404);
  });

  it("escapes every value of the HTML page", () => {
    const report: UsageReport = {
      tenant: "<b>",
      from: "",
      to: "",
      by: "tool",
      total: { calls: 1, errors: 0, durationMs: 1, bytesIn: 0, bytesOut: 0 },
      hours: [],
      rows: [{ key: '<script>alert("x")</script>', calls: 1, errors: 0, durationMs: 1, bytesIn: 0, bytesOut: 0 }],
    };
    const html = renderUsagePage(report, { ...report, by: "caller" });
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;");
  });
});

describe("server→client requests in a session", () => {
  const ask = (trace: { traceparent: string; tracestate?: string } | undefined) => {
    const sent: string[] = [];
    const controller = new AbortController();
    const inputs = createSessionInputs({
      pending: new PendingRequests(),
      clientCapabilities: { elicitation: {} },
      send: (json) => sent.push(json),
      signal: () => controller.signal,
      timeoutMs: 60_000,
      trace,
    });
    const asked = inputs.request({ sure: { method: "elicitation/create", params: { message: "Sure?", requestedSchema: { type: "object", properties: {} } } } });
    asked.catch(() => undefined);
    controller.abort(new Error("done"));
    return JSON.parse(sent[0] as string) as { params: Record<string, unknown> };
  };

  it("carry the asking request's trace context in _meta (SEP-414)", () => {
    const traceparent = `00-${TRACE}-${SPAN}-01`;
    expect(ask({ traceparent, tracestate: "k=v" }).params["_meta"]).toEqual({ traceparent, tracestate: "k=v" });
  });

  it("carry no _meta when the request is not traced", () => {
    expect(ask(undefined).params["_meta"]).toBeUndefined();
  });
});
