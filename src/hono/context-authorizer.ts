/** An authorizer whose principal comes from the Hono app's own auth middleware, through the request it handed on. */

import { createToolAccess } from "../auth/tool-access.ts";
import { ErrorCode, ProtocolError } from "../core/errors.ts";
import type { Principal } from "../core/principal.ts";
import type { Authorizer } from "../http/admission/authorizer.ts";

/** The principals the Hono handler found for the requests it handed to the endpoint (the request object is the key). */
export type PrincipalsByRequest = WeakMap<Request, Principal>;

/** Options of {@link contextAuthorizer}. */
export interface ContextAuthorizerOptions {
  /** Scopes a tool needs, by tool name (`"*"` for every tool without an entry of its own), as in an auth config. */
  toolScopes?: Record<string, string[]>;
}

/**
 * The authorizer of an endpoint behind the app's own auth middleware: the handler puts the
 * principal of each request in `principals` before the endpoint admits it, and admission reads it
 * here. A request without one is refused with 401 (the app's middleware normally refuses first,
 * with its own scheme); a tool needing scopes the principal lacks, with 403. No OAuth metadata is
 * served: the app owns sign-in.
 */
export function contextAuthorizer(principals: PrincipalsByRequest, options: ContextAuthorizerOptions = {}): Authorizer {
  const access = createToolAccess({ toolScopes: options.toolScopes ?? {}, scopeHierarchy: "none", grants: [], publicTools: [] });
  const unauthorized = (): ProtocolError =>
    new ProtocolError(ErrorCode.InvalidRequest, "Unauthorized: this endpoint needs a signed-in caller, and the app's middleware gave none", {
      status: 401,
    });
  return {
    authenticate(request) {
      const principal = principals.get(request);
      return principal === undefined ? Promise.reject(unauthorized()) : Promise.resolve(principal);
    },
    unauthorized,
    authorizeTool(principal, toolName) {
      const refusal = access.check(principal, toolName);
      if (refusal === undefined) return;
      if (refusal.status === 401) throw unauthorized();
      throw new ProtocolError(ErrorCode.InvalidRequest, `Insufficient scope: tool ${toolName} needs ${refusal.missing.join(" ")}`, { status: 403 });
    },
    toolFilter: (principal) => access.filter(principal),
    metadata: {},
    metadataJson: () => "{}",
    resourcePath: "/",
  };
}
