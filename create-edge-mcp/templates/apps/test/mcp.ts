// Sends MCP requests to the Worker under test, as a 2026-07-28 client does: one POST per request, no session.
import { exports } from "cloudflare:workers";

export interface RpcAnswer {
  status: number;
  headers: Headers;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** POSTs one JSON-RPC request to /mcp with the headers and `_meta` that 2026-07-28 requires, and the client capabilities given. */
export async function mcp(
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  path = "/mcp",
  capabilities: Record<string, unknown> = {},
): Promise<RpcAnswer> {
  const name = typeof params["name"] === "string" ? { "mcp-name": params["name"] } : {};
  const response = await exports.default.fetch(`http://127.0.0.1:8787${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...name,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": capabilities } },
    }),
  });
  const body = (await response.json()) as Omit<RpcAnswer, "status" | "headers">;
  return { status: response.status, headers: response.headers, ...body };
}
