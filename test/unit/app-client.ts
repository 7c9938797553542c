// A tiny JSON-RPC client over the hono app's fetch, for unit tests of whole requests in both eras.
import type { McpApp } from "../../src/http/app.ts";

export const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

const NAME_FIELD: Record<string, string> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

export interface Reply {
  status: number;
  contentType: string | null;
  body: Record<string, unknown>;
}

let nextId = 1;

export async function legacy(app: McpApp, method: string, params?: Record<string, unknown>): Promise<Reply> {
  const response = await request(app, "http://localhost/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, ...(params ? { params } : {}) }),
  });
  return read(response);
}

/** A 2026-07-28 request: `_meta` merged over the defaults, headers derived from the body. */
export async function modern(app: McpApp, method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): Promise<Reply> {
  const field = NAME_FIELD[method];
  const name = field !== undefined && typeof params[field] === "string" ? { "mcp-name": params[field] } : {};
  const response = await request(app, "http://localhost/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...name,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: { ...MODERN_META, ...meta } } }),
  });
  return read(response);
}

async function read(response: Response): Promise<Reply> {
  const contentType = response.headers.get("content-type");
  const text = await response.text();
  if (contentType === "text/event-stream") {
    const messages = text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
    return { status: response.status, contentType, body: messages.at(-1) ?? {} };
  }
  return { status: response.status, contentType, body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

/** Sends a request to an app's fetch, as a Worker would receive it (a relative URL is on http://localhost). */
export function request(app: McpApp, input: string, init?: RequestInit): Promise<Response> {
  return app.fetch(new Request(new URL(input, "http://localhost"), init));
}
