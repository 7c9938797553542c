/** Hono exports (`edge-mcp/hono`): an MCP endpoint mounted in a Hono app. Needs `hono` installed; Worker-only, like `edge-mcp/workers`. */

export { mcp, type McpHandlerOptions } from "./mcp.ts";
export { contextAuthorizer, type ContextAuthorizerOptions, type PrincipalsByRequest } from "./context-authorizer.ts";
