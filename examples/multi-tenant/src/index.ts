/**
 * The multi-tenant example: one Worker, tenants from the MCP_TENANTS binding (see wrangler.toml
 * and tenants.json), bundled modules plus the tool service bound as WEATHER, and a remote MCP server
 * (tenant umbrella).
 * `npm run dev:multi-tenant -- --port N` serves it together with examples/tool-service.
 */

import {
  createMultiTenantSessionObject,
  createMultiTenantWorker,
  createNotificationHub,
  observability,
  remoteModules,
  tenantCodeMode,
  type MultiTenantWorkerOptions,
} from "edge-mcp/workers";
import { accounting, greetings, statuspage, whoami } from "./modules.ts";

const options: MultiTenantWorkerOptions = {
  info: { name: "edge-mcp-multi-tenant", version: "0.1.0" },
  modules: { greetings, accounting, whoami, statuspage },
  // Traces (OTEL_* vars), usage records (MCP_USAGE, MCP_USAGE_ROLLUPS) and the usage view (MCP_ADMIN_TOKEN).
  observe: observability(),
  // Code mode for tenants that turn it on ("codeMode" in their config; globex does), on MCP_LOADER.
  codeMode: tenantCodeMode(),
  // Other MCP servers as modules ("remote" in a tenant's module; umbrella mounts server-everything at EVERYTHING_URL).
  remotes: remoteModules(),
};

const worker = createMultiTenantWorker(options);
export default worker;
// Sessions for tenants with "legacySessions": true (bound as MCP_SESSIONS), and the per-tenant
// notification hub (MCP_NOTIFICATIONS) that carries list changes across isolates.
export const McpSessionObject = createMultiTenantSessionObject(worker);
export const McpNotificationHub = createNotificationHub(worker);
export { McpQuotaObject } from "edge-mcp/workers";
// Hourly usage per tenant, by tool and by caller (MCP_USAGE_ROLLUPS), read by GET /admin/usage.
export { McpUsageObject } from "edge-mcp/workers";
