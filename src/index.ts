/** edge-mcp: a platform-free MCP server core. Worker entry points live in `edge-mcp/workers`. */

export { ErrorCode, ProtocolError, invalidParams, invalidRequest, type ProtocolErrorOptions } from "./core/errors.ts";
export { DefinitionError } from "./core/definition-error.ts";
export { LEGACY_VERSIONS, MODERN_VERSION, SUPPORTED_VERSIONS, MetaKey } from "./core/versions.ts";
export type {
  Annotations,
  AudioContent,
  CallToolResult,
  ContentBlock,
  EmbeddedResource,
  Icon,
  ImageContent,
  Implementation,
  JsonObject,
  JsonSchema,
  LoggingLevel,
  ResourceContents,
  ResourceLink,
  TextContent,
  ToolAnnotations,
} from "./core/types.ts";
export type { StandardSchema } from "./core/standard-schema.ts";
export { defineTool, type TaskSupport, type ToolArgs, type ToolDefinition, type ToolHandler, type ToolReturn, type ToolSchema } from "./server/tools/tool.ts";
export { TASKS_EXTENSION, type TaskStart, type TaskStatus } from "./server/tasks/task-access.ts";
export type { FromJsonSchema } from "./server/tools/json-schema-type.ts";
export { defineResource, defineResourceTemplate } from "./server/resources/define-resource.ts";
export type { Completer, ResourceDefinition, ResourceReadReturn, ResourceTemplateDefinition } from "./server/resources/resource.ts";
export { defineSkill } from "./server/skills/compile-skill.ts";
export {
  DEFAULT_SKILL_LIMITS,
  type ExternalSkillFile,
  type ServedSkillFile,
  type Skill,
  type SkillDefinition,
  type SkillFile,
  type SkillFileContent,
  type SkillLimits,
} from "./server/skills/skill.ts";
export { definePrompt } from "./server/prompts/define-prompt.ts";
export type { PromptArgument, PromptDefinition, PromptGetReturn, PromptMessage } from "./server/prompts/prompt.ts";
export type { Era, HandlerContext, InputOptions, ToolContext } from "./server/context/handler-context.ts";
export type { CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, InputRequest, ListRootsResult } from "./server/inputs/input.ts";
export type { ChangeFeed, ChangeSink, ChangeSource } from "./server/notifications/change-hub.ts";
export type { ChangeRelay } from "./server/notifications/change-relay.ts";
export type { SubscriptionFilter } from "./server/notifications/subscription-filter.ts";
export { HandleError, createMemoryHandleStore, type HandleOptions, type HandleStore, type Handles } from "./server/state/handles.ts";
export { createServer, type McpServer, type ServerOptions } from "./server/server.ts";
export type { ToolSearch, ToolSearchOptions } from "./server/tools/tool-search.ts";
export { toolSearch } from "./server/search/tool-search-engine.ts";
export type { ToolFilter } from "./server/tools/tool-filter.ts";
export { createMcpApp, type McpAppOptions } from "./http/app.ts";
export { defineModule, type ToolModule } from "./modules/tool-module.ts";
export type { ServiceCallContext, ServiceCatalog, ServiceSkill, ServiceSkillFile, ServiceTool, ToolService } from "./modules/service-contract.ts";
export { createSkillCatalog, type SkillCatalog } from "./modules/skill-catalog.ts";
export { parseTenantConfig, parseTenantsDocument, type ModuleRef, type TenantConfig } from "./tenancy/tenant-config.ts";
export { API_KEY_ISSUER, callerKey, type Principal } from "./core/principal.ts";
export { DEFAULT_QUOTAS, type Admission, type CallLimits, type QuotaKind, type QuotaLimit, type Quotas } from "./core/admission.ts";
export { createMemoryQuotaCounter, type QuotaCounter, type QuotaLease } from "./server/state/quotas.ts";
export { parseAuthConfig, type AuthConfig, type AuthConfigInput } from "./auth/auth-config.ts";
export { createAuthorizer, type Authorizer } from "./http/authorizer.ts";
export { generateApiKey, hashApiKey } from "./auth/api-keys.ts";
export { AuthError, type AuthErrorCode } from "./auth/auth-error.ts";
export type { Endpoint, QuotaOptions, ResponseMode } from "./http/endpoint.ts";
export type { RateLimiter } from "./http/rate-limiter.ts";
export type { SessionGateway } from "./http/session-gateway.ts";
export type { TaskGateway, TaskSettings } from "./http/task-gateway.ts";
export { createMemoryTaskGateway } from "./tasks/memory-task-gateway.ts";
export type { HostPolicyOptions } from "./http/host-policy.ts";
