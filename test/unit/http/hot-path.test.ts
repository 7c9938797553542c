// The stateless tools/call path answers the same whether each step settles at once or later: sync and
// async handlers, validators and feature hooks; limits, notifications and errors (reads of the request: request-reads.test.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ErrorCode, ProtocolError } from "../../../src/core/errors.ts";
import { createMcpApp, type McpAppOptions } from "../../../src/http/mcp-app.ts";
import type { Feature } from "../../../src/server/feature.ts";
import { createServer } from "../../../src/server/server.ts";
import { callTool } from "../../../src/server/tools/call-tool.ts";
import { compileTool } from "../../../src/server/tools/compile-tool.ts";
import { defineTool } from "../../../src/server/tools/tool.ts";
import { legacy, modern, request } from "../app-client.ts";
import { handlerContext } from "../context.ts";

beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const SUM_SCHEMA = { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } as const;
const OUT_SCHEMA = { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] } as const;
const sum = (a: number, b: number) => ({ content: [{ type: "text" as const, text: `${a + b}` }], structuredContent: { sum: a + b } });

const tools = [
  defineTool({ name: "sync", inputSchema: SUM_SCHEMA, outputSchema: OUT_SCHEMA, handler: ({ a, b }) => sum(a, b) }),
  defineTool({ name: "async", inputSchema: SUM_SCHEMA, outputSchema: OUT_SCHEMA, handler: async ({ a, b }) => sum(a, b) }),
  defineTool({
    name: "late",
    inputSchema: SUM_SCHEMA,
    handler: async ({ a, b }) => {
      await sleep(200);
      return sum(a, b);
    },
  }),
  defineTool({ name: "big", inputSchema: { type: "object" }, handler: () => "x".repeat(2000) }),
];

function app(options: Partial<McpAppOptions> = {}, features: Feature[] = []) {
  return createMcpApp({ server: createServer({ info: { name: "t", version: "1" }, tools, features }), ...options });
}

const resultOf = (body: Record<string, unknown>) => body["result"] as Record<string, unknown>;

describe("callTool settles the same whether each step is synchronous or not", () => {
  const context = handlerContext;
  it("runs a synchronous handler, an async one and one that returns a thenable", async () => {
    for (const handler of [
      () => ({ structuredContent: { sum: 3 } }),
      async () => ({ structuredContent: { sum: 3 } }),
      () => ({ then: (resolve: (value: unknown) => void) => resolve({ structuredContent: { sum: 3 } }) }),
    ]) {
      const tool = compileTool(defineTool({ name: "t", inputSchema: { type: "object" }, outputSchema: OUT_SCHEMA, handler: handler as never }));
      expect(await callTool(tool, {}, context())).toEqual({ content: [{ type: "text", text: '{"sum":3}' }], structuredContent: { sum: 3 } });
    }
  });

  it("turns a rejected promise and a synchronous throw alike into an isError result", async () => {
    for (const handler of [
      () => Promise.reject(new Error("no")),
      () => {
        throw new Error("no");
      },
    ]) {
      const tool = compileTool(defineTool({ name: "t", inputSchema: { type: "object" }, handler }));
      expect(await callTool(tool, {}, context())).toEqual({
        content: [{ type: "text", text: expect.stringMatching(/^Tool t failed \(id [\w-]{8}\)/) }],
        isError: true,
      });
    }
  });

  it("waits for async Standard Schema validation of the arguments and of the result", async () => {
    const checked = z.object({ n: z.number() }).refine(async (value) => value.n > 0, "n must be positive");
    const output = z.object({ n: z.number() }).refine(async (value) => value.n < 10, "n must be small");
    const tool = compileTool(defineTool({ name: "z", inputSchema: checked, outputSchema: output, handler: ({ n }) => ({ structuredContent: { n } }) }));
    expect(await callTool(tool, { arguments: { n: 1 } }, context())).toMatchObject({ structuredContent: { n: 1 } });
    expect((await callTool(tool, { arguments: { n: -1 } }, context())).isError).toBe(true);
    expect((await callTool(tool, { arguments: { n: 20 } }, context())).isError).toBe(true);
  });

  it("rejects (never throws) for arguments that are not an object", async () => {
    const tool = compileTool(defineTool({ name: "t", inputSchema: { type: "object" }, handler: () => "ok" }));
    const pending = callTool(tool, { arguments: [1] }, context());
    expect(pending).toBeInstanceOf(Promise);
    await expect(pending).rejects.toMatchObject({ code: -32602 });
  });
});

describe("the stateless tools/call path", () => {
  it("answers a sync and an async handler alike, in both eras, as plain JSON", async () => {
    const mcp = app();
    for (const name of ["sync", "async"]) {
      const old = await legacy(mcp, "tools/call", { name, arguments: { a: 2, b: 3 } });
      expect(old).toMatchObject({ status: 200, contentType: "application/json", body: { result: { structuredContent: { sum: 5 } } } });
      const now = await modern(mcp, "tools/call", { name, arguments: { a: 2, b: 3 } });
      expect(now).toMatchObject({ status: 200, contentType: "application/json", body: { result: { structuredContent: { sum: 5 }, resultType: "complete" } } });
    }
  });

  it("keeps the tool deadline: a handler that outlives it gets an isError result, a synchronous one answers", async () => {
    const mcp = app({ limits: { toolTimeoutMs: 50 } });
    const late = await modern(mcp, "tools/call", { name: "late", arguments: { a: 1, b: 1 } });
    expect(resultOf(late.body)).toMatchObject({ isError: true, content: [{ text: "Tool late did not finish within 50 ms" }] });
    const quick = await legacy(mcp, "tools/call", { name: "sync", arguments: { a: 1, b: 1 } });
    expect(resultOf(quick.body)).toMatchObject({ structuredContent: { sum: 2 } });
  });

  it("keeps the result size limit with and without a deadline", async () => {
    for (const limits of [{ maxResultBytes: 500 }, { maxResultBytes: 500, toolTimeoutMs: 1000 }]) {
      const reply = await legacy(app({ limits }), "tools/call", { name: "big" });
      expect(resultOf(reply.body)).toMatchObject({ isError: true });
      expect(JSON.stringify(reply.body)).toMatch(/more than this server's limit of 500/);
    }
  });

  it("answers a handler that finishes at once the same as a later one: notifications first (SSE), protocol errors, SSE mode", async () => {
    const notifying = [
      defineTool({
        name: "logs",
        inputSchema: { type: "object" },
        handler: (_args, ctx) => {
          ctx.log("info", "working");
          return "done";
        },
      }),
      defineTool({
        name: "refuses",
        inputSchema: { type: "object" },
        handler: () => {
          throw new ProtocolError(ErrorCode.InvalidParams, "not like this");
        },
      }),
    ];
    const server = createServer({ info: { name: "t", version: "1" }, tools: [...tools, ...notifying] });
    const auto = createMcpApp({ server });
    const response = await request(auto, "http://localhost/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "logs" } }),
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const messages = (await response.text())
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
    expect(messages).toMatchObject([
      { method: "notifications/message", params: { level: "info", data: "working" } },
      { id: 7, result: { content: [{ text: "done" }] } },
    ]);
    for (const reply of [await legacy(auto, "tools/call", { name: "refuses" }), await modern(auto, "tools/call", { name: "refuses" })]) {
      expect(reply).toMatchObject({ status: 200, contentType: "application/json", body: { error: { code: -32602, message: "not like this" } } });
    }
    const sse = await modern(createMcpApp({ server, responseMode: "sse" }), "tools/call", { name: "sync", arguments: { a: 2, b: 3 } });
    expect(sse).toMatchObject({ contentType: "text/event-stream", body: { result: { structuredContent: { sum: 5 }, resultType: "complete" } } });
  });

  it("gives 2026-07-28 results resultType and serverInfo, merged with a result's own _meta and kept resultType", async () => {
    const info = { name: "t", version: "1" };
    const shaped = [
      defineTool({ name: "plain", inputSchema: { type: "object" }, handler: () => "hi" }),
      defineTool({ name: "meta", inputSchema: { type: "object" }, handler: () => ({ content: [], _meta: { "x/y": 1 } }) }),
      defineTool({ name: "failing", inputSchema: { type: "object" }, handler: () => ({ content: [], isError: true }) }),
    ];
    const mcp = createMcpApp({ server: createServer({ info, tools: shaped }) });
    const serverInfo = { "io.modelcontextprotocol/serverInfo": info };
    const plain = await modern(mcp, "tools/call", { name: "plain" });
    expect(plain.body["result"]).toEqual({ content: [{ type: "text", text: "hi" }], resultType: "complete", _meta: serverInfo });
    const meta = await modern(mcp, "tools/call", { name: "meta" });
    expect(meta.body["result"]).toEqual({ content: [], resultType: "complete", _meta: { "x/y": 1, ...serverInfo } });
    const failing = await modern(mcp, "tools/call", { name: "failing" });
    expect(failing.body["result"]).toEqual({ content: [], isError: true, resultType: "complete", _meta: serverInfo });
  });

  it("unknown tools still get -32602 without a rate limiter", async () => {
    const reply = await legacy(app(), "tools/call", { name: "nope" });
    expect(reply.body["error"]).toMatchObject({ code: -32602, message: "Unknown tool: nope" });
  });

  it("runs feature hooks that decline at once and ones that answer later", async () => {
    const declining: Feature = { name: "declines", install: () => ({ callTool: () => undefined }) };
    const answering: Feature = {
      name: "answers",
      install: () => ({ callTool: async (tool) => (tool.name === "async" ? { content: [{ type: "text", text: "hooked" }] } : undefined) }),
    };
    const mcp = app({}, [declining, answering]);
    expect(resultOf((await legacy(mcp, "tools/call", { name: "sync", arguments: { a: 1, b: 2 } })).body)).toMatchObject({ structuredContent: { sum: 3 } });
    expect(resultOf((await legacy(mcp, "tools/call", { name: "async", arguments: { a: 1, b: 2 } })).body)).toEqual({
      content: [{ type: "text", text: "hooked" }],
    });
  });

  it("answers an allowed Origin with CORS headers and refuses another, reading the header once", async () => {
    const mcp = app();
    const init = (origin: string): RequestInit => ({
      method: "POST",
      headers: { origin, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "sync", arguments: { a: 1, b: 1 } } }),
    });
    const allowed = await request(mcp, "/mcp", init("http://localhost:5173"));
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(allowed.headers.get("content-type")).toBe("application/json");
    const refused = await request(mcp, "/mcp", init("https://evil.example"));
    expect(refused.status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBe("https://evil.example");
  });
});
