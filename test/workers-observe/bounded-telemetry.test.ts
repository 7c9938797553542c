// Client-chosen strings that telemetry copies (tool and method names, request ids, error messages) are
// bounded: a 600 KB tool name gives spans and an access-log line of a few hundred bytes, not 600 KB.
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it, vi } from "vitest";
import { bearer, send } from "../workers-admission/fixture.ts";
import { clientSpan, modernCall, spanExporter, spansOf } from "./span-exporter.ts";

spanExporter();

afterEach(() => {
  vi.restoreAllMocks();
});

const HUGE = "t".repeat(600_000);
// The bound of one string (256) and a span name built of two ("tools/call <tool>").
const ONE = 256;
const NAME = 2 * ONE + 16;

/** Every string a span exports is bounded: its name, status message, attribute values, event names and attributes. */
function expectBounded(spans: ReadableSpan[]): void {
  for (const span of spans) {
    expect(span.name.length, span.name.slice(0, 80)).toBeLessThanOrEqual(NAME);
    expect(span.status.message?.length ?? 0).toBeLessThanOrEqual(ONE + 64);
    for (const [key, value] of Object.entries(span.attributes)) expect(String(value).length, key).toBeLessThanOrEqual(ONE);
    for (const event of span.events) expect(JSON.stringify(event).length).toBeLessThanOrEqual(4 * ONE);
  }
  // The whole trace, as an exporter would copy it, stays small.
  expect(JSON.stringify(spans.map((span) => [span.name, span.status, span.attributes, span.events])).length).toBeLessThan(16_384);
}

/** Sends a legacy-era POST of `body` (no Mcp-Name header: the name travels in the body alone). */
function legacy(tenant: string, body: object, headers: Record<string, string> = {}): Promise<Response> {
  return send(tenant, { body, headers: { "mcp-protocol-version": "2025-11-25", ...headers } });
}

async function accessLines(run: () => Promise<void>): Promise<string[]> {
  const log = vi.spyOn(console, "log");
  await run();
  return log.mock.calls.map((args) => String(args[0])).filter((line) => line.includes('"event":"mcp.request"'));
}

describe("bounded telemetry", () => {
  it.each([
    ["an anonymous call of a 600 KB unknown tool", "initech", async () => undefined],
    ["an authenticated call of a 600 KB unknown tool", "acme", async () => bearer({ tenant: "acme", sub: "bounded-telemetry" })],
  ])("bounds every span attribute and the access-log line of %s", async (_label, tenant, authorization) => {
    const client = clientSpan();
    const token = await authorization();
    let response: Response | undefined;
    const lines = await accessLines(async () => {
      response = await legacy(
        tenant,
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: HUGE, arguments: {}, _meta: { traceparent: client.traceparent } } },
        token === undefined ? {} : { authorization: token },
      );
      await response.text();
    });
    expect(response?.status).toBe(200);
    const spans = await spansOf(client.traceId, 2);
    expectBounded(spans);
    expect(spans.some((span) => String(span.attributes["gen_ai.tool.name"] ?? span.name).includes("…[600000 chars]"))).toBe(true);
    const line = lines.find((entry) => entry.includes(client.traceId)) ?? lines.at(-1) ?? "";
    expect(line.length).toBeGreaterThan(0);
    expect(line.length).toBeLessThan(1_024);
    expect((JSON.parse(line) as { target: string }).target).toMatch(/^t+…\[600000 chars\]$/);
  });

  it("bounds a 400 KB method name and a 400 KB string request id", async () => {
    const client = clientSpan();
    const lines = await accessLines(async () => {
      const response = await legacy(
        "initech",
        { jsonrpc: "2.0", id: "i".repeat(400_000), method: `m${"t".repeat(400_000)}`, params: {} },
        { traceparent: client.traceparent },
      );
      expect(response.status).toBe(400);
      await response.text();
    });
    const spans = await spansOf(client.traceId, 1);
    expectBounded(spans);
    for (const line of lines) expect(line.length).toBeLessThan(1_024);
  });

  it("bounds the span of a code-mode program's inner call of a 600 KB tool name", async () => {
    const client = clientSpan();
    const response = await modernCall("execute", client.traceparent, { code: `return await tools["x".repeat(600000)]({}).catch(() => "refused");` });
    expect(response.status).toBe(200);
    await response.text();
    const spans = await spansOf(client.traceId, 3, (found) => found.some((span) => span.attributes["edge_mcp.via"] === "code_mode"));
    expectBounded(spans);
    const inner = spans.find((span) => span.attributes["edge_mcp.via"] === "code_mode");
    expect(inner?.attributes["gen_ai.tool.name"]).toMatch(/^x+…\[600000 chars\]$/);
  });
});
