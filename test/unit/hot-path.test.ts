// The stateless tools/call path answers the same whether each step settles at once or later: sync and
// async handlers, validators and feature hooks; the body deadline, limits and the plain JSON answer.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ErrorCode, ProtocolError } from "../../src/core/errors.ts";
import { createMcpApp, type McpAppOptions } from "../../src/http/app.ts";
import { readBody } from "../../src/http/read-body.ts";
import { jsonResponse } from "../../src/http/responses.ts";
import type { Feature } from "../../src/server/feature.ts";
import { createServer } from "../../src/server/server.ts";
import { callTool } from "../../src/server/tools/call-tool.ts";
import { compileTool } from "../../src/server/tools/compile-tool.ts";
import { defineTool } from "../../src/server/tools/tool.ts";
import { legacy, modern, request } from "./app-client.ts";
import { handlerContext } from "./context.ts";

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
      expect(await callTool(tool, {}, context())).toEqual({ content: [{ type: "text", text: "Tool t failed: no" }], isError: true });
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

describe("request headers", () => {
  // Each `request.headers` is a call into the runtime on workerd (about a thousand instructions):
  // the app reads them once, for the Host/Origin policy, CORS and all of admission.
  class CountingRequest extends Request {
    reads = 0;
    override get headers(): Headers {
      this.reads++;
      return super.headers;
    }
  }

  it("are read from the request once per stateless tools/call (for the origin, the host and admission)", async () => {
    for (const [version, extra] of [
      ["2025-11-25", {}],
      ["2026-07-28", { "mcp-method": "tools/call", "mcp-name": "sync" }],
    ] as const) {
      const params =
        version === "2025-11-25"
          ? { name: "sync", arguments: { a: 1, b: 2 } }
          : {
              name: "sync",
              arguments: { a: 1, b: 2 },
              _meta: { "io.modelcontextprotocol/protocolVersion": version, "io.modelcontextprotocol/clientCapabilities": {} },
            };
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params });
      const req = new CountingRequest("http://localhost/mcp", {
        method: "POST",
        body,
        headers: {
          "content-type": "application/json",
          "content-length": String(body.length),
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": version,
          ...extra,
        },
      });
      const res = await app().fetch(req);
      expect(res.status, version).toBe(200);
      expect(resultOf(await res.json<Record<string, unknown>>())["structuredContent"], version).toEqual({ sum: 3 });
      expect(req.reads, version).toBe(1);
    }
  });
});

describe("the client address", () => {
  // A header read is a call into the runtime on workerd (about 2k instructions each).
  const readsOf = (headers: Headers, names: string[]): Headers =>
    new Proxy(headers, {
      get(target, key) {
        if (key === "get") return (name: string) => (names.push(name), target.get(name));
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  class WatchedRequest extends Request {
    names: string[] = [];
    override get headers(): Headers {
      return readsOf(super.headers, this.names);
    }
  }
  const call = () =>
    new WatchedRequest("http://localhost/mcp", {
      method: "POST",
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "sync", arguments: { a: 1, b: 2 } } }),
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "cf-connecting-ip": "203.0.113.9" },
    });

  it("is read only where rate limits or quotas can tell anonymous callers apart by it", async () => {
    const plain = call();
    expect((await app().fetch(plain)).status).toBe(200);
    expect(plain.names).not.toContain("cf-connecting-ip");
    const holders: string[] = [];
    const limited = call();
    const rateLimiter = { check: async (admission: { quotaHolder: string }) => void holders.push(admission.quotaHolder) };
    expect((await app({ rateLimiter }).fetch(limited)).status).toBe(200);
    expect(limited.names).toContain("cf-connecting-ip");
    expect(holders[0]).toContain("203.0.113.9");
  });
});

describe("readBody", () => {
  const post = (body: BodyInit | null, headers: Record<string, string> = {}) => new Request("http://localhost/mcp", { method: "POST", body, headers });

  it("reads a body with and without a declared length, and an absent body as empty", async () => {
    expect(await readBody(post('{"a":1}', { "content-length": "7" }), 100, 1000)).toBe('{"a":1}');
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"a":'));
        controller.enqueue(new TextEncoder().encode("1}"));
        controller.close();
      },
    });
    expect(await readBody(new Request("http://localhost/mcp", { method: "POST", body: stream, duplex: "half" } as RequestInit), 100, 1000)).toBe('{"a":1}');
    expect(await readBody(post(null), 100, 1000)).toBe("");
  });

  it("refuses a body over the limit (413), invalid UTF-8 (400) and one that does not arrive in time (408), as rejections", async () => {
    const over = readBody(post("x".repeat(20), { "content-length": "20" }), 10, 1000);
    expect(over).toBeInstanceOf(Promise);
    await expect(over).rejects.toMatchObject({ status: 413 });
    await expect(readBody(post(new Uint8Array([0x7b, 0xff, 0x7d]), { "content-length": "3" }), 10, 1000)).rejects.toMatchObject({ status: 400, code: -32700 });
    const never = new ReadableStream({ start: () => {} });
    const slow = new Request("http://localhost/mcp", { method: "POST", body: never, duplex: "half" } as RequestInit);
    await expect(readBody(slow, 100, 30)).rejects.toMatchObject({ status: 408 });
    const declared = new Request("http://localhost/mcp", {
      method: "POST",
      body: new ReadableStream({ start: () => {} }),
      headers: { "content-length": "10" },
      duplex: "half",
    } as RequestInit);
    await expect(readBody(declared, 100, 30)).rejects.toMatchObject({ status: 408 });
  });

  it("reads a declared body as the runtime's text, refusing what its decoder replaced unless the length says the bytes were valid", async () => {
    const bytes = (...parts: (string | number[])[]) => {
      const chunks = parts.map((part) => (typeof part === "string" ? new TextEncoder().encode(part) : new Uint8Array(part)));
      const all = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.length, 0));
      let at = 0;
      for (const chunk of chunks) {
        all.set(chunk, at);
        at += chunk.length;
      }
      return all;
    };
    const read = (body: Uint8Array) => readBody(post(body, { "content-length": String(body.length) }), 100, 1000);
    // A literal U+FFFD, a byte order mark (dropped), and both: valid UTF-8.
    expect(await read(bytes('{"a":"\uFFFD"}'))).toBe('{"a":"\uFFFD"}');
    expect(await read(bytes([0xef, 0xbb, 0xbf], '{"a":1}'))).toBe('{"a":1}');
    expect(await read(bytes([0xef, 0xbb, 0xbf], '{"a":"\uFFFD"}'))).toBe('{"a":"\uFFFD"}');
    // A lone byte, a 2-byte sequence cut short, an overlong form, a surrogate: not UTF-8.
    for (const bad of [[0xff], [0xc3], [0xe0, 0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80]]) {
      await expect(read(bytes('{"a":"', bad, '"}')), JSON.stringify(bad)).rejects.toMatchObject({ status: 400, code: -32700 });
    }
    // The one case the text does not reveal: a 4-byte character without its last byte reads as U+FFFD.
    expect(await read(bytes('{"a":"', [0xf0, 0x9f, 0x98], '"}'))).toBe('{"a":"\uFFFD"}');
  });
});

describe("jsonResponse", () => {
  it("gives a plain 200 and any other answer the same JSON content type", async () => {
    const plain = jsonResponse('{"a":1}');
    expect([plain.status, plain.headers.get("content-type"), [...plain.headers.keys()]]).toEqual([200, "application/json", ["content-type"]]);
    expect(await plain.text()).toBe('{"a":1}');
    const refused = jsonResponse("{}", 429, { "retry-after": "3" });
    expect([refused.status, refused.headers.get("content-type"), refused.headers.get("retry-after")]).toEqual([429, "application/json", "3"]);
  });
});
