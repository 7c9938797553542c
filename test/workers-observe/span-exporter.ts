// The in-memory span exporter of the workers-observe tests: one OpenTelemetry SDK provider per isolate,
// registered globally once (a second registration is refused), shared by every test file in the isolate.
import { SpanKind, trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { vi } from "vitest";
import { send } from "../workers-admission/fixture.ts";

const KEY = Symbol.for("edge-mcp.test.span-exporter");

/** The exporter receiving every span of this isolate (registering its provider the first time). */
export function spanExporter(): InMemorySpanExporter {
  const holder = globalThis as unknown as Record<symbol, InMemorySpanExporter | undefined>;
  let exporter = holder[KEY];
  if (!exporter) {
    exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    holder[KEY] = exporter;
  }
  return exporter;
}

const hex = (bytes: number) => [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");

/** A client's trace context: a fresh trace id and span id. */
export function clientSpan() {
  const traceId = hex(16);
  const spanId = hex(8);
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/** The finished spans of a trace once its server span and `count` spans in all have ended (they end after the answer). */
export async function spansOf(traceId: string, count = 3, ready: (spans: ReadableSpan[]) => boolean = () => true): Promise<ReadableSpan[]> {
  return vi.waitFor(
    () => {
      const spans = spanExporter()
        .getFinishedSpans()
        .filter((span) => span.spanContext().traceId === traceId);
      if (!spans.some((span) => span.kind === SpanKind.SERVER) || spans.length < count || !ready(spans))
        throw new Error(`${spans.length} spans of ${traceId} so far`);
      return spans;
    },
    { timeout: 10_000, interval: 20 },
  );
}

export const serverSpan = (spans: ReadableSpan[]) => spans.find((span) => span.kind === SpanKind.SERVER) as ReadableSpan;
export const named = (spans: ReadableSpan[], name: string) => spans.find((span) => span.name === name);
export const parentOf = (span: ReadableSpan | undefined) => span?.parentSpanContext?.spanId;

let nextId = 1;

/** A 2026-07-28 tools/call of initech under the client's trace (`_meta.traceparent`). */
export function modernCall(name: string, traceparent: string, args: object = {}, clientCapabilities: object = {}): Promise<Response> {
  return send("initech", {
    body: {
      jsonrpc: "2.0",
      id: nextId++,
      method: "tools/call",
      params: {
        name,
        arguments: args,
        _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": clientCapabilities, traceparent },
      },
    },
    headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name },
  });
}
