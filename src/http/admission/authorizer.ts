/** Authorization in the request pipeline: verify the bearer, check tool scopes, answer with challenges. */

import { AuthError } from "../../auth/auth-error.ts";
import type { AuthConfig } from "../../auth/auth-config.ts";
import { authRefusal } from "../../auth/challenge.ts";
import { servedResource, isLoopbackResource } from "../../auth/loopback-resource.ts";
import { METADATA_PATH, protectedResourceMetadata } from "../../auth/protected-resource.ts";
import type { ScopeFilter } from "../../auth/scope-filter.ts";
import { createToolAccess } from "../../auth/tool-access.ts";
import { createBearerVerifier, credentialHint, type VerifiedCredential } from "../../auth/verify-bearer.ts";
import { DEFAULT_DPOP_CONFIG, type DpopConfig } from "../../auth/dpop-config.ts";
import { verifyDpopProof, type ReplayGuard } from "../../auth/dpop.ts";
import { memoryReplayGuard } from "./dpop-replay.ts";
import type { ProtocolError } from "../../core/errors.ts";
import type { Principal } from "../../core/principal.ts";

export interface Authorizer {
  /**
   * Verifies the request's credentials; throws a ProtocolError (401/503 + WWW-Authenticate).
   * Undefined (an anonymous caller) only for a request without credentials on a tenant with public tools.
   */
  authenticate(request: Request): Promise<Principal | undefined>;
  /** The 401 challenge for an anonymous request that needs a token. */
  unauthorized(request: Request): ProtocolError;
  /** Throws 401 (anonymous, tool not public) or 403 `insufficient_scope` (naming every scope the tool needs, when scopes would help). */
  authorizeTool(principal: Principal | undefined, toolName: string, request: Request): void;
  /** The tools this caller may call, for lists and tool search; undefined when it may call every tool. */
  toolFilter?(principal: Principal | undefined): ScopeFilter | undefined;

  /** The RFC 9728 metadata document of this resource, as configured. */
  readonly metadata: Record<string, unknown>;
  /** The metadata document as JSON for this request: `resource` is the URL the client reached (see `servedResource`). */
  metadataJson(request: Request): string;
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
  // A tenant without DPoP settings adds the DPoP challenge only to a refusal about DPoP (a bound token sent as Bearer).
  const dpop = config.dpop ?? (error.code === "ERR_DPOP" ? DEFAULT_DPOP_CONFIG : undefined);
  return authRefusal(error, {
    resourceMetadata: metadataUrl(request, resourcePath),
    ...(config.scopesSupported ? { scopes: config.scopesSupported } : {}),
    ...(dpop ? { dpop } : {}),
  });
}

/**
 * DPoP (RFC 9449): a bound token (`cnf.jkt`) comes with the DPoP scheme and a valid proof, on
 * every tenant; an unbound one is refused where DPoP is required, and may not use the DPoP scheme.
 */
async function checkBinding(credential: VerifiedCredential, request: Request, config: DpopConfig, replay: ReplayGuard): Promise<void> {
  if (credential.jkt === undefined) {
    if (config.required)
      throw new AuthError("ERR_DPOP", "this resource requires DPoP-bound access tokens (cnf.jkt), sent as Authorization: DPoP with a DPoP proof");
    if (credential.scheme === "dpop") throw new AuthError("ERR_DPOP", "the DPoP scheme needs a DPoP-bound token (cnf.jkt)");
    return;
  }
  if (credential.scheme !== "dpop") throw new AuthError("ERR_DPOP", "this token is DPoP-bound: send it as Authorization: DPoP <token> with a DPoP proof");
  const context = { proof: request.headers.get("dpop"), method: request.method, url: request.url, token: credential.token, jkt: credential.jkt };
  await verifyDpopProof(context, config, replay);
}

/** Options of {@link createAuthorizer}. */
export interface AuthorizerOptions {
  /** Where DPoP proof ids are held for their window (default: this isolate's memory). */
  replay?: ReplayGuard;
}

/** Builds the authorizer of one protected resource (a tenant), once per config. */
export function createAuthorizer(config: AuthConfig, options: AuthorizerOptions = {}): Authorizer {
  const verifier = createBearerVerifier(config, config.jwksCooldownSeconds === undefined ? {} : { jwksCooldownMs: config.jwksCooldownSeconds * 1000 });
  const resourcePath = new URL(config.resource).pathname;
  const access = createToolAccess(config);
  const dpop = config.dpop;
  let replay: ReplayGuard | undefined;
  const metadata = protectedResourceMetadata(config);
  const configuredJson = JSON.stringify(metadata);
  // Only a loopback resource (a dev server) can be reached at another port; any other costs nothing per request.
  const served = isLoopbackResource(config.resource) ? (request: Request) => servedResource(config.resource, request.url) : undefined;
  const unauthorized = (request: Request) =>
    fromAuthError(
      new AuthError("ERR_NO_TOKEN", `this resource requires an access token: ${credentialHint(dpop?.required === true)}`),
      request,
      config,
      resourcePath,
    );
  return {
    toolFilter: (principal) => access.filter(principal),
    metadata: metadata as unknown as Record<string, unknown>,
    metadataJson(request) {
      const resource = served?.(request);
      return resource === undefined || resource === config.resource ? configuredJson : JSON.stringify({ ...metadata, resource });
    },
    resourcePath,
    unauthorized,
    async authenticate(request) {
      const authorization = request.headers.get("authorization");
      // Public tools: a request without credentials goes on as anonymous (admission decides what it may do).
      if (authorization === null && access.hasPublicTools) return undefined;
      try {
        const resource = served?.(request);
        const credential = await verifier.verifyCredential(authorization, resource);
        // Every tenant honours cnf.jkt (RFC 9449 §7.1): one without a dpop block checks proofs with the default settings.
        await checkBinding(credential, request, dpop ?? DEFAULT_DPOP_CONFIG, replay ?? (replay = options.replay ?? memoryReplayGuard()));
        return credential.principal;
      } catch (error) {
        if (error instanceof AuthError) throw fromAuthError(error, request, config, resourcePath);
        throw error;
      }
    },
    authorizeTool(principal, toolName, request) {
      const refusal = access.check(principal, toolName);
      if (refusal === undefined) return;
      if (refusal.status === 401) throw unauthorized(request);
      const needs = refusal.missing.length > 0 ? refusal.missing.join(" ") : "a grant the token's claims do not give";
      throw fromAuthError(
        new AuthError("ERR_INSUFFICIENT_SCOPE", `tool ${toolName} needs ${needs}`, { requiredScopes: refusal.scopes }),
        request,
        config,
        resourcePath,
      );
    },
  };
}
