// Helpers for the workers-admission tests: tokens signed with the published dev key, and JSON-RPC over exports.default.fetch.
import { exports } from "cloudflare:workers";
import { SignJWT, importJWK, type JWK } from "jose";
import privateJwk from "../../examples/multi-tenant/dev-keys/private.jwk.json";

export const API_KEY = "emk_test_ci_key_for_admission_tests";
export const ISSUER_ONE = "https://issuer-one.test";
export const ISSUER_TWO = "https://issuer-two.test";
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };

export interface TokenOptions {
  sub?: string;
  iss?: string;
  scope?: string;
  typ?: string;
  tenant?: string;
}

/** A bearer header for a JWT of the secure tenant (or `tenant`), signed with the dev key. */
export async function bearer(options: TokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({
    iss: options.iss ?? ISSUER_ONE,
    aud: `http://127.0.0.1/t/${options.tenant ?? "secure"}/mcp`,
    sub: options.sub ?? "alice",
    exp: now + 600,
    ...(options.scope === undefined ? {} : { scope: options.scope }),
  })
    .setProtectedHeader({ alg: "ES256", kid: "edge-mcp-dev-es256-1", ...(options.typ === undefined ? {} : { typ: options.typ }) })
    .sign(await importJWK(privateJwk as JWK, "ES256"));
  return `Bearer ${token}`;
}

export const BASE_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** Sends a request to a tenant's endpoint (`/t/<tenant>/mcp`). */
export function send(tenant: string, init: { method?: string; body?: BodyInit | object; headers?: Record<string, string> } = {}): Promise<Response> {
  const body = init.body === undefined || typeof init.body === "string" || init.body instanceof ReadableStream ? init.body : JSON.stringify(init.body);
  return exports.default.fetch(`http://127.0.0.1/t/${tenant}/mcp`, {
    method: init.method ?? "POST",
    headers: { ...BASE_HEADERS, ...init.headers },
    ...(body === undefined ? {} : { body }),
  });
}

const auth = (authorization: string | undefined): Record<string, string> => (authorization === undefined ? {} : { authorization });

let nextId = 1;

/** Opens a 2025-11-25 session; returns the response (read) and its session id. */
export async function initialize(tenant: string, authorization?: string): Promise<{ status: number; sessionId: string | null; body: Record<string, unknown> }> {
  const response = await send(tenant, {
    body: {
      jsonrpc: "2.0",
      id: nextId++,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "t", version: "1" } },
    },
    headers: auth(authorization),
  });
  return { status: response.status, sessionId: response.headers.get("mcp-session-id"), body: await response.json<Record<string, unknown>>() };
}

/** A request inside a session. */
export function inSession(
  tenant: string,
  sessionId: string,
  method: string,
  params: Record<string, unknown> = {},
  authorization?: string,
  id: number = nextId++,
): Promise<Response> {
  return send(tenant, {
    body: { jsonrpc: "2.0", id, method, params },
    headers: { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25", ...auth(authorization) },
  });
}

/** Client capabilities that declare the tasks extension. */
export const WITH_TASKS = { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } };

/** A 2026-07-28 request with its headers and `_meta` (`Mcp-Name` from params.name or params.taskId). */
export function modern(
  tenant: string,
  method: string,
  params: Record<string, unknown> = {},
  authorization?: string,
  clientCapabilities?: Record<string, unknown>,
): Promise<Response> {
  const routed = params["name"] ?? params["taskId"];
  const name = typeof routed === "string" ? { "mcp-name": routed } : {};
  const meta = clientCapabilities === undefined ? META : { ...META, "io.modelcontextprotocol/clientCapabilities": clientCapabilities };
  return send(tenant, {
    body: { jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: meta } },
    headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...name, ...auth(authorization) },
  });
}

/** The text of a tool result, from a JSON or SSE answer. */
export async function resultOf(response: Response): Promise<{
  status: number;
  result?: { content: { text: string }[]; isError?: boolean; [key: string]: unknown };
  error?: { code: number; message: string; data?: unknown };
}> {
  const text = await response.text();
  const json =
    response.headers.get("content-type") === "text/event-stream"
      ? (text
          .split("\n")
          .filter((l) => l.startsWith("data: "))
          .at(-1)
          ?.slice(6) ?? "{}")
      : text;
  return { status: response.status, ...(JSON.parse(json) as object) };
}

/**
 * Waits, when the clock minute has less than `marginMs` left, until the next one starts. Rate-limit windows
 * (miniflare's `ratelimits`, as Cloudflare's) are aligned to the clock minute, so a test that counts calls to a
 * limit across the end of a minute would see its count start again halfway and get no 429.
 */
export async function clearOfMinuteEnd(marginMs = 8_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
