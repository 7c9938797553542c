/** Worker-only exports (`edge-mcp/workers`): the Worker entry and its env type. */

export { createWorker, type WorkerOptions } from "./create-worker.ts";
export type { McpEnv, McpWorker } from "./env.ts";
export { McpHandleObject, durableHandleStore } from "./handle-object.ts";
export { createSessionObject, type SessionObjectClass, type SessionObjectOptions } from "./session-object.ts";
export { durableSessionGateway } from "./session-gateway.ts";
export {
  createMultiTenantSessionObject,
  createMultiTenantTaskObject,
  createMultiTenantWorker,
  type MultiTenantEnv,
  type MultiTenantWorkerOptions,
} from "./create-multi-tenant-worker.ts";
export { createTaskObject, type TaskObjectClass } from "./task-object.ts";
export { durableTaskGateway } from "./task-gateway.ts";
export { McpNotificationHub } from "./notification-hub.ts";
export { durableChangeRelay, hubName, hubShard, type DurableChangeRelayOptions } from "./durable-change-relay.ts";
export { McpQuotaObject, durableQuotaCounter } from "./quota-object.ts";
export { workerLoaderRunner, type WorkerLoaderRunnerOptions } from "./worker-loader-runner.ts";
export { staticAssets } from "./static-assets.ts";
export { observability, type Observability, type ObservabilityEnv } from "./observability.ts";
export { McpUsageObject, durableUsage, USAGE_RETENTION_MS } from "./usage-object.ts";
export { toolServices, type ToolServiceBinding, type ToolServices, type ToolServicesOptions } from "./tool-services.ts";
export { createToolService, type ToolServiceClass, type ToolServiceDefinition } from "./create-tool-service.ts";
