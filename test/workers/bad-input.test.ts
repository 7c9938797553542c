// Every malformed request gets the status and JSON-RPC error code the spec names, and the Worker stays healthy.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BASE_HEADERS, MODERN_META, URL_MCP, post, postModern, rpc } from "./post.ts";
import { bodyBytes } from "../unit/body-bytes.ts";

const PING = { jsonrpc: "2.0", id: 1, method: "ping" };

async function expectError(response: Response, status: number, code: number): Promise<{ message: string; data?: unknown }> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/json");
  const body = await rpc(response);
  expect(body.jsonrpc).toBe("2.0");
  expect(body.error?.code).toBe(code);
  expect(body.error?.message).toBeTypeOf("string");
  return body.error as { message: string; data?: unknown };
}

describe("transport-level refusals", () => {
  it("answers malformed JSON with 400 -32700 and no id", async () => {
    const response = await post('{"jsonrpc":"2.0","id":1,');
    await expectError(response, 400, -32700);
  });

  it("answers a body that is not UTF-8 with 400 -32700, and takes a literal U+FFFD and a byte order mark", async () => {
    const send = (...parts: (string | number[])[]) => {
      const body = bodyBytes(...parts);
      return exports.default.fetch(URL_MCP, { method: "POST", headers: { ...BASE_HEADERS, "content-length": String(body.length) }, body });
    };
    for (const bad of [[0xff], [0xe0, 0x80], [0xc0, 0xaf]]) {
      const error = await expectError(await send('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":"', bad, '"}}'), 400, -32700);
      expect(error.message).toMatch(/not valid UTF-8/);
    }
    const literal = await send('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":"\uFFFD"}}');
    expect(literal.status).toBe(200);
    const marked = await send([0xef, 0xbb, 0xbf], '{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(marked.status).toBe(200);
  });

  it.each(["1", "null", '"text"', "true"])("answers the non-object body %s with 400 -32600", async (body) => {
    await expectError(await post(body), 400, -32600);
  });

  it("refuses a batch with 400 -32600", async () => {
    const error = await expectError(await post([PING, PING]), 400, -32600);
    expect(error.message).toMatch(/Batch/);
  });

  it("answers a wrong jsonrpc version with 400 -32600 echoing the id", async () => {
    const response = await post({ jsonrpc: "1.0", id: 9, method: "ping" });
    expect(response.status).toBe(400);
    expect(await rpc(response)).toMatchObject({ id: 9, error: { code: -32600 } });
  });

  it("answers a null id with 400 -32600", async () => {
    await expectError(await post({ jsonrpc: "2.0", id: null, method: "ping" }), 400, -32600);
  });

  it("refuses a JSON-RPC response when no request awaits one", async () => {
    await expectError(await post({ jsonrpc: "2.0", id: 1, result: {} }), 400, -32600);
  });

  it("answers a missing or partial Accept header with 406", async () => {
    await expectError(await post(PING, { accept: "application/json" }), 406, -32600);
    await expectError(await post(PING, { accept: "text/html" }), 406, -32600);
  });

  it("answers a wrong Content-Type with 415", async () => {
    await expectError(await post(PING, { "content-type": "text/plain" }), 415, -32600);
    await expectError(await post(PING, { "content-type": "application/json; charset=latin1" }), 415, -32600);
  });

  it("answers an oversized body with 413, whether or not Content-Length announces it", async () => {
    const big = JSON.stringify({ ...PING, params: { pad: "x".repeat(1024 * 1024) } });
    await expectError(await post(big), 413, -32600);
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
        for (let i = 0; i < 20; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const response = await exports.default.fetch(URL_MCP, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: chunked,
    });
    await expectError(response, 413, -32600);
  });

  it("refuses JSON nested deeper than 64 levels with 400 -32600", async () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":${"[".repeat(100)}${"]".repeat(100)}}}`;
    const error = await expectError(await post(deep), 400, -32600);
    expect(error.message).toMatch(/nested/);
  });

  it("answers GET and DELETE with 405 and Allow: POST while there is no session", async () => {
    for (const method of ["GET", "DELETE", "PUT"]) {
      const response = await exports.default.fetch(URL_MCP, { method, headers: { accept: "text/event-stream" } });
      expect(response.headers.get("allow")).toBe("POST");
      await expectError(response, 405, -32600);
    }
  });

  it("answers other paths with 404 naming the endpoint", async () => {
    const error = await expectError(await exports.default.fetch("http://127.0.0.1:8787/other"), 404, -32600);
    expect(error.message).toMatch(/\/mcp/);
  });

  it("refuses a foreign Host or Origin with 403 (DNS rebinding)", async () => {
    const host = await exports.default.fetch("http://evil.example.com/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(PING),
    });
    await expectError(host, 403, -32600);
    await expectError(await post(PING, { origin: "http://evil.example.com" }), 403, -32600);
  });
});

describe("legacy (2025) requests", () => {
  it("answers an unknown method with -32601", async () => {
    await expectError(await post({ jsonrpc: "2.0", id: 1, method: "no/such" }), 200, -32601);
  });

  it("answers an unsupported MCP-Protocol-Version header with 400 -32022 listing supported versions", async () => {
    const error = await expectError(await post(PING, { "mcp-protocol-version": "2024-01-01" }), 400, -32022);
    expect(error.data).toMatchObject({ requested: "2024-01-01", supported: expect.arrayContaining(["2025-11-25"]) });
  });

  it("accepts notifications with 202 and no body", async () => {
    const response = await post({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });

  it.each(["constructor", "__proto__", "toString"])("answers the method %s with -32601", async (method) => {
    await expectError(await post({ jsonrpc: "2.0", id: 1, method }), 200, -32601);
  });

  it.each(["constructor", "__proto__", "toString"])("answers tools/call of the tool %s with -32602 Unknown tool", async (name) => {
    const error = await expectError(await post({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name } }), 200, -32602);
    expect(error.message).toBe(`Unknown tool: ${name}`);
  });

  it("answers tools/call without a name, or with an unknown one, with -32602", async () => {
    await expectError(await post({ jsonrpc: "2.0", id: 1, method: "tools/call", params: {} }), 200, -32602);
    const error = await expectError(await post({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "nope" } }), 200, -32602);
    expect(error.message).toBe("Unknown tool: nope");
  });

  it("answers a bogus tools/list cursor with -32602", async () => {
    await expectError(await post({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { cursor: "bogus" } }), 200, -32602);
  });

  it("answers arguments that break the schema with an isError result saying what to fix", async () => {
    const response = await post({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", arguments: { a: "one", b: 2 } } });
    expect(response.status).toBe(200);
    const body = await rpc(response);
    expect(body.result?.["isError"]).toBe(true);
    expect(JSON.stringify(body.result)).toMatch(/\/a: .*Expected \\"number\\"/);
  });

  it("treats a __proto__ argument as data, and the next request is unaffected", async () => {
    const response = await post('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"__proto__":{"text":"x"}}}}');
    const body = await rpc(response);
    expect(body.result?.["isError"]).toBe(true);
    const next = await rpc(await post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "still fine" } } }));
    expect(next.result).toEqual({ content: [{ type: "text", text: "still fine" }] });
  });
});

describe("2026-07-28 requests", () => {
  it("answers a missing _meta with 400 -32602", async () => {
    const response = await post(
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" },
    );
    await expectError(response, 400, -32602);
  });

  it("answers missing clientCapabilities with 400 -32602", async () => {
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
    await expectError(await postModern("tools/list", { _meta: meta }), 400, -32602);
  });

  it("answers an unsupported version with 400 -32022 naming requested and supported", async () => {
    const meta = { ...MODERN_META, "io.modelcontextprotocol/protocolVersion": "1900-01-01" };
    const error = await expectError(await postModern("tools/list", { _meta: meta }, { "mcp-protocol-version": "1900-01-01" }), 400, -32022);
    expect(error.data).toEqual({ supported: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"], requested: "1900-01-01" });
  });

  it("answers header/body disagreements and missing headers with 400 -32020", async () => {
    await expectError(await postModern("tools/list", {}, { "mcp-protocol-version": "2025-11-25" }), 400, -32020);
    await expectError(await postModern("tools/list", {}, { "mcp-method": "tools/call" }), 400, -32020);
    await expectError(await post({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: MODERN_META } }, { "mcp-method": "tools/list" }), 400, -32020);
    await expectError(await postModern("tools/call", { name: "echo", arguments: { text: "x" } }, { "mcp-name": "add" }), 400, -32020);
  });

  it.each(["initialize", "ping", "logging/setLevel", "resources/subscribe", "no/such"])(
    "answers the removed or unknown method %s with 404 -32601",
    async (method) => {
      await expectError(await postModern(method), 404, -32601);
    },
  );

  it.each(["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "__defineGetter__"])(
    "answers the method %s, which names an Object.prototype member, with 404 -32601 (no Mcp-Name needed)",
    async (method) => {
      const response = await post(
        { jsonrpc: "2.0", id: 1, method, params: { _meta: MODERN_META } },
        { "mcp-protocol-version": "2026-07-28", "mcp-method": method },
      );
      const error = await expectError(response, 404, -32601);
      expect(error.message).toBe(`Method not found: ${method}`);
    },
  );

  it("answers an invalid log level with 400 -32602", async () => {
    await expectError(await postModern("tools/list", { _meta: { ...MODERN_META, "io.modelcontextprotocol/logLevel": "loud" } }), 400, -32602);
  });

  it("answers a bogus cursor with -32602", async () => {
    await expectError(await postModern("tools/list", { cursor: "bogus" }), 200, -32602);
  });
});
