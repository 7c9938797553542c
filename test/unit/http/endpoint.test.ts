// The hono app runs on any Web-standard runtime; these tests drive it in Node.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createMcpApp } from "../../../src/http/mcp-app.ts";
import { createServer } from "../../../src/server/server.ts";
import { defineTool } from "../../../src/server/tools/tool.ts";
import { request } from "../app-client.ts";

const region = defineTool({
  name: "forecast",
  description: "Weather for a region.",
  inputSchema: {
    type: "object",
    properties: { region: { type: "string", "x-mcp-header": "Region" }, days: { type: "integer", "x-mcp-header": "Days" }, apiKey: { type: "string" } },
  },
  handler: (args) => `forecast for ${String(args["region"])}`,
});

const server = createServer({ info: { name: "t", version: "1" }, tools: [region] });
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

function call(app: ReturnType<typeof createMcpApp>, args: Record<string, unknown>, headers: Record<string, string>) {
  return request(app, "http://localhost/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "forecast",
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "forecast", arguments: args, _meta: META } }),
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("Mcp-Param headers (x-mcp-header)", () => {
  const app = createMcpApp({ server });

  it("accepts matching plain, base64 and numeric headers", async () => {
    expect((await call(app, { region: "Paris" }, { "mcp-param-region": "Paris" })).status).toBe(200);
    expect((await call(app, { region: "Zürich" }, { "mcp-param-region": `=?base64?${btoa("Z\xc3\xbcrich")}?=` })).status).toBe(200);
    expect((await call(app, { region: "x", days: 3 }, { "mcp-param-region": "x", "mcp-param-days": "03" })).status).toBe(200);
  });

  it("expects no header for an absent or null argument", async () => {
    expect((await call(app, {}, {})).status).toBe(200);
    expect((await call(app, { region: null }, {})).status).toBe(200);
  });

  it.each([
    [{ region: "Paris" }, {}],
    [{ region: "Paris" }, { "mcp-param-region": "Lyon" }],
    [{ region: "Hello" }, { "mcp-param-region": "=?base64?SGVsbG8?=" }],
    [
      { region: "x", days: 3 },
      { "mcp-param-region": "x", "mcp-param-days": "4" },
    ],
  ])("refuses %j with headers %j: 400 -32020", async (args, headers) => {
    const response = await call(app, args, headers);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: 1, error: { code: -32020 } });
  });
});

describe("debug logging", () => {
  it("logs each message in and out with credentials redacted", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: unknown) => {
      lines.push(String(line));
    });
    const app = createMcpApp({ server, debug: true });
    await call(app, { region: "Paris", apiKey: "sk-live-123" }, { "mcp-param-region": "Paris", authorization: "Bearer abc.def" });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^edge-mcp debug \{"direction":"in"/);
    expect(lines[1]).toMatch(/"direction":"out"/);
    expect(lines.join("\n")).not.toMatch(/sk-live-123|abc\.def/);
    expect(lines[0]).toMatch(/"apiKey":"\[redacted\]"/);
    expect(lines[0]).toMatch(/"authorization":"\[redacted\]"/);
  });

  it("logs nothing when off", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    await call(createMcpApp({ server }), { region: "Paris" }, { "mcp-param-region": "Paris" });
    expect(log).not.toHaveBeenCalled();
  });
});

describe("response modes", () => {
  const countdown = defineTool({
    name: "steps",
    description: "Reports two progress steps.",
    inputSchema: { type: "object" },
    handler: (_args, ctx) => {
      ctx.progress(1, 2);
      ctx.progress(2, 2);
      return "done";
    },
  });
  const stepsServer = createServer({ info: { name: "t", version: "1" }, tools: [countdown] });
  const legacyCall = (app: ReturnType<typeof createMcpApp>, withToken: boolean) =>
    request(app, "http://localhost/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "steps", ...(withToken ? { _meta: { progressToken: 1 } } : {}) } }),
    });

  it("auto: JSON when nothing streams, SSE when a synchronous handler reports progress", async () => {
    const app = createMcpApp({ server: stepsServer });
    expect((await legacyCall(app, false)).headers.get("content-type")).toBe("application/json");
    const streamed = await legacyCall(app, true);
    expect(streamed.headers.get("content-type")).toBe("text/event-stream");
    const text = await streamed.text();
    expect(text.match(/notifications\/progress/g)).toHaveLength(2);
    expect(text).toMatch(/"result":\{"content":\[\{"type":"text","text":"done"\}\]\}/);
  });

  it("sse: always a stream; json: never, dropping notifications", async () => {
    expect((await legacyCall(createMcpApp({ server: stepsServer, responseMode: "sse" }), false)).headers.get("content-type")).toBe("text/event-stream");
    const json = await legacyCall(createMcpApp({ server: stepsServer, responseMode: "json" }), true);
    expect(json.headers.get("content-type")).toBe("application/json");
    expect(await json.json()).toMatchObject({ result: { content: [{ text: "done" }] } });
  });
});

describe("cancellation", () => {
  it("aborts the handler's signal when the client closes the SSE response", async () => {
    let aborted: (reason: unknown) => void = () => {};
    const abortedPromise = new Promise<unknown>((resolve) => {
      aborted = resolve;
    });
    const slow = defineTool({
      name: "slow",
      description: "Reports progress, then waits until cancelled.",
      inputSchema: { type: "object" },
      handler: (_args, ctx) =>
        new Promise<string>((_resolve, reject) => {
          ctx.progress(1);
          ctx.signal.addEventListener("abort", () => {
            aborted(ctx.signal.reason);
            reject(ctx.signal.reason);
          });
        }),
    });
    const app = createMcpApp({ server: createServer({ info: { name: "t", version: "1" }, tools: [slow] }) });
    const response = await request(app, "http://localhost/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", _meta: { progressToken: "t" } } }),
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    expect(await abortedPromise).toMatchObject({ name: "AbortError" });
  });
});

describe("CORS", () => {
  const app = createMcpApp({ server });

  it("answers a preflight from an allowed origin with the MCP methods and headers", async () => {
    const response = await request(app, "http://localhost:8787/mcp", {
      method: "OPTIONS",
      headers: {
        host: "localhost:8787",
        origin: "http://localhost:6274",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, mcp-protocol-version, mcp-param-region, x-other",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:6274");
    expect(response.headers.get("access-control-allow-headers")).toBe("content-type, mcp-protocol-version, mcp-param-region");
    // Once: a preflight answer varies by Origin, and the CORS step must not say it again.
    expect(response.headers.get("vary")).toBe("Origin");
  });

  it("refuses a preflight from a foreign origin, and adds CORS headers to answers for allowed ones", async () => {
    const foreign = await request(app, "http://localhost:8787/mcp", {
      method: "OPTIONS",
      headers: { host: "localhost:8787", origin: "http://evil.example.com" },
    });
    expect(foreign.status).toBe(403);
    const answer = await request(app, "http://localhost:8787/mcp", {
      method: "POST",
      headers: { host: "localhost:8787", origin: "http://localhost:6274", "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(answer.headers.get("access-control-allow-origin")).toBe("http://localhost:6274");
    expect(answer.headers.get("access-control-expose-headers")).toMatch(/mcp-session-id/);
  });
});
