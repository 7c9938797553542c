// Head sampling of the OTLP exporter, parent-based: the client's sampled flag when it sent a trace context, else a
// draw at OTEL_TRACES_SAMPLER_ARG; no sampler set records every request, as before.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Admission } from "../../../src/core/admission.ts";
import { newTrace, type AdmittedPost } from "../../../src/http/admission/admitted.ts";
import { Observation } from "../../../src/observe/observation.ts";
import { otlpSettings } from "../../../src/observe/otlp/otlp-export.ts";
import { RecordingTracer } from "../../../src/observe/recording-tracer.ts";

afterEach(() => vi.restoreAllMocks());

const ENDPOINT = "http://collector.test";
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const parent = (flags: "00" | "01") => `00-${TRACE_ID}-00f067aa0ba902b7-${flags}`;
const admission = { tenant: "default", principal: undefined, caller: "anonymous", quotaHolder: "anonymous" } as unknown as Admission;
const admitted = { admission, text: "{}", message: undefined, info: { era: "modern" }, tool: {}, newSession: undefined } as unknown as AdmittedPost;

/** A tools/call observed at `sampleRatio`; the trace ids of the spans it recorded, and the admission it ran with. */
async function observe(sampleRatio: number | undefined, traceparent?: string) {
  const tracer = new RecordingTracer();
  const trace_ = newTrace();
  trace_.method = "tools/call";
  trace_.target = "add";
  const headers: Record<string, string> = traceparent ? { traceparent } : {};
  const observation = new Observation(
    new Request(`${ENDPOINT}/mcp`, { method: "POST", headers }),
    trace_,
    "default",
    { source: tracer, sampleRatio },
    [],
    false,
  );
  const ran = observation.admitted(admitted);
  const recording: Promise<unknown>[] = [];
  observation.end(200, undefined, (promise) => void recording.push(promise));
  await Promise.all(recording);
  const traceIds = tracer.spans.map((text) => (JSON.parse(text) as { traceId: string }).traceId);
  return { traceIds, ran };
}

describe("head sampling", () => {
  it("reads the standard sampler variables: parent-based always, a ratio from 0 to 1", () => {
    const ratio = (vars: Record<string, string>) => otlpSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, ...vars })?.sampleRatio;
    expect(ratio({})).toBeUndefined();
    expect(ratio({ OTEL_TRACES_SAMPLER: "always_on" })).toBeUndefined();
    expect(ratio({ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.1" })).toBe(0.1);
    expect(ratio({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: " 0.25 " })).toBe(0.25);
    expect(ratio({ OTEL_TRACES_SAMPLER: "parentbased_traceidratio" })).toBe(1);
    expect(ratio({ OTEL_TRACES_SAMPLER: "parentbased_always_on" })).toBe(1);
    expect(ratio({ OTEL_TRACES_SAMPLER: "parentbased_always_off" })).toBe(0);
    expect(ratio({ OTEL_TRACES_SAMPLER: "always_off" })).toBe(0);
  });

  it("records every request when the ratio does not parse, and says so", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const settings = otlpSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "10%" });
    expect(settings?.sampleRatio).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, got '10%'"));
  });

  it("records nothing of a request left out, and passes no trace context on", async () => {
    const { traceIds, ran } = await observe(0);
    expect(traceIds).toEqual([]);
    expect(ran).toBe(admission);
  });

  it("draws at the ratio for a request without a trace context", async () => {
    vi.spyOn(Math, "random").mockReturnValueOnce(0.05).mockReturnValueOnce(0.15);
    expect((await observe(0.1)).traceIds.length).toBeGreaterThan(0);
    expect((await observe(0.1)).traceIds).toEqual([]);
  });

  it("follows the client's sampled flag whatever the ratio", async () => {
    const random = vi.spyOn(Math, "random");
    const kept = await observe(0, parent("01"));
    expect(kept.traceIds.length).toBeGreaterThan(0);
    expect(new Set(kept.traceIds)).toEqual(new Set([TRACE_ID]));
    expect(kept.ran.trace?.traceparent).toContain(TRACE_ID);
    expect((await observe(1, parent("00"))).traceIds).toEqual([]);
    expect(random).not.toHaveBeenCalled();
  });

  it("records every request, whatever its flag, when no sampler is set", async () => {
    const random = vi.spyOn(Math, "random");
    expect((await observe(undefined, parent("00"))).traceIds).not.toEqual([]);
    expect((await observe(undefined)).traceIds).not.toEqual([]);
    expect(random).not.toHaveBeenCalled();
  });
});
