// The OTLP JSON edge-mcp writes by hand (a span's text when it ends, the export's bytes), decoded and
// checked against what OTLP/HTTP JSON says, strings that need escaping and the kept fragments included.
import { describe, expect, it } from "vitest";
import { SpanBytes } from "../../../../src/observe/otlp/otlp-bytes.ts";
import { attributesJson, bodyEnds, nanos, statusJson } from "../../../../src/observe/otlp/otlp-json.ts";
import { RecordingTracer } from "../../../../src/observe/recording-tracer.ts";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN = "00f067aa0ba902b7";

type Decoded = { name: string; attributes: { key: string; value: Record<string, unknown> }[]; status: Record<string, unknown> } & Record<string, unknown>;

/** The body an export sends for a tracer's spans, decoded. */
function exported(tracer: RecordingTracer, serviceName = "svc"): { service: unknown; spans: Decoded[] } {
  const bytes = new SpanBytes(...bodyEnds(serviceName));
  bytes.add(tracer.spans);
  const body = JSON.parse(new TextDecoder().decode(bytes.take())) as {
    resourceSpans: { resource: { attributes: { value: { stringValue: unknown } }[] }; scopeSpans: { spans: Decoded[] }[] }[];
  };
  const resource = body.resourceSpans[0];
  return { service: resource?.resource.attributes[0]?.value.stringValue, spans: resource?.scopeSpans[0]?.spans ?? [] };
}

const NASTY = 'say "hi"\n\ttab \\ back \u0001 ctl \u2028 line é ü 😀 \ud800 lone';

describe("a span's OTLP JSON", () => {
  it("escapes names, keys and values with quotes, newlines, control characters and unicode, a lone surrogate kept as its escape", () => {
    const tracer = new RecordingTracer();
    const span = tracer.startSpan(`tools/call ${NASTY}`, { startTime: 1, attributes: { "gen_ai.tool.name": NASTY, [`k ${NASTY}`]: "v" } });
    span.setStatus({ code: 2, message: `boom: ${NASTY}` });
    span.end(2);
    const [decoded] = exported(tracer, NASTY).spans;
    expect(decoded?.name).toBe(`tools/call ${NASTY}`);
    expect(decoded?.attributes).toEqual([
      { key: "gen_ai.tool.name", value: { stringValue: NASTY } },
      { key: `k ${NASTY}`, value: { stringValue: "v" } },
    ]);
    expect(decoded?.status).toEqual({ code: 2, message: `boom: ${NASTY}` });
    expect(exported(tracer, NASTY).service).toBe(NASTY);
  });

  it("writes each request's values, not a kept one, for attributes whose values repeat", () => {
    const tracer = new RecordingTracer();
    for (const tool of ["add", 'quo"te', "add", "é"]) tracer.startSpan(`execute_tool ${tool}`, { attributes: { "gen_ai.tool.name": tool, n: 1 } }).end();
    const tools = exported(tracer).spans.map((span) => span.attributes[0]?.value["stringValue"]);
    expect(tools).toEqual(["add", 'quo"te', "add", "é"]);
  });

  it("writes the parent, the trace state, the kind from 1, integer nanoseconds, typed values and unset statuses", () => {
    const tracer = new RecordingTracer();
    const parent = tracer.start("parent", { startTime: 1_700_000_000_123.456 }, undefined, { traceparent: `00-${TRACE}-${SPAN}-01`, tracestate: "a=1" });
    parent.setAttributes({ int: 3, double: 1.5, yes: true, list: ["x", "y"], gone: undefined });
    parent.end(1_700_000_000_124);
    const [span] = exported(tracer).spans;
    expect(span).toEqual({
      traceId: TRACE,
      spanId: parent.spanContext().spanId,
      parentSpanId: SPAN,
      traceState: "a=1",
      name: "parent",
      kind: 1,
      startTimeUnixNano: "1700000000123456000",
      endTimeUnixNano: "1700000000124000000",
      attributes: [
        { key: "int", value: { intValue: 3 } },
        { key: "double", value: { doubleValue: 1.5 } },
        { key: "yes", value: { boolValue: true } },
        { key: "list", value: { arrayValue: { values: [{ stringValue: "x" }, { stringValue: "y" }] } } },
      ],
      status: {},
    });
  });
});

describe("the pieces", () => {
  it("converts milliseconds to nanoseconds as text, the same time twice and times that differ", () => {
    expect(nanos(1000)).toBe('"1000000000"');
    expect(nanos(1000)).toBe('"1000000000"');
    expect(nanos(1002.5)).toBe('"1002500000"');
  });

  it("writes statuses: unset as {}, an error with and without its message", () => {
    expect(statusJson({ code: 0 })).toBe("{}");
    expect(JSON.parse(statusJson({ code: 2 }))).toEqual({ code: 2 });
    expect(JSON.parse(statusJson({ code: 2, message: 'a "b"' }))).toEqual({ code: 2, message: 'a "b"' });
  });

  it("writes no members for no attributes", () => {
    expect(attributesJson({})).toBe("");
  });
});

describe("an export's bytes", () => {
  it("is a valid body with no span, one, and many after growing past its first size, and empties when taken", () => {
    const bytes = new SpanBytes(...bodyEnds("svc"));
    const decode = () => JSON.parse(new TextDecoder().decode(bytes.take())) as { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] };
    expect(decode().resourceSpans[0]?.scopeSpans[0]?.spans).toEqual([]);
    bytes.add(['{"name":"one"}']);
    expect(bytes.count).toBe(1);
    expect(decode().resourceSpans[0]?.scopeSpans[0]?.spans).toEqual([{ name: "one" }]);
    expect(bytes.count).toBe(0);
    const big = Array.from({ length: 300 }, (_, i) => JSON.stringify({ name: `span ${i} ${"ü".repeat(500)}` }));
    for (let i = 0; i < big.length; i += 2) bytes.add(big.slice(i, i + 2));
    expect(bytes.count).toBe(300);
    expect(bytes.size).toBeGreaterThan(64 * 1024);
    expect(decode().resourceSpans[0]?.scopeSpans[0]?.spans).toEqual(big.map((text) => JSON.parse(text) as unknown));
    bytes.add(['{"name":"after"}']);
    expect(decode().resourceSpans[0]?.scopeSpans[0]?.spans).toEqual([{ name: "after" }]);
  });
});
