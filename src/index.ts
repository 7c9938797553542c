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
export { defineTool, type ToolArgs, type ToolDefinition, type ToolReturn, type ToolSchema } from "./server/tool.ts";
export {
  defineResource,
  defineResourceTemplate,
  type Completer,
  type ResourceDefinition,
  type ResourceReadReturn,
  type ResourceTemplateDefinition,
} from "./server/resource.ts";
export { definePrompt, type PromptArgument, type PromptDefinition, type PromptGetReturn, type PromptMessage } from "./server/prompt.ts";
export type { Era, HandlerContext, InputOptions, ToolContext } from "./server/handler-context.ts";
export type { CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, InputRequest, ListRootsResult } from "./server/input.ts";
export type { ChangeFeed, ChangeSink, ChangeSource } from "./server/change-hub.ts";
export type { ChangeRelay } from "./server/change-relay.ts";
export type { SubscriptionFilter } from "./server/subscription-filter.ts";
export { HandleError, createMemoryHandleStore, type HandleOptions, type HandleStore, type Handles } from "./server/handles.ts";
export { createServer, type McpServer, type ServerOptions } from "./server/server.ts";
export { createMcpApp, type McpAppOptions } from "./http/app.ts";
export { defineModule, type ToolModule } from "./modules/tool-module.ts";
export type { ServiceCallContext, ServiceCatalog, ServiceTool, ToolService } from "./modules/service-contract.ts";
export { parseTenantConfig, parseTenantsDocument, type ModuleRef, type TenantConfig } from "./tenancy/tenant-config.ts";
export type { Principal } from "./server/principal.ts";
export { parseAuthConfig, type AuthConfig, type AuthConfigInput } from "./auth/auth-config.ts";
export { createAuthorizer, type Authorizer } from "./http/authorizer.ts";
export { generateApiKey, hashApiKey } from "./auth/api-keys.ts";
export { AuthError, type AuthErrorCode } from "./auth/auth-error.ts";
export type { ResponseMode } from "./http/mcp-post.ts";
export type { HostPolicyOptions } from "./http/host-policy.ts";
