// A definition error under development: the Worker loads, logs the error and answers every request
// with it (HTTP 500, a JSON-RPC error); outside development it is thrown at load, as wrangler deploy needs.
import { afterEach, describe, expect, it, vi } from "vitest";
import { DefinitionError } from "../../src/core/definition-error.ts";
import { defineTool } from "../../src/index.ts";
import { createWorker, type McpWorker } from "../../src/workers/index.ts";

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
// A schema typo: the root of an inputSchema must be an object schema.
const typo = defineTool({ name: "typo", description: "Broken.", inputSchema: { type: "objcet" } as never, handler: () => "never" });
const SERVER = { info: { name: "broken", version: "1.0.0" }, tools: [typo] };

async function post(worker: McpWorker<object>, method: string) {
  const response = await worker.fetch(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: {} }),
    }),
    {},
    ctx,
  );
  return { status: response.status, type: response.headers.get("content-type"), body: await response.json<{ error?: { code: number; message: string } }>() };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a definition error", () => {
  it("is thrown at load outside development (what makes wrangler deploy refuse the Worker)", () => {
    expect(() => createWorker(SERVER)).toThrow(DefinitionError);
    expect(() => createWorker(SERVER, { development: false })).toThrow(DefinitionError);
  });

  it("under development, is logged at load and answered to every request as a JSON-RPC error with HTTP 500", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    let thrown: unknown;
    try {
      createWorker(SERVER);
    } catch (error) {
      thrown = error;
    }
    const message = (thrown as Error).message;
    const worker = createWorker(SERVER, { development: true });
    expect(log.mock.calls.flat().join("\n")).toContain(`edge-mcp: the Worker's definitions are wrong`);
    expect(log.mock.calls.flat().join("\n")).toContain(message);
    for (const method of ["initialize", "tools/list", "tools/call"]) {
      const answer = await post(worker, method);
      expect(answer.status).toBe(500);
      expect(answer.type).toMatch(/^application\/json/);
      expect(answer.body.error).toEqual({ code: -32603, message: `Internal error: the server is misconfigured: ${message}` });
    }
  });

  it("under development, is an option error too, and a good definition serves as usual", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const wrongOption = createWorker({ info: { name: "t", version: "1" }, tools: [] }, { development: true, responseMode: "xml" as never });
    expect((await post(wrongOption, "tools/list")).body.error?.message).toMatch(/responseMode/);
    const good = createWorker({ info: { name: "t", version: "1" }, tools: [] }, { development: true });
    expect((await post(good, "tools/list")).status).toBe(200);
  });
});
