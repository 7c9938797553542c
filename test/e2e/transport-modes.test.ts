// Raw HTTP: MCP_RESPONSE_MODE really differs between the two servers (JSON on auto, SSE on sse), in both revisions.
import { describe, expect, inject, it } from "vitest";

const SERVERS = [
  ["auto", { baseUrl: inject("baseUrlAuto"), mediaType: "application/json" }],
  ["sse", { baseUrl: inject("baseUrlSse"), mediaType: "text/event-stream" }],
] as const;

const SERVER_INFO = { name: "edge-mcp-demo", title: "edge-mcp demo", version: "0.1.0" };
const ADD_RESULT = { content: [{ type: "text", text: "The sum of 1.5 and 2 is 3.5" }], structuredContent: { sum: 3.5 } };
const ADD_PARAMS = { name: "add", arguments: { a: 1.5, b: 2 } };

function post(baseUrl: string, body: object, headers: Record<string, string>): Promise<Response> {
  return fetch(`${baseUrl}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}

/** The media type of a response, without parameters such as charset. */
function mediaTypeOf(response: Response): string | undefined {
  return response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
}

/** Every JSON-RPC message in the body: one JSON document, or the `data:` of each SSE event. */
async function messagesOf(response: Response): Promise<Record<string, unknown>[]> {
  const body = await response.text();
  if (mediaTypeOf(response) !== "text/event-stream") return [JSON.parse(body) as Record<string, unknown>];
  return body
    .split(/\r?\n\r?\n/)
    .filter((event) => event.trim() !== "")
    .map((event) => {
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart());
      return JSON.parse(data.join("\n")) as Record<string, unknown>;
    });
}

describe.each(SERVERS)("raw HTTP to the %s server", (_server, { baseUrl, mediaType }) => {
  it("is served on loopback only", () => {
    expect(new URL(baseUrl).hostname).toBe("127.0.0.1");
  });

  it(`answers a 2025-11-25 add call as ${mediaType}, without a session`, async () => {
    const response = await post(baseUrl, { jsonrpc: "2.0", id: 7, method: "tools/call", params: ADD_PARAMS }, { "mcp-protocol-version": "2025-11-25" });
    expect(response.status).toBe(200);
    expect(mediaTypeOf(response)).toBe(mediaType);
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect(await messagesOf(response)).toEqual([{ jsonrpc: "2.0", id: 7, result: ADD_RESULT }]);
  });

  it(`answers a 2026-07-28 add call as ${mediaType}, with resultType and serverInfo in _meta`, async () => {
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const response = await post(
      baseUrl,
      { jsonrpc: "2.0", id: "m", method: "tools/call", params: { ...ADD_PARAMS, _meta: meta } },
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "add" },
    );
    expect(response.status).toBe(200);
    expect(mediaTypeOf(response)).toBe(mediaType);
    expect(await messagesOf(response)).toEqual([
      {
        jsonrpc: "2.0",
        id: "m",
        result: { ...ADD_RESULT, resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO } },
      },
    ]);
  });
});

describe("raw HTTP header values", () => {
  it("ignores optional whitespace around 2026-07-28 header values (RFC 9110 §5.5)", async () => {
    // fetch() would trim the values itself; node:http sends them as written.
    const { request } = await import("node:http");
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "echo",
        arguments: { text: "x" },
        _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
      },
    });
    const reply = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${inject("baseUrlAuto")}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28 ",
          "mcp-method": "tools/call\t",
          "mcp-name": "echo  ",
        },
      });
      req.on("response", (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on("error", reject);
      req.end(body);
    });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toMatchObject({ id: 1, result: { content: [{ type: "text", text: "x" }] } });
  });
});
