// Spans of an isolate's requests exported together (one OTLP request per window).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EXPORT_WINDOW_MS, MAX_BATCH_SPANS, SpanBatch } from "../../../../src/observe/otlp/otlp-batch.ts";
import { RecordingTracer } from "../../../../src/observe/recording-tracer.ts";

const SETTINGS = { url: "http://collector.test/v1/traces", headers: {}, serviceName: "svc", sampleRatio: undefined };

function spans(count: number): string[] {
  const tracer = new RecordingTracer();
  for (let i = 0; i < count; i++) tracer.startSpan(`span ${i}`, { startTime: 1 }).end(2);
  return tracer.spans;
}

/** The bodies fetch was given, read when it was called (as fetch copies a body: the batch reuses its buffer). */
let bodies: string[] = [];
const exported = (_fetch: ReturnType<typeof vi.fn>) =>
  bodies.map((body) => (JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] }).resourceSpans[0]?.scopeSpans[0]?.spans.length);

describe("SpanBatch", () => {
  let fetch: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    vi.useFakeTimers();
    bodies = [];
    fetch = vi.fn(async (_url: string, init: RequestInit) => {
      bodies.push(new TextDecoder().decode(init.body as Uint8Array));
      return new Response("{}");
    });
    vi.stubGlobal("fetch", fetch);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("sends the spans of every request of a window in one export, held by the request that opened it", async () => {
    const batch = new SpanBatch(SETTINGS);
    let openerDone = false;
    const opener = batch.add(spans(3)).then(() => (openerDone = true));
    // Later requests of the window do not wait: the opener sends their spans.
    await batch.add(spans(2));
    await batch.add(spans(4));
    expect(fetch).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(EXPORT_WINDOW_MS);
    await opener;
    expect(openerDone).toBe(true);
    expect(exported(fetch)).toEqual([9]);
    // The next request opens a new window.
    const next = batch.add(spans(1));
    await vi.advanceTimersByTimeAsync(EXPORT_WINDOW_MS);
    await next;
    expect(exported(fetch)).toEqual([9, 1]);
  });

  it("sends a full window at once, from the request that filled it", async () => {
    const batch = new SpanBatch(SETTINGS);
    const opener = batch.add(spans(10));
    await batch.add(spans(MAX_BATCH_SPANS));
    expect(exported(fetch)).toEqual([MAX_BATCH_SPANS + 10]);
    await vi.advanceTimersByTimeAsync(EXPORT_WINDOW_MS);
    await opener;
    // The opener's timer finds nothing left to send.
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("gives the window opened after a full one its own time: the full window's timer sends nothing early", async () => {
    const batch = new SpanBatch(SETTINGS);
    const opener = batch.add(spans(10));
    await vi.advanceTimersByTimeAsync(EXPORT_WINDOW_MS / 2);
    await batch.add(spans(MAX_BATCH_SPANS));
    const second = batch.add(spans(5));
    // The first window's time is up: its spans left already, and the second window's stay.
    await vi.advanceTimersByTimeAsync(EXPORT_WINDOW_MS / 2);
    await opener;
    expect(exported(fetch)).toEqual([MAX_BATCH_SPANS + 10]);
    await vi.advanceTimersByTimeAsync(EXPORT_WINDOW_MS / 2);
    await second;
    expect(exported(fetch)).toEqual([MAX_BATCH_SPANS + 10, 5]);
  });

  it("reuses its buffer: each export carries its own spans, whole, after the buffer grew", async () => {
    const batch = new SpanBatch(SETTINGS);
    const long = (tag: string) => {
      const tracer = new RecordingTracer();
      tracer.startSpan(`${tag} ${"é".repeat(30_000)}`, { startTime: 1 }).end(2);
      return tracer.spans;
    };
    const first = batch.add([...long("a"), ...long("b"), ...long("c")]);
    await vi.advanceTimersByTimeAsync(EXPORT_WINDOW_MS);
    await first;
    const second = batch.add(long("d"));
    await vi.advanceTimersByTimeAsync(EXPORT_WINDOW_MS);
    await second;
    const names = bodies.map((body) =>
      (JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[] }).resourceSpans[0]?.scopeSpans[0]?.spans.map((span) =>
        span.name.slice(0, 4),
      ),
    );
    expect(names).toEqual([["a éé", "b éé", "c éé"], ["d éé"]]);
  });

  it("adds nothing and opens no window for a request without spans", async () => {
    const batch = new SpanBatch(SETTINGS);
    await batch.add([]);
    await vi.advanceTimersByTimeAsync(EXPORT_WINDOW_MS);
    expect(fetch).not.toHaveBeenCalled();
  });
});

// The observer with nothing to watch (no observation at all, a late provider): observer-idle.test.ts.
