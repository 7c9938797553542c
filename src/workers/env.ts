/** The bindings and vars the Worker entries read (all optional; see wrangler.toml), and their parsers. */

import type { McpHandleObject } from "./state/handle-object.ts";
import type { McpNotificationHub } from "./notifications/notification-hub.ts";
import type { McpQuotaObject } from "./state/quota-object.ts";

export interface McpEnv {
  /** "true" logs every JSON-RPC message in and out, credentials redacted. */
  MCP_DEBUG?: string;
  /**
   * "true" under development (the templates' `npm run dev` sets it): a tool's thrown error shows its
   * message to the client, and a definition error is answered to every request instead of stopping the Worker.
   */
  MCP_DEV?: string;
  /** "auto" (default), "sse" or "json". */
  MCP_RESPONSE_MODE?: string;
  /** Comma-separated Host names to allow besides localhost names and *.workers.dev. */
  ALLOWED_HOSTS?: string;
  /** Comma-separated browser origins to allow. */
  ALLOWED_ORIGINS?: string;
  /** HMAC secret for MRTR requestState (`wrangler secret put MCP_STATE_SECRET`). */
  MCP_STATE_SECRET?: string;
  /** "true" keeps 2025-era clients in sessions (needs MCP_SESSIONS). */
  MCP_LEGACY_SESSIONS?: string;
  /** The session Durable Object namespace (class from `createSessionObject`). */
  MCP_SESSIONS?: DurableObjectNamespace;
  /** The McpNotificationHub namespace: change notifications reach listeners on every isolate (optional). */
  MCP_NOTIFICATIONS?: DurableObjectNamespace<McpNotificationHub>;
  /** Hub objects the notifications are spread over, 1 to 64 (default 1): see docs/notifications.md. */
  MCP_NOTIFICATION_SHARDS?: string;
  /** The McpHandleObject namespace behind `ctx.handles` (optional). */
  MCP_HANDLES?: DurableObjectNamespace<McpHandleObject>;
  /** The McpQuotaObject namespace that counts live handles, sessions and tasks (needed with any of them). */
  MCP_QUOTAS?: DurableObjectNamespace<McpQuotaObject>;
  /** The task Durable Object namespace (class from `createTaskObject`): tool calls that outlive the request. */
  MCP_TASKS?: DurableObjectNamespace;
}

/**
 * The Worker that `createWorker` and `createMultiTenantWorker` make: an `ExportedHandler` whose
 * `fetch` is always there, so a Worker that wraps it (or a test) calls `worker.fetch(...)` directly.
 */
export type McpWorker<E> = ExportedHandler<E> & { fetch: ExportedHandlerFetchHandler<E> };

/** A comma-separated var as a list (empty items dropped). */
export function envList(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/** A "true"/"false" var; `fallback` when it is unset. */
export function envFlag(value: string | undefined, fallback: boolean): boolean {
  return value === undefined ? fallback : value.trim().toLowerCase() === "true";
}
