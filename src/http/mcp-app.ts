/** `createMcpApp`: the fetch app of an endpoint built from its options, for hosts other than the Workers entry points. */

import { checkOptions } from "../core/option-checks.ts";
import { APP_OPTION_RULES } from "./app-option-rules.ts";
import { createEndpointApp, type McpApp } from "./app.ts";
import { createEndpoint, type McpAppOptions } from "./endpoint.ts";
import { sessionRoutes } from "./sessions/session-routes.ts";

export { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_JSON_DEPTH, type McpAppOptions } from "./endpoint.ts";
export type { McpApp } from "./app.ts";

/** Builds the app once per isolate; its `fetch` answers requests. */
export function createMcpApp(options: McpAppOptions): McpApp {
  checkOptions(options, APP_OPTION_RULES, "createMcpApp");
  // A session gateway of any making routes 2025-era traffic through the session routes.
  return createEndpointApp(createEndpoint(options.sessions && !options.sessionRoutes ? { ...options, sessionRoutes } : options));
}
