// The observer of observability() with nothing configured (no OTLP endpoint, no usage sink, no
// registered tracer provider): it builds no spans, yet still passes the client's trace context on.
import { ProxyTracer, trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Admission } from "../../src/core/admission.ts";
import { newTrace, type AdmittedPost } from "../../src/http/admitted.ts";
import { createObserver } from "../../src/observe/mcp-observer.ts";

const CLIENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

const admission = { tenant: "default", principal: undefined, caller: "anonymous", quotaHolder: "anonymous" } as unknown as Admission;

/** Runs one admitted tools/call through an observation; returns what it hands on. */
function observe(observer: ReturnType<typeof createObserver>, params: unknown, headers: Record<string, string> = {}) {
  const request = new Request("https://mcp.example/mcp", { method: "POST", headers });
  const trace_ = newTrace();
  trace_.method = "tools/call";
  trace_.target = "add";
  trace_.params = params;
  const observation = observer.begin(request, trace_, "default");
  const admitted = { admission, text: "{}", message: undefined, info: undefined, tool: undefined, newSession: undefined } as unknown as AdmittedPost;
  const handedOn = observation?.admitted(admitted);
  const waited: Promise<unknown>[] = [];
  observation?.end(200, undefined, (promise) => waited.push(promise));
  return { handedOn, trace: trace_, waited };
}

afterEach(() => {
  trace.disable();
  vi.restoreAllMocks();
});

describe("observer with nothing to record", () => {
  it("starts no span and defers no work", () => {
    const startSpan = vi.spyOn(ProxyTracer.prototype, "startSpan");
    const { handedOn, waited } = observe(createObserver({}), { name: "add" });
    expect(startSpan).not.toHaveBeenCalled();
    expect(waited).toEqual([]);
    expect(handedOn).toBe(admission);
  });

  it("still hands on the client's trace context, from _meta or the traceparent header", () => {
    const fromMeta = observe(createObserver({}), { name: "add", _meta: { traceparent: CLIENT, tracestate: "a=1" } });
    expect(fromMeta.handedOn).toEqual({ ...admission, trace: { traceparent: CLIENT, tracestate: "a=1" } });
    const fromHeader = observe(createObserver({}), { name: "add" }, { traceparent: CLIENT });
    expect(fromHeader.handedOn).toEqual({ ...admission, trace: { traceparent: CLIENT } });
    expect(observe(createObserver({}), { name: "add", _meta: { traceparent: "not a traceparent" } }).handedOn).toBe(admission);
  });

  it("records as soon as a tracer provider is registered, even after the observer was built", async () => {
    const observer = createObserver({});
    expect(observe(observer, { name: "add" }).trace.traceId).toBeUndefined();
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    const { handedOn, trace: traced, waited } = observe(observer, { name: "add", _meta: { traceparent: CLIENT } });
    await Promise.all(waited);
    expect(traced.traceId).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(handedOn?.trace?.traceparent).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/);
    expect(exporter.getFinishedSpans().map((span) => span.name)).toContain("tools/call add");
  });
});
