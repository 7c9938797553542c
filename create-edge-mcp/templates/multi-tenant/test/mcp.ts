// Sends MCP requests to the Worker under test, as a 2026-07-28 client does: one POST per request, no session.
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../src/index";
import { weatherService } from "../tool-service/src/weather";

export interface RpcAnswer {
  status: number;
  headers: Headers;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

// The tool service runs as a Worker of its own under `npm run dev`; here its implementation stands in for the binding.
const testEnv = { ...env, WEATHER: weatherService };

/** POSTs one JSON-RPC request to a tenant's endpoint with the headers and `_meta` that 2026-07-28 requires. */
export async function mcp(path: string, method: string, params: Record<string, unknown> = {}): Promise<RpcAnswer> {
  const name = typeof params["name"] === "string" ? { "mcp-name": params["name"] } : {};
  const request = new Request<unknown, IncomingRequestCfProperties>(`http://127.0.0.1:8787${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...name,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
    }),
  });
  const response = await worker.fetch(request, testEnv, createExecutionContext());
  const body = (await response.json()) as Omit<RpcAnswer, "status" | "headers">;
  return { status: response.status, headers: response.headers, ...body };
}
