/**
 * The RPC contract of a tool service: a Worker that provides tools to edge-mcp tenants through a
 * `WorkerEntrypoint` bound with `[[services]]`. The runtime reads `describe()` once per isolate
 * (re-read on a TTL) and calls `callTool()` for each `tools/call`, with a timeout.
 *
 * @example
 * export class WeatherTools extends WorkerEntrypoint implements ToolService {
 *   async describe() { return { tools: [{ name: "forecast", description: "…", inputSchema: { type: "object" } }] }; }
 *   async callTool(name, args, context) { return { content: [{ type: "text", text: "Sunny" }] }; }
 * }
 */

import type { CallToolResult, JsonObject, ToolAnnotations } from "../core/types.ts";
import type { TaskSupport } from "../server/tool.ts";

/** A tool as a service lists it: the `Tool` shape of `tools/list`, without prefix. */
export interface ServiceTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  /**
   * Whether a call may run as a task (tasks extension; default `never`). A task's call to the
   * service has no module timeout: it is bounded by the task's TTL and by cancellation.
   */
  task?: TaskSupport;
}

export interface ServiceCatalog {
  tools: ServiceTool[];
}

/** Verified identity passed to a service: never a token. */
export interface ServiceCallContext {
  tenant: string;
  /** The authenticated subject, when the tenant requires auth. */
  subject?: string;
  /** Who vouches for the subject: the token's issuer, or "api-key". Key per-user data by issuer and subject. */
  issuer?: string;
  scopes: readonly string[];
  protocolVersion: string;
}

export interface ToolService {
  describe(): Promise<ServiceCatalog>;
  callTool(name: string, args: Record<string, unknown>, context: ServiceCallContext): Promise<CallToolResult>;
}
