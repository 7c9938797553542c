/**
 * The multi-tenant example: one Worker, tenants from the MCP_TENANTS binding (see wrangler.toml
 * and tenants.json), bundled modules plus the tool service bound as WEATHER.
 * `npm run dev:multi-tenant -- --port N` serves it together with examples/tool-service.
 */

import { createMultiTenantWorker } from "../../../src/workers/index.ts";
import { accounting, greetings, whoami } from "./modules.ts";

export default createMultiTenantWorker({
  info: { name: "edge-mcp-multi-tenant", version: "0.1.0" },
  modules: { greetings, accounting, whoami },
});
