// Requests to the conformance fixture Worker (examples/conformance) inside workerd.
import { exports } from "cloudflare:workers";

const worker = exports.default as unknown as { fetch(input: string, init?: RequestInit): Promise<Response> };

export const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const NAME_FIELD: Record<string, string> = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" };
let nextId = 1;

export function fetchMcp(method: string, params: Record<string, unknown>, headers: Record<string, string>): Promise<Response> {
  return worker.fetch("http://127.0.0.1:8788/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
  });
}

let sessionId: Promise<string> | undefined;

/** The fixture keeps 2025-era clients in sessions: one is opened (once per test file) before the first legacy call. */
export function legacySession(): Promise<string> {
  sessionId ??= fetchMcp("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "workers-test", version: "1" } }, {}).then(
    (response) => {
      const id = response.headers.get("mcp-session-id");
      if (id === null) throw new Error(`initialize returned no Mcp-Session-Id (HTTP ${response.status})`);
      return id;
    },
  );
  return sessionId;
}

export async function legacy(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const headers = { "mcp-protocol-version": "2025-11-25", "mcp-session-id": await legacySession() };
  return (await fetchMcp(method, params, headers)).json<Record<string, unknown>>();
}

/** A 2026-07-28 request; `meta` is merged over the required `_meta` keys. */
export function modernResponse(method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): Promise<Response> {
  const field = NAME_FIELD[method];
  const name = field !== undefined && typeof params[field] === "string" ? { "mcp-name": params[field] } : {};
  return fetchMcp(method, { ...params, _meta: { ...MODERN_META, ...meta } }, { "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...name });
}

export async function modern(method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const response = await modernResponse(method, params, meta);
  const text = await response.text();
  if (response.headers.get("content-type") === "text/event-stream") {
    const last =
      text
        .split("\n")
        .filter((l) => l.startsWith("data: "))
        .at(-1) ?? "data: {}";
    return JSON.parse(last.slice(6)) as Record<string, unknown>;
  }
  return { status: response.status, ...(JSON.parse(text) as Record<string, unknown>) };
}
