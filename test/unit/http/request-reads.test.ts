// What a stateless call reads from its request, and how: the headers once, the client address only where it
// is used, the body within its limits (413, 408, UTF-8); and the plain JSON answer.
import { describe, expect, it } from "vitest";
import { createMcpApp, type McpAppOptions } from "../../../src/http/mcp-app.ts";
import { readBody } from "../../../src/http/admission/read-body.ts";
import { jsonResponse } from "../../../src/http/responses.ts";
import { createServer } from "../../../src/server/server.ts";
import { defineTool } from "../../../src/server/tools/tool.ts";
import { bodyBytes } from "../body-bytes.ts";

const SUM_SCHEMA = { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } as const;
const tools = [
  defineTool({
    name: "sync",
    inputSchema: SUM_SCHEMA,
    handler: ({ a, b }) => ({ content: [{ type: "text", text: `${a + b}` }], structuredContent: { sum: a + b } }),
  }),
];

function app(options: Partial<McpAppOptions> = {}) {
  return createMcpApp({ server: createServer({ info: { name: "t", version: "1" }, tools }), ...options });
}

const resultOf = (body: Record<string, unknown>) => body["result"] as Record<string, unknown>;

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
    const read = (body: Uint8Array) => readBody(post(body, { "content-length": String(body.length) }), 100, 1000);
    // A literal U+FFFD, a byte order mark (dropped), and both: valid UTF-8.
    expect(await read(bodyBytes('{"a":"\uFFFD"}'))).toBe('{"a":"\uFFFD"}');
    expect(await read(bodyBytes([0xef, 0xbb, 0xbf], '{"a":1}'))).toBe('{"a":1}');
    expect(await read(bodyBytes([0xef, 0xbb, 0xbf], '{"a":"\uFFFD"}'))).toBe('{"a":"\uFFFD"}');
    // A lone byte, a 2-byte sequence cut short, an overlong form, a surrogate: not UTF-8.
    for (const bad of [[0xff], [0xc3], [0xe0, 0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80]]) {
      await expect(read(bodyBytes('{"a":"', bad, '"}')), JSON.stringify(bad)).rejects.toMatchObject({ status: 400, code: -32700 });
    }
    // The one case the text does not reveal: a 4-byte character without its last byte reads as U+FFFD.
    expect(await read(bodyBytes('{"a":"', [0xf0, 0x9f, 0x98], '"}'))).toBe('{"a":"\uFFFD"}');
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
