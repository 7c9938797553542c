// The observer of observability() with nothing configured (no OTLP endpoint, no usage sink, no
// registered tracer provider): it observes nothing until a provider is registered.
import { ProxyTracer, trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Admission } from "../../../src/core/admission.ts";
import { newTrace, type AdmittedPost } from "../../../src/http/admission/admitted.ts";
import { createObserver } from "../../../src/observe/mcp-observer.ts";

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
  it("observes nothing: the request takes the path of a Worker without observability()", () => {
    const startSpan = vi.spyOn(ProxyTracer.prototype, "startSpan");
    const observer = createObserver({});
    const request = new Request("https://mcp.example/mcp", { method: "POST", headers: { traceparent: CLIENT } });
    const headers = vi.spyOn(request, "headers", "get");
    expect(observer.begin(request, newTrace(), "default")).toBeUndefined();
    // Not even the client's trace context is read (no header read, no span, nothing deferred).
    expect(headers).not.toHaveBeenCalled();
    expect(startSpan).not.toHaveBeenCalled();
    const { handedOn, waited } = observe(observer, { name: "add", _meta: { traceparent: CLIENT } });
    expect(handedOn).toBeUndefined();
    expect(waited).toEqual([]);
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
