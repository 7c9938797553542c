// createWorker's rateLimits: per caller and per tool on [[ratelimits]] bindings, counting tool calls
// only (initialize and tools/list never), refusing the N+1th call of one caller with 429 and -31429.
import { describe, expect, it, vi } from "vitest";
import { DefinitionError } from "../../src/core/definition-error.ts";
import { defineTool } from "../../src/index.ts";
import { createWorker, type McpWorker } from "../../src/workers/index.ts";

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
const echo = defineTool({ name: "echo", description: "Echoes.", inputSchema: { type: "object" }, handler: () => "ok" });
const other = defineTool({ name: "other", description: "Another.", inputSchema: { type: "object" }, handler: () => "ok" });
const SERVER = { info: { name: "limited", version: "1.0.0" }, tools: [echo, other] };

/** A Workers Rate Limiting binding that allows `limit` calls per key; `keys` records each key it counted. */
function binding(limit: number) {
  const counts = new Map<string, number>();
  const keys: string[] = [];
  return {
    keys,
    limit: async ({ key }: { key: string }) => {
      keys.push(key);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return { success: (counts.get(key) ?? 0) <= limit };
    },
  };
}

let id = 1;
async function rpc(worker: McpWorker<object>, env: object, address: string, method: string, params: Record<string, unknown> = {}) {
  const response = await worker.fetch(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        "cf-connecting-ip": address,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: id++, method, params }),
    }),
    env,
    ctx,
  );
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    body: await response.json<{ error?: { code: number }; result?: unknown }>(),
  };
}

const INIT = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } };

describe("rateLimits in createWorker", () => {
  it("never counts initialize or tools/list, refuses one caller's N+1th call of a tool, and leaves another caller alone", async () => {
    const calls = binding(2);
    const env = { TOOL_CALLS: calls };
    const worker = createWorker(SERVER, { rateLimits: { tool: "TOOL_CALLS", retryAfterSeconds: 30 } });
    for (let i = 0; i < 5; i++) {
      expect((await rpc(worker, env, "203.0.113.1", "initialize", INIT)).status).toBe(200);
      expect((await rpc(worker, env, "203.0.113.1", "tools/list")).status).toBe(200);
    }
    expect(calls.keys).toEqual([]);
    expect((await rpc(worker, env, "203.0.113.1", "tools/call", { name: "echo", arguments: {} })).status).toBe(200);
    expect((await rpc(worker, env, "203.0.113.1", "tools/call", { name: "echo", arguments: {} })).status).toBe(200);
    const refused = await rpc(worker, env, "203.0.113.1", "tools/call", { name: "echo", arguments: {} });
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe("30");
    expect(refused.body.error?.code).toBe(-31429);
    // The same caller's other tool has its own count; another caller is unaffected.
    expect((await rpc(worker, env, "203.0.113.1", "tools/call", { name: "other", arguments: {} })).status).toBe(200);
    expect((await rpc(worker, env, "198.51.100.7", "tools/call", { name: "echo", arguments: {} })).status).toBe(200);
    // Still nothing counted for the handshake after calls.
    expect((await rpc(worker, env, "203.0.113.1", "tools/list")).status).toBe(200);
    expect(calls.keys).toHaveLength(5);
  });

  it("counts a principal limit per caller across tools, tool calls only", async () => {
    const perCaller = binding(1);
    const worker = createWorker(SERVER, { rateLimits: { principal: "CALLS" } });
    const env = { CALLS: perCaller };
    expect((await rpc(worker, env, "203.0.113.9", "tools/list")).status).toBe(200);
    expect((await rpc(worker, env, "203.0.113.9", "tools/call", { name: "echo", arguments: {} })).status).toBe(200);
    expect((await rpc(worker, env, "203.0.113.9", "tools/call", { name: "other", arguments: {} })).status).toBe(429);
    expect((await rpc(worker, env, "203.0.113.10", "tools/call", { name: "other", arguments: {} })).status).toBe(200);
  });

  it("names a [[ratelimits]] binding missing from wrangler.toml, with its lines, and refuses bad options at load", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const answer = await rpc(createWorker(SERVER, { rateLimits: { tool: "TOOL_CALLS" } }), {}, "203.0.113.1", "tools/list");
    expect(answer.status).toBe(500);
    expect(JSON.stringify(answer.body)).toContain(
      'missing binding TOOL_CALLS (rateLimits names it): add to wrangler.toml:\\n\\n[[ratelimits]]\\nname = \\"TOOL_CALLS\\"',
    );
    expect(() => createWorker(SERVER, { rateLimits: { tool: "tool calls" } })).toThrow(DefinitionError);
    expect(() => createWorker(SERVER, { rateLimits: { tool: "A", retryAfterSeconds: 0 } })).toThrow(DefinitionError);
    expect(() => createWorker(SERVER, { rateLimits: { tool: "A" }, rateLimiter: { check: async () => undefined } })).toThrow(/not both/);
    vi.restoreAllMocks();
  });
});
