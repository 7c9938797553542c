// What the model reads when a handler throws: a ToolError's message, otherwise the tool and a
// correlation id (the message and stack go to the log), unless the Worker runs in development.
import { afterEach, describe, expect, it, vi } from "vitest";
import { defineTool, ToolError } from "../../src/index.ts";
import { createWorker, type McpWorker } from "../../src/workers/index.ts";

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;

const boom = defineTool({
  name: "boom",
  description: "Fails.",
  inputSchema: { type: "object" },
  handler: async () => {
    throw new Error("database password=hunter2 unreachable");
  },
});
const busy = defineTool({
  name: "busy",
  description: "Fails for the model.",
  inputSchema: { type: "object" },
  handler: () => {
    throw new ToolError("the calendar is full on that day; try another");
  },
});
const SERVER = { info: { name: "errors", version: "1.0.0" }, tools: [boom, busy] };

async function call(worker: McpWorker<object>, env: object, name: string): Promise<string> {
  const response = await worker.fetch(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } }),
    }),
    env,
    ctx,
  );
  return await response.text();
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a thrown handler error", () => {
  it("never reaches the client outside development, and is logged with the tool, the id and the stack", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const body = await call(createWorker(SERVER), {}, "boom");
    expect(body).not.toContain("hunter2");
    const id = /Tool boom failed \(id ([\w-]{8})\)/.exec(body)?.[1];
    expect(id).toBeDefined();
    const logged = log.mock.calls.map((args) => args.join(" ")).join("\n");
    expect(logged).toContain(`edge-mcp: tool boom failed (id ${id}): Error: database password=hunter2 unreachable`);
    expect(logged).toMatch(/\n\s+at /);
  });

  it('reaches the client under development: MCP_DEV = "true", or development: true over the var', async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await call(createWorker(SERVER), { MCP_DEV: "true" }, "boom")).toContain("database password=hunter2 unreachable");
    expect(await call(createWorker(SERVER, { development: true }), {}, "boom")).toContain("password=hunter2");
    expect(await call(createWorker(SERVER, { development: false }), { MCP_DEV: "true" }, "boom")).not.toContain("hunter2");
  });

  it("answers a ToolError's message as the tool's result in every mode", async () => {
    const body = JSON.parse(await call(createWorker(SERVER), {}, "busy")) as { result: unknown };
    expect(body.result).toEqual({ content: [{ type: "text", text: "Tool busy failed: the calendar is full on that day; try another" }], isError: true });
  });
});
