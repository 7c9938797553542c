// A deliberately faulty MCP server (2026-07-28, JSON answers) on 127.0.0.1 for the remote-module tests: each tool
// misbehaves in one way (HTTP 500, no answer, a 50 MiB body, invalid JSON, a redirect), one listed schema does not compile.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

export interface FakeUpstream {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  /** Requests received, by method (`tools/list`, `tools/call:ping`, …). */
  readonly seen: string[];
  close(): Promise<void>;
}

const TOOLS = [
  { name: "ping", description: "Answers pong.", inputSchema: { type: "object" } },
  { name: "boom", description: "Answers HTTP 500.", inputSchema: { type: "object" } },
  { name: "hang", description: "Never answers.", inputSchema: { type: "object" } },
  { name: "huge", description: "Answers 50 MiB.", inputSchema: { type: "object" } },
  { name: "garbage", description: "Answers invalid JSON.", inputSchema: { type: "object" } },
  { name: "redirect", description: "Answers with a redirect to another origin.", inputSchema: { type: "object" } },
  // A schema whose root is not an object: left out of the list alone.
  { name: "crooked", description: "Its schema does not compile.", inputSchema: { type: "string" } },
];

function json(response: ServerResponse, body: unknown, status = 200): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

async function bodyOf(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = "";
  for await (const chunk of request) text += String(chunk);
  return JSON.parse(text) as Record<string, unknown>;
}

function answer(request: IncomingMessage, response: ServerResponse, seen: string[]): void {
  void bodyOf(request).then((message) => {
    const id = message["id"];
    const method = String(message["method"]);
    const params = (message["params"] ?? {}) as Record<string, unknown>;
    const result = (value: Record<string, unknown>) => json(response, { jsonrpc: "2.0", id, result: { resultType: "complete", ...value } });
    if (method === "server/discover") {
      seen.push(method);
      return result({
        supportedVersions: ["2026-07-28"],
        capabilities: { tools: {} },
        serverInfo: { name: "fake", version: "1" },
        ttlMs: 60_000,
        cacheScope: "public",
      });
    }
    if (method === "tools/list") {
      seen.push(method);
      return result({ tools: TOOLS, ttlMs: 60_000, cacheScope: "public" });
    }
    if (method !== "tools/call") return json(response, { jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } }, 404);
    const name = String(params["name"]);
    seen.push(`tools/call:${name}`);
    switch (name) {
      case "ping":
        return result({
          content: [{ type: "text", text: `pong (traceparent ${((params["_meta"] ?? {}) as Record<string, unknown>)["traceparent"] ? "passed" : "absent"})` }],
        });
      case "boom":
        response.writeHead(500, { "content-type": "text/plain" });
        return response.end("database password is hunter2");
      case "hang":
        return; // never answers; the socket is closed when the server closes
      case "huge": {
        response.writeHead(200, { "content-type": "application/json" });
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        let sent = 0;
        const more = (): void => {
          while (sent < 50) {
            sent += 1;
            if (!response.write(chunk)) return void response.once("drain", more);
          }
          response.end();
        };
        response.on("error", () => {});
        return more();
      }
      case "garbage":
        response.writeHead(200, { "content-type": "application/json" });
        return response.end('{"jsonrpc":"2.0","id":');
      case "redirect":
        response.writeHead(307, { location: "http://203.0.113.9/mcp" });
        return response.end();
      default:
        return result({ content: [{ type: "text", text: "unknown" }], isError: true });
    }
  });
}

export async function startFakeUpstream(port = 0): Promise<FakeUpstream> {
  const seen: string[] = [];
  const server: Server = createServer((request, response) => answer(request, response, seen));
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${address.port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
