/**
 * edge-mcp: write an MCP server. This entry holds what a server is made of; the Worker entry
 * points are in `edge-mcp/workers`, and the parts for building another host (the fetch app,
 * stores, gateways, tenancy parsing) in `edge-mcp/host`.
 */

// 1. The server and its opt-in features.
export { createServer, type McpServer, type ServerOptions } from "./server/server.ts";
export { toolSearch } from "./server/search/tool-search-engine.ts";
export type { ToolSearch, ToolSearchOptions } from "./server/tools/tool-search.ts";
export type { ToolFilter } from "./server/tools/tool-filter.ts";
export { apps, type AppsOptions } from "./server/apps/apps-feature.ts";
export { codeMode } from "./server/code-mode/code-mode-feature.ts";
export type { CodeModeLimits, CodeModeOptions } from "./server/code-mode/code-mode-options.ts";
export type { InnerCallResult, SandboxOutcome, SandboxRun, SandboxRunner } from "./server/code-mode/sandbox.ts";
// The feature seam: what built-in features and your own join a server through (docs/features.md).
export {
  serviceKey,
  type Feature,
  type FeatureHost,
  type FeatureParts,
  type Method,
  type MethodEntry,
  type ServerDeclarations,
  type ServiceKey,
  type ToolCallHook,
} from "./server/feature.ts";
export type { MethodResult } from "./server/raw-result.ts";
export type { EndpointServices, ObservedCall, TransportContext } from "./server/context/transport.ts";
export type { FeatureToolFilter, ToolReader } from "./server/tools/tool-view.ts";
export { handlerTools, type HandlerTools, type HandlerToolsSource } from "./server/tools/handler-tools.ts";
export type { ToolRegistry } from "./server/tools/tool-registry.ts";
export type { CompiledTool } from "./server/tools/compile-tool.ts";
export { ADDED_RESOURCES } from "./server/resources/resource-services.ts";
export { COMPLETION_SOURCES, type Completer, type CompletionSource } from "./server/completions/completion-source.ts";

// 2. Tools.
export { defineTool, type TaskSupport, type ToolArgs, type ToolDefinition, type ToolHandler, type ToolReturn, type ToolSchema } from "./server/tools/tool.ts";
export type { FromJsonSchema } from "./server/tools/json-schema-type.ts";
export type { StandardSchema } from "./core/standard-schema.ts";

// 3. Resources, prompts, skills and apps.
export { defineResource, defineResourceTemplate } from "./server/resources/define-resource.ts";
export type { ListedResource, ResourceDefinition, ResourceReadReturn, ResourceTemplateDefinition } from "./server/resources/resource.ts";
export { definePrompt } from "./server/prompts/define-prompt.ts";
export type { PromptArgument, PromptDefinition, PromptGetReturn, PromptMessage } from "./server/prompts/prompt.ts";
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
export {
  APP_MIME_TYPE,
  APPS_EXTENSION,
  defineApp,
  type AppAssetLoader,
  type AppCsp,
  type AppDefinition,
  type AppHtml,
  type AppPermissions,
  type AppVisibility,
} from "./server/apps/app.ts";
export { APP_DIGEST_KEY } from "./server/apps/app-resource.ts";

// 4. What a handler receives: its context, questions to the client, state between calls.
export type { Era, HandlerContext, HandlerEnv, InputOptions, ToolContext } from "./server/context/handler-context.ts";
export { ToolError } from "./core/tool-error.ts";
export type { CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, InputRequest, ListRootsResult } from "./server/inputs/input.ts";
export { HandleError, type HandleOptions, type Handles } from "./server/state/handles.ts";
export { TASKS_EXTENSION, type TaskStart, type TaskStatus } from "./server/tasks/task-access.ts";
// Tasks for an endpoint with a task gateway of your own (createTaskObject and createMemoryTaskGateway bring them).
export { tasks } from "./http/tasks/task-serving.ts";

// 5. Tool modules and tool services (tools composed from other code or other Workers).
export { defineModule, type ToolModule } from "./modules/tool-module.ts";
export type { ServiceCallContext, ServiceCatalog, ServiceSkill, ServiceSkillFile, ServiceTool, ToolService } from "./modules/service-contract.ts";
export { createSkillCatalog, type SkillCatalog } from "./modules/skill-catalog.ts";

// 6. Authorization: OAuth resource server and API keys.
export { parseAuthConfig, type AnonymousList, type AuthConfig, type AuthConfigInput } from "./auth/auth-config.ts";
export type { AuthorizationServerBindingConfig, IntrospectionConfig, TokenCacheConfig } from "./auth/tokens/opaque-config.ts";
export { createAuthorizer, CHALLENGE_META_KEY, type Authorizer, type AuthorizerOptions } from "./http/admission/authorizer.ts";
export type { TemplateIssuers, TemplateMatch, TokenResource, TokenVerifier, VerifiedToken } from "./auth/token-verifier.ts";
export { createTemplateIssuers, type IssuerTemplate } from "./auth/tokens/issuer-templates.ts";
export { createIntrospectionVerifier, type IntrospectionVerifierOptions } from "./auth/tokens/introspection-verifier.ts";
export {
  createAuthorizationServerVerifier,
  type AuthorizationServerBinding,
  type AuthorizationServerVerifierOptions,
  type ValidatedAccessToken,
} from "./auth/tokens/authorization-server-verifier.ts";
export { checkTokenSourceConfig, configuredTokenSources, tokenSources, type TokenSources, type TokenSourcesOptIn } from "./auth/tokens/token-sources.ts";
export { generateApiKey, hashApiKey } from "./auth/api-keys.ts";
export { AuthError, type AuthErrorCode } from "./auth/auth-error.ts";
export type { Principal } from "./core/principal.ts";

// 7. Errors and the protocol's types.
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
