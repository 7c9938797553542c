// One observed request: which spans it records (admission only when it cost something), and that a
// plain JSON answer's outcome is read from the exchange without waiting on it.
import { beforeAll, describe, expect, it } from "vitest";
import type { Admission } from "../../../src/core/admission.ts";
import { ProtocolError } from "../../../src/core/errors.ts";
import { createMcpApp } from "../../../src/http/mcp-app.ts";
import { newTrace, type AdmittedPost } from "../../../src/http/admission/admitted.ts";
import type { ObservedExchange, RequestObservation, RequestObserver } from "../../../src/http/observer.ts";
import { Observation } from "../../../src/observe/observation.ts";
import { RecordingTracer } from "../../../src/observe/recording-tracer.ts";
import { callerId, type UsageRecord } from "../../../src/observe/usage/usage-record.ts";
import { createServer } from "../../../src/server/server.ts";
import { defineTool } from "../../../src/server/tools/tool.ts";
import { modern } from "../app-client.ts";

const admission = { tenant: "default", principal: undefined, caller: "anonymous", quotaHolder: "anonymous" } as unknown as Admission;
const admitted = { admission, text: "{}", message: undefined, info: { era: "modern" }, tool: {}, newSession: undefined } as unknown as AdmittedPost;

/** A tools/call observed into a recording tracer; `exchange` is what the handler ran in. */
function observed(options: { costlyAdmission?: boolean; refusal?: ProtocolError; exchange?: ObservedExchange; usage?: UsageRecord[] }) {
  const tracer = new RecordingTracer();
  const trace_ = newTrace();
  trace_.method = "tools/call";
  trace_.target = "add";
  const sinks = options.usage ? [{ write: (records: readonly UsageRecord[]) => void options.usage?.push(...records) }] : [];
  const observation = new Observation(
    new Request("https://mcp.example/mcp", { method: "POST" }),
    trace_,
    "default",
    { source: tracer },
    sinks,
    options.costlyAdmission,
  );
  const waited: Promise<unknown>[] = [];
  if (!options.refusal) observation.admitted(admitted);
  if (options.exchange) observation.handling(options.exchange);
  observation.end(options.refusal ? options.refusal.status : 200, options.refusal, (promise) => waited.push(promise));
  const spans = () => decoded(tracer);
  return {
    names: () =>
      spans()
        .map((span) => span.name)
        .sort(),
    spans,
    waited,
  };
}

/** The tracer's spans decoded from their OTLP JSON, attributes by key. */
function decoded(tracer: RecordingTracer) {
  return tracer.spans.map((text) => {
    const span = JSON.parse(text) as { name: string; attributes: { key: string; value: Record<string, unknown> }[]; status: { code?: number } };
    const attributes = Object.fromEntries(span.attributes.map(({ key, value }) => [key, Object.values(value)[0]]));
    return { name: span.name, attributes, status: span.status };
  });
}

/** An exchange that has settled: reading `settled` (a promise to wait on) fails the test. */
function settledExchange(failure: ProtocolError | undefined): ObservedExchange {
  return {
    done: true,
    failure,
    toolError: false,
    bytesOut: 42,
    get settled(): Promise<ProtocolError | undefined> {
      throw new Error("settled read although the outcome was known");
    },
  };
}

// The caller's id is computed once per isolate (a digest): known from then on, as for every request after an isolate's first.
beforeAll(async () => {
  await callerId("anonymous");
});

describe("an observation's spans", () => {
  it("records admission as the request span's attribute when it did no work (no authorizer, no rate limiter)", () => {
    const { names, spans } = observed({ costlyAdmission: false, exchange: settledExchange(undefined) });
    expect(names()).toEqual(["execute_tool add", "tools/call add"]);
    expect(spans().find((span) => span.name === "tools/call add")?.attributes["edge_mcp.admission"]).toBe("admitted");
  });

  it("records admission as a span of its own when it did work, and always when it refused", () => {
    expect(observed({ costlyAdmission: true, exchange: settledExchange(undefined) }).names()).toEqual([
      "edge_mcp.admission",
      "execute_tool add",
      "tools/call add",
    ]);
    const refused = observed({ costlyAdmission: false, refusal: new ProtocolError(-32602, "bad", { status: 400 }) });
    expect(refused.names()).toEqual(["edge_mcp.admission", "tools/call add"]);
    expect(refused.spans().find((span) => span.name === "edge_mcp.admission")?.status.code).toBe(2);
  });
});

describe("an observation's outcome", () => {
  it("reads a settled exchange's failure without waiting (a plain JSON answer)", () => {
    const { spans, waited } = observed({ costlyAdmission: false, exchange: settledExchange(new ProtocolError(-32603, "boom")) });
    // Recorded at once: nothing deferred, the failure on the request span.
    expect(waited).toEqual([]);
    expect(spans().find((span) => span.name === "tools/call add")?.attributes["error.type"]).toBe("-32603");
  });

  it("waits for an exchange still streaming its answer, then records its failure", async () => {
    let settle: (failure: ProtocolError | undefined) => void = () => {};
    const exchange: ObservedExchange = {
      done: false,
      failure: undefined,
      toolError: false,
      bytesOut: 0,
      settled: new Promise((resolve) => (settle = resolve)),
    };
    const { spans, waited } = observed({ costlyAdmission: false, exchange });
    expect(waited).toHaveLength(1);
    expect(spans()).toEqual([]);
    settle(new ProtocolError(-32603, "late"));
    await Promise.all(waited);
    expect(spans().find((span) => span.name === "tools/call add")?.attributes["error.type"]).toBe("-32603");
  });

  it("is known to the observer when a JSON answer is returned: the exchange is done, its failure set, nothing to wait on", async () => {
    const seen: { done: boolean; failure: number | undefined; bytesOut: number }[] = [];
    const observer: RequestObserver = {
      begin(): RequestObservation {
        let exchange: ObservedExchange | undefined;
        return {
          admitted: (post) => post.admission,
          admittedStream: (admission) => admission,
          routed: (endpoint) => endpoint,
          innerCall: () => ({ end() {} }),
          handling(running) {
            exchange = running;
          },
          end() {
            if (exchange) seen.push({ done: exchange.done, failure: exchange.failure?.code, bytesOut: exchange.bytesOut });
          },
        };
      },
    };
    const tools = [
      defineTool({ name: "ok", inputSchema: { type: "object" }, handler: () => "fine" }),
      defineTool({ name: "late", inputSchema: { type: "object" }, handler: async () => "fine" }),
      defineTool({
        name: "throws",
        inputSchema: { type: "object" },
        handler: () => {
          throw new ProtocolError(-32603, "boom");
        },
      }),
    ];
    const app = createMcpApp({ server: createServer({ info: { name: "t", version: "1" }, tools }), observer });
    for (const name of ["ok", "late", "throws"]) expect((await modern(app, "tools/call", { name, arguments: {} })).status).toBeLessThan(500);
    expect(seen.map(({ done, failure }) => [done, failure])).toEqual([
      [true, undefined],
      [true, undefined],
      [true, -32603],
    ]);
    expect(seen.every(({ bytesOut }) => bytesOut > 0)).toBe(true);
  });
});
