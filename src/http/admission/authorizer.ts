/** Authorization in the request pipeline: verify the bearer, check tool scopes, answer with challenges. */

import { AuthError } from "../../auth/auth-error.ts";
import type { AuthConfig } from "../../auth/auth-config.ts";
import { authRefusal } from "../../auth/challenge.ts";
import { servedResource, isLoopbackResource } from "../../auth/loopback-resource.ts";
import { METADATA_PATH, protectedResourceMetadata } from "../../auth/protected-resource.ts";
import type { ScopeFilter } from "../../auth/scope-filter.ts";
import { createToolAccess } from "../../auth/tool-access.ts";
import { createBearerVerifier, credentialHint, type VerifiedCredential } from "../../auth/verify-bearer.ts";
import type { TemplateIssuers, TokenVerifier } from "../../auth/token-verifier.ts";
import { DEFAULT_DPOP_CONFIG, type DpopConfig } from "../../auth/dpop-config.ts";
import { verifyDpopProof, type ReplayGuard } from "../../auth/dpop.ts";
import { memoryReplayGuard } from "./dpop-replay.ts";
import { ProtocolError } from "../../core/errors.ts";
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
  /**
   * Verifies opaque tokens (not JWTs of the config's issuers): from `configuredTokenSources(config, env)`
   * for a config naming `introspection` or `authorizationServer`, or a verifier built in code.
   */
  tokenVerifier?: TokenVerifier | undefined;
  /** The issuers of the config's `issuerTemplates`, from `configuredTokenSources(config, env)`. */
  issuerTemplates?: TemplateIssuers | undefined;
}

/** Where hosts that read a tool result's `_meta` (the OpenAI Apps SDK) find the challenge; sent in the 401 body's `error.data._meta` too. */
export const CHALLENGE_META_KEY = "mcp/www_authenticate";

/**
 * The 401 of an anonymous call of a protected tool: the challenge in `WWW-Authenticate` (what MCP
 * clients read), and the same challenge in the JSON-RPC error's `data._meta["mcp/www_authenticate"]`.
 */
function withChallengeMeta(error: ProtocolError): ProtocolError {
  const challenge = error.headers?.["WWW-Authenticate"];
  if (challenge === undefined) return error;
  return new ProtocolError(error.code, error.message, {
    status: error.status,
    headers: { "WWW-Authenticate": challenge },
    data: { _meta: { [CHALLENGE_META_KEY]: [challenge] } },
    cause: error.cause,
  });
}

/** Builds the authorizer of one protected resource (a tenant), once per config. */
export function createAuthorizer(config: AuthConfig, options: AuthorizerOptions = {}): Authorizer {
  const verifier = createBearerVerifier(config, {
    ...(config.jwksCooldownSeconds === undefined ? {} : { jwksCooldownMs: config.jwksCooldownSeconds * 1000 }),
    ...(options.tokenVerifier === undefined ? {} : { tokenVerifier: options.tokenVerifier }),
    ...(options.issuerTemplates === undefined ? {} : { issuerTemplates: options.issuerTemplates }),
  });
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
      if (refusal.status === 401) throw withChallengeMeta(unauthorized(request));
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
