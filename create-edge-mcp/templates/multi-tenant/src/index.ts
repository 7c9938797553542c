/**
 * The MCP Worker: tenants come from the MCP_TENANTS var (wrangler.toml); each enables modules by
 * name, bundled here (src/modules.ts) or served by a tool service Worker (tool-service/).
 */

import { createMultiTenantSessionObject, createMultiTenantWorker, type MultiTenantWorkerOptions } from "edge-mcp/workers";
import { greetings } from "./modules";

const options: MultiTenantWorkerOptions = {
  info: { name: "{{name}}", version: "0.1.0" },
  modules: { greetings },
};

const worker = createMultiTenantWorker(options);
export default worker;

// Sessions for the tenants with "legacySessions": true (MCP_SESSIONS), counted by McpQuotaObject (MCP_QUOTAS).
export const McpSessionObject = createMultiTenantSessionObject(worker);
export { McpQuotaObject } from "edge-mcp/workers";
