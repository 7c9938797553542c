/**
 * The Durable Object wiring of a Worker, held by the Worker itself: `createTaskObject(worker)`,
 * `createSessionObject(worker)` and `createNotificationHub(worker)` hand their gateways to the Worker
 * they are given, so a Worker that exports none of these classes carries none of that code.
 */

import type { SessionRoutes } from "../http/endpoint.ts";
import type { durableChangeRelay } from "./notifications/durable-change-relay.ts";
import type { durableSessionGateway } from "./sessions/session-gateway.ts";
import type { durableTaskGateway } from "./tasks/task-gateway.ts";

/** What the Durable Object classes made from a Worker handed to it. */
export interface DurableWiring {
  /** From `createNotificationHub`: the relay over MCP_NOTIFICATIONS. */
  relay?: typeof durableChangeRelay;
  /** From `createSessionObject`: the gateway to MCP_SESSIONS. */
  sessions?: typeof durableSessionGateway;
  /** From `createSessionObject`: the routes of 2025-era traffic to the sessions. */
  sessionRoutes?: SessionRoutes;
  /** From `createTaskObject`: the gateway to MCP_TASKS. */
  tasks?: typeof durableTaskGateway;
}

const WIRING = Symbol("edge-mcp: wiring");

/** Gives `worker` its wiring (hidden, not enumerable): read when its endpoints are built, on its first request. */
export function holdWiring<W extends object>(worker: W, wiring: DurableWiring): W {
  Object.defineProperty(worker, WIRING, { value: wiring });
  return worker;
}

/** The wiring a Worker from `createWorker` or `createMultiTenantWorker` (or a resolver of its endpoints) holds, or undefined. */
export function wiringOf(value: unknown): DurableWiring | undefined {
  return (typeof value === "object" || typeof value === "function") && value !== null && WIRING in value
    ? (value as { [WIRING]: DurableWiring })[WIRING]
    : undefined;
}
