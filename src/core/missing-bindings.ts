/** One shape for every binding a Worker needs but lacks: what is missing, why, and the wrangler.toml lines to add, all at once. */

import { DefinitionError } from "./definition-error.ts";
import { ErrorCode, ProtocolError } from "./errors.ts";

/** A Durable Object binding edge-mcp reads, with the class that serves it. */
export interface MissingObject {
  kind: "object";
  binding: "MCP_HANDLES" | "MCP_QUOTAS" | "MCP_SESSIONS" | "MCP_TASKS" | "MCP_NOTIFICATIONS";
  /** Why it is needed: "legacy sessions are on". */
  because: string;
}

/** A `[[services]]` binding of a tool service. */
export interface MissingService {
  kind: "service";
  binding: string;
  because: string;
}

/** A `[[ratelimits]]` binding named by `rateLimits`. */
export interface MissingRateLimit {
  kind: "ratelimit";
  binding: string;
  because: string;
}

export type MissingBinding = MissingObject | MissingService | MissingRateLimit;

/** The class of each binding, and how the Worker's main module exports it. */
const CLASSES: Readonly<Record<MissingObject["binding"], { className: string; exportLine: string }>> = {
  MCP_HANDLES: { className: "McpHandleObject", exportLine: 'export { McpHandleObject } from "edge-mcp/workers";' },
  MCP_QUOTAS: { className: "McpQuotaObject", exportLine: 'export { McpQuotaObject } from "edge-mcp/workers";' },
  MCP_SESSIONS: { className: "McpSessionObject", exportLine: "export const McpSessionObject = createSessionObject(worker);" },
  MCP_TASKS: { className: "McpTaskObject", exportLine: "export const McpTaskObject = createTaskObject(worker);" },
  MCP_NOTIFICATIONS: { className: "McpNotificationHub", exportLine: "export const McpNotificationHub = createNotificationHub(worker);" },
};

/**
 * The error for every binding in `missing`: its message names each binding and why it is needed,
 * then the exact wrangler.toml lines (and the class exports) that add them all. The Worker answers
 * it as a JSON-RPC error and logs the same text.
 */
export function missingBindings(missing: readonly MissingBinding[]): DefinitionError {
  const objects = missing.filter((entry): entry is MissingObject => entry.kind === "object");
  const services = missing.filter((entry): entry is MissingService => entry.kind === "service");
  const toml: string[] = [];
  for (const entry of objects) toml.push("[[durable_objects.bindings]]", `name = "${entry.binding}"`, `class_name = "${CLASSES[entry.binding].className}"`, "");
  if (objects.length > 0) {
    const classes = objects.map((entry) => `"${CLASSES[entry.binding].className}"`).join(", ");
    toml.push("[[migrations]]", 'tag = "edge-mcp-2"  # a tag after those already in wrangler.toml', `new_sqlite_classes = [${classes}]`, "");
  }
  for (const entry of missing) {
    if (entry.kind !== "ratelimit") continue;
    toml.push(
      "[[ratelimits]]",
      `name = "${entry.binding}"`,
      'namespace_id = "1001"  # a number of your choosing, unique in the account',
      "simple = { limit = 100, period = 60 }",
      "",
    );
  }
  for (const entry of services)
    toml.push("[[services]]", `binding = "${entry.binding}"`, 'service = "<the tool service Worker>"', 'entrypoint = "<its class>"', "");
  const names = missing.map((entry) => `${entry.binding} (${entry.because})`).join(", ");
  const exports = objects.map((entry) => CLASSES[entry.binding].exportLine);
  const code = exports.length > 0 ? `\nand export the classes from the Worker's main module:\n${exports.join("\n")}\n` : "";
  const plural = missing.length === 1 ? "binding" : "bindings";
  return new DefinitionError(`missing ${plural} ${names}: add to wrangler.toml:\n\n${toml.join("\n")}${code}`);
}

/**
 * What a request gets when the deployment itself is wrong (a missing binding, a definition error):
 * the error's text is logged, and answered as a JSON-RPC error with HTTP 500. It names bindings and
 * settings, never a secret.
 */
export function misconfigured(error: DefinitionError): ProtocolError {
  console.error(`edge-mcp: cannot serve the request: ${error.message}`);
  return new ProtocolError(ErrorCode.InternalError, `Internal error: the server is misconfigured: ${error.message}`, { status: 500 });
}
