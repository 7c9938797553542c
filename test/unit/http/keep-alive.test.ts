// Keep-alive writes on call answers: on Workers only a failed write reveals a client that went away.
import { describe, expect, it } from "vitest";
import { createMcpApp } from "../../../src/http/mcp-app.ts";
import type { ResponseMode } from "../../../src/http/endpoint.ts";
import { SseStream } from "../../../src/http/sse-stream.ts";
import { createServer } from "../../../src/server/server.ts";
import { defineTool } from "../../../src/server/tools/tool.ts";
import { request } from "../app-client.ts";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const decoder = new TextDecoder();

/** A tool that runs until the test releases it; `readsSignal` decides whether it touches ctx.signal. */
function heldTool(readsSignal: boolean) {
  let release: (text: string) => void = () => {};
  const tool = defineTool({
    name: "held",
    description: "Runs until released.",
    inputSchema: { type: "object" },
    handler: (_args, ctx) =>
      new Promise<string>((resolve) => {
        if (readsSignal) void ctx.signal;
        release = resolve;
      }),
  });
  return { tool, release: (text: string) => release(text) };
}

function app(tool: ReturnType<typeof heldTool>["tool"], options: { keepAliveMs?: number; responseMode?: ResponseMode }) {
  return createMcpApp({ server: createServer({ info: { name: "t", version: "1" }, tools: [tool] }), ...options });
}

function callHeld(mcp: ReturnType<typeof createMcpApp>, meta: Record<string, unknown> = {}): Promise<Response> {
  return Promise.resolve(
    request(mcp, "http://localhost/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "held",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "held", arguments: {}, _meta: { ...META, ...meta } } }),
    }),
  );
}

async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const { value } = await reader.read();
  return decoder.decode(value);
}

describe("SseStream keep-alive", () => {
  it("writes a keep-alive comment when nothing else was written for keepAliveMs", async () => {
    const stream = new SseStream(() => {}, { keepAliveMs: 5 });
    const reader = (stream.response.body as ReadableStream<Uint8Array>).getReader();
    expect(await readChunk(reader)).toBe(": keep-alive\n\n");
    stream.send('{"jsonrpc":"2.0","id":1,"result":{}}');
    stream.close();
    expect(await readChunk(reader)).toBe('event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');
    expect((await reader.read()).done).toBe(true);
  });

  it("writes no keep-alive when keepAliveMs is 0", async () => {
    const stream = new SseStream(() => {}, { keepAliveMs: 0 });
    const body = stream.response.text();
    await new Promise((resolve) => setTimeout(resolve, 20));
    stream.close();
    expect(await body).toBe("");
  });
});

describe("call answers and keep-alive", () => {
  it("answers a call whose handler reads ctx.signal as SSE once it outlives keepAliveMs (auto mode)", async () => {
    const held = heldTool(true);
    const response = await callHeld(app(held.tool, { keepAliveMs: 5 }));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(await readChunk(reader)).toBe(": keep-alive\n\n");
    held.release("done");
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += decoder.decode(chunk.value);
    expect(rest).toMatch(/^(: keep-alive\n\n)*event: message\ndata: \{"jsonrpc":"2\.0","id":1,"result":\{"content":\[\{"type":"text","text":"done"\}\]/);
  });

  it("keeps the JSON answer of a handler that never reads ctx.signal, however long it runs", async () => {
    const held = heldTool(false);
    const answer = callHeld(app(held.tool, { keepAliveMs: 5 }));
    setTimeout(() => held.release("done"), 30);
    const response = await answer;
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toMatchObject({ result: { content: [{ type: "text", text: "done" }] } });
  });

  it.each([
    ["keepAliveMs is 0", { keepAliveMs: 0 }],
    ["the response mode is json", { keepAliveMs: 5, responseMode: "json" as const }],
  ])("keeps the JSON answer of a handler that reads ctx.signal when %s", async (_case, options) => {
    const held = heldTool(true);
    const answer = callHeld(app(held.tool, options));
    setTimeout(() => held.release("done"), 30);
    const response = await answer;
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toMatchObject({ result: { content: [{ type: "text", text: "done" }] } });
  });

  it("adds keep-alive comments to a quiet SSE answer after its notifications", async () => {
    const quiet = defineTool({
      name: "held",
      description: "Reports progress, then runs until released.",
      inputSchema: { type: "object" },
      handler: (_args, ctx) =>
        new Promise<string>((resolve) => {
          ctx.progress(1, 2);
          release = resolve;
        }),
    });
    let release: (text: string) => void = () => {};
    const response = await callHeld(app(quiet, { keepAliveMs: 5 }), { progressToken: "p" });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(await readChunk(reader)).toMatch(/^event: message\ndata: \{"jsonrpc":"2\.0","method":"notifications\/progress"/);
    expect(await readChunk(reader)).toBe(": keep-alive\n\n");
    release("done");
    await reader.cancel();
  });
});
