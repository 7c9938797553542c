// Spans of an isolate's requests exported together (one OTLP request per window).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EXPORT_WINDOW_MS, MAX_BATCH_SPANS, SpanBatch } from "../../src/observe/otlp-batch.ts";
import { RecordingTracer } from "../../src/observe/recording-tracer.ts";

const SETTINGS = { url: "http://collector.test/v1/traces", headers: {}, serviceName: "svc" };

function spans(count: number): string[] {
  const tracer = new RecordingTracer();
  for (let i = 0; i < count; i++) tracer.startSpan(`span ${i}`, { startTime: 1 }).end(2);
  return tracer.spans;
}

const exported = (fetch: ReturnType<typeof vi.fn>) =>
  fetch.mock.calls.map(
    ([, init]) =>
      (JSON.parse(new TextDecoder().decode((init as RequestInit).body as Uint8Array)) as { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] })
        .resourceSpans[0]?.scopeSpans[0]?.spans.length,
  );

describe("SpanBatch", () => {
  let fetch: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    vi.useFakeTimers();
    fetch = vi.fn(async () => new Response("{}"));
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

  it("adds nothing and opens no window for a request without spans", async () => {
    const batch = new SpanBatch(SETTINGS);
    await batch.add([]);
    await vi.advanceTimersByTimeAsync(EXPORT_WINDOW_MS);
    expect(fetch).not.toHaveBeenCalled();
  });
});

// The observer with nothing to watch (no observation at all, a late provider): observer-idle.test.ts.
