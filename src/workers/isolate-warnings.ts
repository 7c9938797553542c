/**
 * Warnings for features that would otherwise switch off silently, each written once per isolate
 * and naming the fix: tools that declare `task` without the MCP_TASKS binding, and a Worker
 * without the `enable_request_signal` compatibility flag.
 */

import type { McpServer } from "../server/server.ts";

const warned = new Set<string>();

/** Writes `edge-mcp: <message>` with console.warn, the first time this key is seen in the isolate. */
export function warnOnce(key: string, message: string): void {
  if (warned.has(key)) return;
  warned.add(key);
  console.warn(`edge-mcp: ${message}`);
}

/**
 * The warning for tools that declare `task` when tasks cannot run: MCP_TASKS is not bound (and
 * tasks were not turned off on purpose with `tasks: false`). Undefined when there is nothing to say.
 */
export function unboundTasksWarning(server: McpServer, tasksBound: boolean, tasksOption: unknown): string | undefined {
  const tools = server.tools.taskTools;
  if (tools.length === 0 || tasksBound || tasksOption === false) return undefined;
  const named = tools.length > 3 ? `${tools.slice(0, 3).join(", ")} and ${tools.length - 3} more` : tools.join(", ");
  return (
    `tool${tools.length > 1 ? "s" : ""} ${named} declare${tools.length > 1 ? "" : "s"} task, but the MCP_TASKS Durable Object binding is missing: ` +
    `calls run in their request ("optional") or are refused ("required"). Bind the class from createTaskObject() as MCP_TASKS ` +
    `(with MCP_QUOTAS) in wrangler.toml (docs/tasks.md), or set tasks: false to run them inline on purpose.`
  );
}

/**
 * The warning for a Worker without the `enable_request_signal` compatibility flag, read from
 * workerd's `Cloudflare.compatibilityFlags`; undefined when the flag is on or the flags cannot be
 * read (outside workerd).
 */
export function requestSignalWarning(flags: Readonly<Record<string, boolean>> | undefined): string | undefined {
  if (flags === undefined || flags["enable_request_signal"] !== false) return undefined;
  return (
    "the enable_request_signal compatibility flag is off: ctx.signal does not abort when a client disconnects, so a tool keeps running for a caller that left. " +
    'Add compatibility_flags = ["enable_request_signal"] to wrangler.toml.'
  );
}

/** The compatibility flags workerd exposes as `Cloudflare.compatibilityFlags` (undefined elsewhere). */
function runtimeFlags(): Readonly<Record<string, boolean>> | undefined {
  const cloudflare = (globalThis as { Cloudflare?: { compatibilityFlags?: Readonly<Record<string, boolean>> } }).Cloudflare;
  return cloudflare?.compatibilityFlags;
}

/** Warns, once per isolate, about what this Worker's setup switches off. Called when an app is built. */
export function warnAboutSetup(server: McpServer, tenant: string, tasksBound: boolean, tasksOption: unknown): void {
  const signal = requestSignalWarning(runtimeFlags());
  if (signal) warnOnce("request-signal", signal);
  const tasks = unboundTasksWarning(server, tasksBound, tasksOption);
  if (tasks) warnOnce(`tasks:${tenant}`, tenant === "default" ? tasks : `tenant ${tenant}: ${tasks}`);
}
