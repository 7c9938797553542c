// Each dormant sample (src/core/shape-anchor.ts) has the hidden class of the live object it keeps alive, built the way a
// request builds it: V8's %HaveSameMap, which the unit project allows (--allow-natives-syntax in vitest.config.ts).
import { SpanKind, type Attributes, type SpanOptions } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import type { Admission } from "../../../src/core/admission.ts";
import type { InboundRequest } from "../../../src/core/jsonrpc.ts";
import { createMcpApp } from "../../../src/http/mcp-app.ts";
import type { ObservedExchange, RequestObserver } from "../../../src/http/observer.ts";
import { DORMANT_TRACED_ADMISSIONS, DORMANT_REQUEST_ATTRIBUTES, Observation } from "../../../src/observe/observation.ts";
import { RecordingTracer } from "../../../src/observe/recording-tracer.ts";
import type { SpanSource } from "../../../src/observe/span-source.ts";
import { handlerContextFactory } from "../../../src/server/context/create-handler-context.ts";
import type { HandlerContext } from "../../../src/server/context/handler-context.ts";
import type { TransportContext } from "../../../src/server/context/transport.ts";
import type { InputChannel } from "../../../src/server/inputs/input.ts";
import { withInputs } from "../../../src/server/inputs/with-inputs.ts";
import { createServer } from "../../../src/server/server.ts";
import { defineTool } from "../../../src/server/tools/tool.ts";
import { modern, MODERN_META } from "../app-client.ts";

// Built at run time: the test's own source goes through esbuild, which does not parse natives syntax.
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- V8's natives syntax, in a test only
const haveSameMap = new Function("a", "b", "return %HaveSameMap(a, b)") as (a: unknown, b: unknown) => boolean;

/** The dormant sample a class keeps beside its constructor (`static readonly dormant`). */
const dormantOf = (live: object): unknown => (live.constructor as unknown as { dormant: unknown }).dormant;

interface Seen {
  ctx?: HandlerContext;
  exchange?: ObservedExchange;
  attributes?: Attributes | undefined;
  recording?: Promise<unknown>[];
}

/** An observer that keeps what it saw; `traced`: it records into a recording tracer, as `observability()` with an exporter does. */
function observer(seen: Seen, traced: boolean): RequestObserver {
  const tracer = new RecordingTracer();
  const source: SpanSource = {
    start(name: string, options: SpanOptions, parent, remote) {
      if (options.kind === SpanKind.SERVER) seen.attributes = options.attributes;
      return tracer.start(name, options, parent, remote);
    },
  };
  return {
    begin(request, trace, tenant, costlyAdmission) {
      const observation = new Observation(request, trace, tenant, traced ? { source } : { source: undefined }, [], costlyAdmission);
      return {
        admitted: (admitted) => observation.admitted(admitted),
        admittedStream: (admission) => observation.admittedStream(admission),
        routed: (endpoint) => observation.routed(endpoint),
        innerCall: (tool) => observation.innerCall(tool),
        handling(exchange) {
          seen.exchange = exchange;
          observation.handling(exchange);
        },
        // What is still being recorded is waited for by the test (a Worker's waitUntil).
        end: (status, error) => observation.end(status, error, (promise) => void seen.recording?.push(promise)),
      };
    },
  };
}

/** A 2026-07-28 `tools/call add` answered by a stateless endpoint (untraced: nothing records spans); what it built, kept. */
async function liveCall(traced: boolean): Promise<Seen> {
  const seen: Seen = { recording: [] };
  const add = defineTool({
    name: "add",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    handler: ({ a, b }, ctx) => {
      seen.ctx = ctx;
      return `${a + b}`;
    },
  });
  const app = createMcpApp({ server: createServer({ info: { name: "shapes", version: "1" }, tools: [add] }), observer: observer(seen, traced) });
  // Twice: the caller's digest, which the request span carries, is known (without waiting) from the second call on.
  for (let i = 0; i < 2; i++) {
    const reply = await modern(app, "tools/call", { name: "add", arguments: { a: 2, b: 3 } });
    expect(reply.body["result"]).toMatchObject({ content: [{ type: "text", text: "5" }] });
    await Promise.all(seen.recording ?? []);
  }
  return seen;
}

describe("each dormant sample has the hidden class of the live object it keeps", () => {
  it("the natives syntax is on (the unit project's --allow-natives-syntax)", () => {
    expect(haveSameMap({ a: 1 }, { a: 2 })).toBe(true);
    expect(haveSameMap({ a: 1 }, { b: 2 })).toBe(false);
  });

  it("the exchange and the handler context of a stateless tools/call", async () => {
    const { ctx, exchange } = await liveCall(false);
    expect(ctx && exchange).toBeTruthy();
    expect(haveSameMap(dormantOf(exchange as object), exchange)).toBe(true);
    expect(haveSameMap(dormantOf(ctx as object), ctx)).toBe(true);
  });

  it("a handler context with members added by features (a subclass made per server)", () => {
    const make = handlerContextFactory(new Map([["extra", () => 1]]));
    const ctx = make({} as TransportContext, {} as InputChannel);
    const plain = handlerContextFactory(new Map())({} as TransportContext, {} as InputChannel);
    expect(dormantOf(ctx)).not.toBe(dormantOf(plain));
    expect(haveSameMap(dormantOf(ctx), ctx)).toBe(true);
    expect(haveSameMap(dormantOf(plain), ctx)).toBe(false);
  });

  it("a 2026-07-28 request's input channel", async () => {
    const { exchange } = await liveCall(false);
    let channel: InputChannel | undefined;
    const request: InboundRequest = { kind: "request", id: 1, method: "tools/call", params: { name: "add", arguments: {}, _meta: MODERN_META } };
    await withInputs(request, exchange as unknown as TransportContext, { method: "tools/call", target: "add" } as never, (inputs) => {
      channel = inputs;
      return {};
    });
    expect(haveSameMap(dormantOf(channel as object), channel)).toBe(true);
  });

  it("an observed tools/call's request span, its attributes and its admission carrying the trace context", async () => {
    const { exchange, attributes } = await liveCall(true);
    const admission = (exchange as unknown as { admission: Admission }).admission;
    expect(admission.trace).toBeDefined();
    expect(Object.keys(attributes ?? {})).toContain("edge_mcp.caller");
    expect(haveSameMap(DORMANT_REQUEST_ATTRIBUTES, attributes)).toBe(true);
    expect(DORMANT_TRACED_ADMISSIONS.some((sample) => haveSameMap(sample, admission))).toBe(true);
    const span = new RecordingTracer().start("span", { kind: SpanKind.SERVER, startTime: Date.now(), attributes: {} }, undefined);
    expect(haveSameMap(dormantOf(span), span)).toBe(true);
  });

  it("tells a sample of another shape apart", async () => {
    const { exchange, ctx } = await liveCall(false);
    expect(haveSameMap(dormantOf(exchange as object), ctx)).toBe(false);
    expect(haveSameMap(DORMANT_REQUEST_ATTRIBUTES, { "edge_mcp.admission": "admitted" })).toBe(false);
  });
});
