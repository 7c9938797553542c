// Requests from a client address (CF-Connecting-IP), for the tests of anonymous callers.
import { send } from "./fixture.ts";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

/** A 2026-07-28 request from a client address. */
export function from(tenant: string, address: string, method: string, params: Record<string, unknown> = {}): Promise<Response> {
  const name = typeof params["name"] === "string" ? { "mcp-name": params["name"] } : {};
  return send(tenant, {
    body: { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } },
    headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...name, "cf-connecting-ip": address },
  });
}

/** A 2025-11-25 initialize from a client address. */
export function initializeFrom(
  tenant: string,
  address: string,
  params: Record<string, unknown> = { protocolVersion: "2025-11-25" },
  id = 1,
): Promise<Response> {
  return send(tenant, {
    body: { jsonrpc: "2.0", id, method: "initialize", params: { capabilities: {}, clientInfo: { name: "t", version: "1" }, ...params } },
    headers: { "cf-connecting-ip": address },
  });
}
