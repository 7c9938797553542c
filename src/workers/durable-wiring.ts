/**
 * The Durable Object wiring a Worker bundles only with the class it binds: `createTaskObject`,
 * `createSessionObject` and the `McpNotificationHub` module each register their own here, so a
 * Worker that binds none of them carries none of that code.
 */

import type { SessionRoutes } from "../http/endpoint.ts";
import type { durableChangeRelay } from "./notifications/durable-change-relay.ts";
import type { durableSessionGateway } from "./sessions/session-gateway.ts";
import type { durableTaskGateway } from "./tasks/task-gateway.ts";

/** What the Durable Object classes in this Worker's bundle registered. */
export interface DurableWiring {
  /** From the `McpNotificationHub` module: the relay over MCP_NOTIFICATIONS. */
  relay?: typeof durableChangeRelay;
  /** From `createSessionObject`: the gateway to MCP_SESSIONS. */
  sessions?: typeof durableSessionGateway;
  /** From `createSessionObject`: the routes of 2025-era traffic to the sessions. */
  sessionRoutes?: SessionRoutes;
  /** From `createTaskObject`: the gateway to MCP_TASKS. */
  tasks?: typeof durableTaskGateway;
}

/** This isolate's registrations: written while the Worker's module loads, read when an endpoint is built. */
export const durableWiring: DurableWiring = {};
