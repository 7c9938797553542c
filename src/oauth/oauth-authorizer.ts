/** The MCP endpoint's authorizer behind the authorization server: the principal the wrapper bound to the request, tool scopes checked as usual. */

import { AuthError } from "../auth/auth-error.ts";
import { authRefusal } from "../auth/challenge.ts";
import { METADATA_PATH } from "../auth/protected-resource.ts";
import { createToolAccess } from "../auth/tool-access.ts";
import type { Authorizer } from "../http/admission/authorizer.ts";
import type { SignedInRegistry } from "./signed-in.ts";

/**
 * The authorizer of the MCP Worker wrapped by `createOAuthWorker`. The library has already refused
 * a request without a valid token (401 with its own challenge and metadata), so a request reaches
 * here with a principal bound to it by the wrapper; one without (the MCP Worker called some other
 * way) is refused with 401. Tool scopes give 403 `insufficient_scope` naming the library's metadata URL.
 */
export function oauthAuthorizer(registry: SignedInRegistry, resourcePath: string, toolScopes: Record<string, string[]>): Authorizer {
  const access = createToolAccess({ toolScopes, scopeHierarchy: "none", grants: [], publicTools: [] });
  const metadataUrl = (request: Request) => `${new URL(request.url).origin}${METADATA_PATH}${resourcePath === "/" ? "" : resourcePath}`;
  const refuse = (error: AuthError, request: Request) => authRefusal(error, { resourceMetadata: metadataUrl(request) });
  const unauthorized = (request: Request) =>
    refuse(new AuthError("ERR_NO_TOKEN", "this resource requires an access token from its authorization server"), request);
  return {
    authenticate(request) {
      const principal = registry.principalOf(request);
      return principal === undefined ? Promise.reject(unauthorized(request)) : Promise.resolve(principal);
    },
    unauthorized,
    authorizeTool(principal, toolName, request) {
      const refusal = access.check(principal, toolName);
      if (refusal === undefined) return;
      if (refusal.status === 401) throw unauthorized(request);
      throw refuse(new AuthError("ERR_INSUFFICIENT_SCOPE", `tool ${toolName} needs ${refusal.missing.join(" ")}`, { requiredScopes: refusal.scopes }), request);
    },
    toolFilter: (principal) => access.filter(principal),
    // The library publishes the metadata (RFC 9728) of this resource; the endpoint publishes none of its own.
    metadata: {},
    metadataJson: () => "{}",
    resourcePath,
  };
}
