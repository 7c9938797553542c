// The dormant samples src/observe keeps for its per-request objects' hidden classes (recording-tracer.ts, observation.ts): made at load without side
// effects (no random ids drawn, no fetch, no timer), and the request span's first attributes as the span has them.
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => vi.restoreAllMocks());

describe("the observe shape anchors", () => {
  it("are made when their modules load without drawing random values, fetching or setting timers", async () => {
    vi.resetModules();
    const random = vi.spyOn(crypto, "getRandomValues");
    const fetch = vi.spyOn(globalThis, "fetch");
    const timer = vi.spyOn(globalThis, "setTimeout");
    await import("../../../src/observe/recording-tracer.ts");
    await import("../../../src/observe/observation.ts");
    expect(random).not.toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();
    expect(timer).not.toHaveBeenCalled();
  });

  it("give the request span its admission outcome and its MCP method, or a stream's HTTP method", async () => {
    const { rootAttributes } = await import("../../../src/observe/observation-shapes.ts");
    expect(rootAttributes("admitted", false, "POST", "tools/call")).toEqual({ "edge_mcp.admission": "admitted", "mcp.method.name": "tools/call" });
    expect(rootAttributes("refused", true, "GET", undefined)).toEqual({ "edge_mcp.admission": "refused", "http.request.method": "GET" });
    expect(rootAttributes("refused", false, "POST", undefined)).toEqual({ "edge_mcp.admission": "refused" });
  });

  it("leave the spans' ids drawn per span: a root opens a new trace, a child keeps its parent's", async () => {
    const { RecordingTracer } = await import("../../../src/observe/recording-tracer.ts");
    const tracer = new RecordingTracer();
    const root = tracer.start("root", {}, undefined);
    const child = tracer.start("child", {}, root);
    const other = tracer.start("other", {}, undefined);
    expect(root.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(child.spanContext().traceId).toBe(root.spanContext().traceId);
    expect(child.spanContext().spanId).not.toBe(root.spanContext().spanId);
    expect(other.spanContext().traceId).not.toBe(root.spanContext().traceId);
  });
});
