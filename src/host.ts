/**
 * edge-mcp/host: the parts for serving a server from a host other than the Workers entry points
 * (any runtime with `fetch`, or a Worker built by hand): the app, its limits, and the stores and
 * gateways it runs on, with in-memory versions for one process.
 */

// The fetch app of an endpoint, and its options.
export { createMcpApp, type McpAppOptions } from "./http/mcp-app.ts";
export type { Endpoint, QuotaOptions, ResponseMode, SessionRoutes } from "./http/endpoint.ts";
export type { HostPolicyOptions } from "./http/admission/host-policy.ts";
export type { RateLimiter } from "./http/admission/rate-limiter.ts";

// Admission: who is calling, and what they may hold.
export { API_KEY_ISSUER, callerKey } from "./core/principal.ts";
export { DEFAULT_QUOTAS, type Admission, type CallLimits, type QuotaKind, type QuotaLimit, type Quotas } from "./core/admission.ts";
export { createMemoryQuotaCounter, type QuotaCounter, type QuotaLease } from "./server/state/quotas.ts";

// State, sessions, tasks and change notifications behind the app.
export { createMemoryHandleStore, type HandleStore } from "./server/state/handles.ts";
export type { SessionGateway } from "./http/sessions/session-gateway.ts";
export type { TaskGateway, TaskServing, TaskSettings } from "./http/tasks/task-gateway.ts";
export { taskServing } from "./http/tasks/task-serving.ts";
export { createMemoryTaskGateway } from "./tasks/memory-task-gateway.ts";
export type { ChangeFeed, ChangeSink, ChangeSource } from "./server/notifications/change-hub.ts";
export type { ChangeRelay } from "./server/notifications/change-relay.ts";
export type { SubscriptionFilter } from "./server/notifications/subscription-filter.ts";

// Tenants from configuration.
export { parseTenantConfig, parseTenantsDocument, type ModuleRef, type TenantConfig } from "./tenancy/tenant-config.ts";
export { checkTenants, type TenantCheck } from "./tenancy/tenant-check.ts";
