/** The seam through which tokens other than JWTs and API keys are verified: an opaque token's verifier, given by value. */

import type { Principal } from "../core/principal.ts";
import type { KeyResolver } from "./key-source.ts";

/** What a verifier found: the principal, and the `cnf.jkt` of a DPoP-bound token (RFC 9449 §6). */
export interface VerifiedToken {
  readonly principal: Principal;
  readonly jkt?: string;
}

/** The resource a token must be for: the configured one, and the one the client reached (a loopback dev server on another port). */
export interface TokenResource {
  readonly configured: string;
  readonly served: string;
}

/**
 * Verifies a token that is neither an API key nor a JWT of a pinned issuer: an opaque token of an
 * authorization server (`createIntrospectionVerifier`, `createAuthorizationServerVerifier`). Give it
 * to `createAuthorizer(config, { tokenVerifier })`; whatever it returns is admitted as any principal
 * is (scopes, grants, public tools, rate limits, quotas, DPoP binding).
 */
export interface TokenVerifier {
  /** Resolves to the principal, or rejects with an `AuthError` (401, or 503 for `ERR_VERIFIER_UNAVAILABLE`). */
  verify(token: string, resource: TokenResource): Promise<VerifiedToken>;
}

/** The issuer template an unverified `iss` fits: the template's key set, and the claim that must equal the placeholder's value where present. */
export interface TemplateMatch {
  readonly resolver: KeyResolver;
  readonly claim: string;
  readonly value: string;
}

/**
 * JWT issuers with a placeholder (`auth.issuerTemplates`), given by value to `createBearerVerifier`
 * so that a Worker without templates bundles none of their code. Build it with `configuredTokenSources`.
 */
export interface TemplateIssuers {
  /** The template `iss` fits with an allowed value; undefined when it fits none; throws `ERR_WRONG_ISSUER` for a value outside the allowlist. */
  match(iss: unknown): TemplateMatch | undefined;
}
