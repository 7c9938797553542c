/** Worker-only exports (`edge-mcp/workers`): the Worker entry and its env type. */

export { createWorker, type WorkerOptions } from "./create-worker.ts";
export type { McpEnv, McpWorker } from "./env.ts";
export { McpHandleObject, durableHandleStore } from "./state/handle-object.ts";
export { createSessionObject, type SessionObjectClass, type SessionObjectOptions } from "./sessions/session-object.ts";
export { durableSessionGateway } from "./sessions/session-gateway.ts";
export {
  createMultiTenantSessionObject,
  createMultiTenantTaskObject,
  createMultiTenantWorker,
  type MultiTenantEnv,
  type MultiTenantWorkerOptions,
  type TenantAccountsOptIn,
} from "./create-multi-tenant-worker.ts";
export { createTaskObject, type TaskObjectClass } from "./tasks/task-object.ts";
export { durableTaskGateway } from "./tasks/task-gateway.ts";
export { McpNotificationHub } from "./notifications/notification-hub.ts";
export { createNotificationHub } from "./notifications/create-notification-hub.ts";
export { durableChangeRelay, hubName, hubShard, type DurableChangeRelayOptions } from "./notifications/durable-change-relay.ts";
export { McpQuotaObject, durableQuotaCounter } from "./state/quota-object.ts";
export { workerLoaderRunner, type WorkerLoaderRunnerOptions } from "./code-mode/worker-loader-runner.ts";
export { staticAssets } from "./static-assets.ts";
export { observability, type Observability, type ObservabilityEnv } from "./observe/observability.ts";
export { McpUsageObject, durableUsage, USAGE_RETENTION_MS } from "./observe/usage-object.ts";
export { toolServices, type ToolServiceBinding, type ToolServices, type ToolServicesOptions } from "./tool-services.ts";
export { remoteModules, type RemoteModulesOptIn, type RemoteModulesOptions } from "./remote-modules.ts";
export { remoteServers, type RemoteServer, type RemoteServersOptions } from "./remote-servers.ts";
export { createToolService, type ToolServiceClass, type ToolServiceDefinition } from "./create-tool-service.ts";
export { tenantCodeMode, type TenantCodeMode } from "./code-mode/tenant-code-mode.ts";
export { keyedTenants, type KeyedTenantSettings, type KeyedTenantStore } from "./keyed-tenant-store.ts";
export { connectedAccounts, URL_ELICITATION_REQUIRED, type ConnectedAccounts, type HandlerAccounts } from "./accounts/connected-accounts.ts";
export type { ConnectedAccountsOptions } from "./accounts/accounts-settings.ts";
export { McpAccountsObject } from "./accounts/accounts-object.ts";
export type { AccountProvider, AccountSetting } from "./accounts/account-provider.ts";
export type { AccountsFetcher } from "./accounts/connect-routes.ts";
export type { TenantAccountsEntry, TenantAccountsSource, TenantsOfEnv } from "./accounts/tenant-providers.ts";
export type { AccountOwner, AccountSummary } from "./accounts/account-store.ts";
