/** Authorization in the request pipeline: verify the bearer, check tool scopes, answer with challenges. */

import { AuthError } from "../auth/auth-error.ts";
import type { AuthConfig } from "../auth/auth-config.ts";
import { authErrorResponse, insufficientScopeChallenge } from "../auth/challenge.ts";
import { METADATA_PATH, protectedResourceMetadata } from "../auth/protected-resource.ts";
import { createScopeFilters, type ScopeFilter } from "../auth/scope-filter.ts";
import { missingScopes, requiredScopes } from "../auth/scopes.ts";
import { createBearerVerifier } from "../auth/verify-bearer.ts";
import { ErrorCode, ProtocolError } from "../core/errors.ts";
import type { Principal } from "../core/principal.ts";

export interface Authorizer {
  /** Verifies the request's credentials; throws a ProtocolError (401/503 + WWW-Authenticate). */
  authenticate(request: Request): Promise<Principal>;
  /** Throws a 403 `insufficient_scope` ProtocolError naming every scope the tool needs. */
  authorizeTool(principal: Principal, toolName: string, request: Request): void;
  /** The tools this principal may call, for lists and tool search; undefined when it may call every tool. */
  toolFilter?(principal: Principal): ScopeFilter | undefined;
  /** The RFC 9728 metadata document of this resource. */
  readonly metadata: Record<string, unknown>;
  /** The path of the resource, as the path-inserted metadata URL uses it (`/t/acme/mcp`). */
  readonly resourcePath: string;
}

/**
 * The metadata URL for `resource_metadata`, on the origin the client actually used (the
 * configured resource may name another port in development) and with the resource's path.
 */
function metadataUrl(request: Request, resourcePath: string): string {
  return `${new URL(request.url).origin}${METADATA_PATH}${resourcePath === "/" ? "" : resourcePath}`;
}

function fromAuthError(error: AuthError, request: Request, config: AuthConfig, resourcePath: string): ProtocolError {
  const response = authErrorResponse(error, {
    resourceMetadata: metadataUrl(request, resourcePath),
    ...(config.scopesSupported ? { scopes: config.scopesSupported } : {}),
  });
  return new ProtocolError(response.status === 503 ? ErrorCode.InternalError : ErrorCode.InvalidRequest, response.body.error.message, {
    status: response.status,
    headers: response.headers,
    cause: error,
  });
}

/** Builds the authorizer of one protected resource (a tenant), once per config. */
export function createAuthorizer(config: AuthConfig): Authorizer {
  const verifier = createBearerVerifier(config, config.jwksCooldownSeconds === undefined ? {} : { jwksCooldownMs: config.jwksCooldownSeconds * 1000 });
  const resourcePath = new URL(config.resource).pathname;
  const toolFilter = createScopeFilters(config);
  return {
    toolFilter,
    metadata: protectedResourceMetadata(config) as unknown as Record<string, unknown>,
    resourcePath,
    async authenticate(request) {
      try {
        return await verifier.verify(request.headers.get("authorization"));
      } catch (error) {
        if (error instanceof AuthError) throw fromAuthError(error, request, config, resourcePath);
        throw error;
      }
    },
    authorizeTool(principal, toolName, request) {
      const required = requiredScopes(config, toolName);
      const missing = missingScopes(principal, required, config.scopeHierarchy);
      if (missing.length === 0) return;
      throw new ProtocolError(ErrorCode.InvalidRequest, `Insufficient scope: tool ${toolName} needs ${missing.join(" ")}`, {
        status: 403,
        headers: {
          "www-authenticate": insufficientScopeChallenge(required, {
            resourceMetadata: metadataUrl(request, resourcePath),
            description: `tool ${toolName} needs ${missing.join(" ")}`,
          }),
        },
      });
    },
  };
}
