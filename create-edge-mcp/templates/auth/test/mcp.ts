// Sends MCP requests to the Worker under test as a 2026-07-28 client does, with the API keys of each test.
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../src/index";

export interface RpcAnswer {
  status: number;
  headers: Headers;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** A new API key and the MCP_API_KEYS entry that grants it `scopes`. */
export function apiKey(id: string, scopes: string[]): { key: string; entry: Promise<{ id: string; sha256: string; scopes: string[] }> } {
  const key = `emk_test_${crypto.randomUUID()}`;
  const entry = crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)).then((digest) => ({
    id,
    sha256: [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join(""),
    scopes,
  }));
  return { key, entry };
}

/** The Worker with these API keys configured (the other vars as in wrangler.toml). */
export function withKeys(keys: { id: string; sha256: string; scopes: string[] }[]) {
  const testEnv = { ...env, MCP_API_KEYS: JSON.stringify(keys) };
  return {
    fetch: (request: Request<unknown, IncomingRequestCfProperties>) => worker.fetch(request, testEnv, createExecutionContext()),

    /** POSTs one JSON-RPC request to /mcp with the headers and `_meta` that 2026-07-28 requires. */
    async mcp(method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<RpcAnswer> {
      const name = typeof params["name"] === "string" ? { "mcp-name": params["name"] } : {};
      const request = new Request<unknown, IncomingRequestCfProperties>("http://127.0.0.1:8787/mcp", {
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
          params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
        }),
      });
      const response = await worker.fetch(request, testEnv, createExecutionContext());
      const body = response.headers.get("content-type")?.startsWith("application/json")
        ? ((await response.json()) as Omit<RpcAnswer, "status" | "headers">)
        : {};
      return { status: response.status, headers: response.headers, ...body };
    },
  };
}
