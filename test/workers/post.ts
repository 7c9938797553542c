// Helpers for Worker tests: POST a JSON-RPC body to the demo Worker's /mcp endpoint.
import { exports } from "cloudflare:workers";

export const URL_MCP = "http://127.0.0.1:8787/mcp";

export const BASE_HEADERS: Record<string, string> = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

export const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

export function post(body: string | object, headers: Record<string, string> = {}): Promise<Response> {
  return exports.default.fetch(URL_MCP, {
    method: "POST",
    headers: { ...BASE_HEADERS, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** POSTs a 2026-07-28 request with its required headers and `_meta`; `params` may override either. */
export function postModern(
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  id: number | string = 1,
): Promise<Response> {
  const name = typeof params["name"] === "string" ? { "mcp-name": params["name"] } : {};
  return post(
    { jsonrpc: "2.0", id, method, params: { _meta: MODERN_META, ...params } },
    { "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...name, ...headers },
  );
}

export interface RpcBody {
  jsonrpc: string;
  id?: string | number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** Reads a JSON response and asserts nothing; tests assert status and code themselves. */
export async function rpc(response: Response): Promise<RpcBody> {
  return response.json<RpcBody>();
}
