// One shape for every binding a Worker lacks: a JSON-RPC error naming each missing binding with the
// wrangler.toml lines (and class exports) to add, all at once, and the same text in the log.
import { afterEach, describe, expect, it, vi } from "vitest";
import { defineTool } from "../../src/index.ts";
import { createWorker, toolServices, type McpWorker } from "../../src/workers/index.ts";

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;

const keep = defineTool({
  name: "keep",
  description: "Keeps a value under a handle.",
  inputSchema: { type: "object" },
  handler: async (_args, ctx) => ctx.handles.create({ kept: true }),
});
const SERVER = { info: { name: "bindings", version: "1.0.0" }, tools: [keep] };

async function rpc(worker: McpWorker<object>, env: object, method: string, params: Record<string, unknown> = {}) {
  const response = await worker.fetch(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    }),
    env,
    ctx,
  );
  const body = await response.json<{ error?: { code: number; message: string }; result?: unknown }>();
  return { status: response.status, error: body.error };
}

/** The log lines written so far, one string. */
function logged(spy: { mock: { calls: unknown[][] } }): string {
  return spy.mock.calls.map((args) => args.join(" ")).join("\n");
}

/** The error's text after the common prefix: what the log line carries too. */
function problem(message: string | undefined): string {
  expect(message).toMatch(/^Internal error: the server is misconfigured: missing binding/);
  return (message ?? "").slice("Internal error: the server is misconfigured: ".length);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a missing binding", () => {
  it("MCP_HANDLES (and MCP_QUOTAS with it): a tool using ctx.handles gets a JSON-RPC error with the lines to add, and the log the same", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const { error } = await rpc(createWorker(SERVER), {}, "tools/call", { name: "keep", arguments: {} });
    expect(error?.code).toBe(-32603);
    const text = problem(error?.message);
    expect(text).toContain("missing bindings MCP_HANDLES (a tool uses ctx.handles");
    expect(text).toContain('[[durable_objects.bindings]]\nname = "MCP_HANDLES"\nclass_name = "McpHandleObject"');
    expect(text).toContain('[[durable_objects.bindings]]\nname = "MCP_QUOTAS"\nclass_name = "McpQuotaObject"');
    expect(text).toContain('new_sqlite_classes = ["McpHandleObject", "McpQuotaObject"]');
    expect(text).toContain('export { McpHandleObject } from "edge-mcp/workers";');
    expect(logged(log)).toContain(`edge-mcp: cannot serve the request: ${text}`);
  });

  it("MCP_QUOTAS: handles bound without it answer every request with the same shape, not a 500 with a stack", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const answer = await rpc(createWorker(SERVER), { MCP_HANDLES: {} }, "tools/list");
    expect(answer.status).toBe(500);
    const text = problem(answer.error?.message);
    expect(text).toMatch(/^missing binding MCP_QUOTAS \(handles are counted against quotas/);
    expect(text).toContain('name = "MCP_QUOTAS"\nclass_name = "McpQuotaObject"');
    expect(text).toContain('export { McpQuotaObject } from "edge-mcp/workers";');
    expect(text).not.toContain("    at ");
    expect(logged(log)).toContain(`edge-mcp: cannot serve the request: ${text}`);
  });

  it("MCP_SESSIONS: MCP_LEGACY_SESSIONS without it names MCP_QUOTAS and both class exports too, at once", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const answer = await rpc(createWorker(SERVER), { MCP_LEGACY_SESSIONS: "true" }, "tools/list");
    expect(answer.status).toBe(500);
    const text = problem(answer.error?.message);
    expect(text).toMatch(/^missing bindings MCP_SESSIONS \(legacy sessions are on\), MCP_QUOTAS \(sessions are counted against quotas/);
    expect(text).toContain('name = "MCP_SESSIONS"\nclass_name = "McpSessionObject"');
    expect(text).toContain('new_sqlite_classes = ["McpSessionObject", "McpQuotaObject"]');
    expect(text).toContain("export const McpSessionObject = createSessionObject(worker);");
    expect(text).toContain('export { McpQuotaObject } from "edge-mcp/workers";');
    expect(logged(log)).toContain(`edge-mcp: cannot serve the request: ${text}`);
  });

  it("a tool service: every missing [[services]] binding at once, in the same shape", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const worker = createWorker(SERVER, { services: toolServices([{ binding: "WEATHER" }, { binding: "MAPS" }]) });
    const answer = await rpc(worker, {}, "tools/list");
    expect(answer.status).toBe(500);
    const text = problem(answer.error?.message);
    expect(text).toMatch(/^missing bindings WEATHER \(toolServices\(\) names it\), MAPS \(toolServices\(\) names it\)/);
    expect(text).toContain('[[services]]\nbinding = "WEATHER"');
    expect(text).toContain('[[services]]\nbinding = "MAPS"');
    expect(logged(log)).toContain(`edge-mcp: cannot serve the request: ${text}`);
  });
});
