// Requests to the notifications fixture Worker: tool calls, listen streams and hub stats per tenant.
// `auxiliary` is the fixture with workerd's defaults (NOTIFY); `runner` is the Worker under test,
// whose runner turns cross-request wake-ups off (the fallback path).
import { env, exports } from "cloudflare:workers";

export interface Target {
  fetch(input: string, init?: RequestInit): Promise<Response>;
}

export const auxiliary: Target = { fetch: (input, init) => env.NOTIFY.fetch(input, init) };
export const runner = exports.default as unknown as Target;

const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
let nextId = 1;

function post(target: Target, tenant: string, method: string, params: Record<string, unknown>): Promise<Response> {
  const name = typeof params["name"] === "string" ? { "mcp-name": params["name"] } : {};
  return target.fetch(`http://localhost/t/${tenant}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...name,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: MODERN_META } }),
  });
}

/** Calls a tool of the announcer module; resolves with its text. */
export async function call(target: Target, tenant: string, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const reply = await (await post(target, tenant, "tools/call", { name, arguments: args })).json<{ result?: { content?: { text?: string }[] } }>();
  return reply.result?.content?.[0]?.text ?? JSON.stringify(reply);
}

export interface Listener {
  id: number;
  /** The next JSON-RPC message on the stream (comments skipped); undefined at its end. */
  next(): Promise<Record<string, unknown> | undefined>;
  /** The raw SSE text read so far. */
  readonly text: string;
  close(): Promise<void>;
}

/** Reads SSE events from a streaming response, one JSON-RPC message at a time. */
export function sseMessages(response: Response, id = 0): Listener {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let text = "";
  return {
    id,
    get text() {
      return text;
    },
    async next() {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split("\n").find((line) => line.startsWith("data: "));
          if (data && data !== "data: ") return JSON.parse(data.slice(6)) as Record<string, unknown>;
          continue;
        }
        const { done, value } = await reader.read();
        if (done) return undefined;
        const chunk = decoder.decode(value, { stream: true });
        buffer += chunk;
        text += chunk;
      }
    },
    close: () => reader.cancel(),
  };
}

/** Opens a subscriptions/listen stream on a tenant. */
export async function listen(target: Target, tenant: string, notifications: Record<string, unknown>): Promise<Listener> {
  const id = nextId;
  const response = await post(target, tenant, "subscriptions/listen", { notifications });
  if (response.headers.get("content-type") !== "text/event-stream") throw new Error(`listen: HTTP ${response.status} ${await response.text()}`);
  return sseMessages(response, id);
}

/** A hub object's stats, by object name (see hubName). */
export async function hubStats(target: Target, name: string): Promise<{ subscribers: number; seq: number; epoch: string }> {
  return await (
    await target.fetch(`http://localhost/test/hub-stats?name=${encodeURIComponent(name)}`)
  ).json<{ subscribers: number; seq: number; epoch: string }>();
}

export async function hubSubscribers(target: Target, name: string): Promise<number> {
  return (await hubStats(target, name)).subscribers;
}

/** Aborts a hub object (as a reset, an eviction or a redeploy does). */
export async function resetHub(target: Target, name: string): Promise<void> {
  await (await target.fetch(`http://localhost/test/hub-reset?name=${encodeURIComponent(name)}`, { method: "POST" })).text();
}

/** Listen streams open in the fixture's isolate. */
export async function openStreams(target: Target): Promise<number> {
  return (await (await target.fetch("http://localhost/test/listen-streams")).json<{ open: number }>()).open;
}

/** A 2025-11-25 request in a session of the `legacy` tenant. */
export function legacyPost(target: Target, sessionId: string | undefined, method: string, params: Record<string, unknown> = {}): Promise<Response> {
  return target.fetch("http://localhost/t/legacy/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      ...(sessionId === undefined ? {} : { "mcp-session-id": sessionId }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
  });
}
