/** The internal error raised when a request cannot be authorized (never sent as-is; see `authRefusal`). */

/** Stable codes of {@link AuthError}. Branch on these, never on the message. */
export type AuthErrorCode =
  /** No `Authorization` header, or one that does not use the Bearer scheme (RFC 6750 §3.1: no error code). */
  | "ERR_NO_TOKEN"
  /** The Bearer value is not a well-formed token: bad characters, not three base64url parts, not JSON. */
  | "ERR_MALFORMED_TOKEN"
  /** The signature does not verify with the key named by the token. */
  | "ERR_BAD_SIGNATURE"
  | "ERR_TOKEN_EXPIRED"
  | "ERR_TOKEN_NOT_YET_VALID"
  /** `iss` is not one of the tenant's pinned issuers. */
  | "ERR_WRONG_ISSUER"
  /** `aud` does not name the tenant's resource exactly (RFC 8707; no token passthrough). */
  | "ERR_WRONG_AUDIENCE"
  /** `alg` is `none`, symmetric (HS*) or not on the tenant's allowlist. */
  | "ERR_ALGORITHM"
  /** No key of the tenant's key set matches the token's `kid` and algorithm. */
  | "ERR_UNKNOWN_KEY"
  /** The tenant takes API keys only, and the token is none of them. */
  | "ERR_BAD_API_KEY"
  /** The JWKS could not be fetched or used: a server-side problem, not the client's. */
  | "ERR_JWKS_UNAVAILABLE"
  /** The authorization server says the token is not active: revoked, expired, unknown, or not for this resource. */
  | "ERR_TOKEN_INACTIVE"
  /** The token introspection endpoint or the authorization server's binding did not answer: a server-side problem (503). */
  | "ERR_VERIFIER_UNAVAILABLE"
  /** The principal lacks scopes the operation needs (HTTP 403). */
  | "ERR_INSUFFICIENT_SCOPE"
  /** A DPoP-bound token without a valid proof, or a plain bearer token where DPoP is required (RFC 9449). */
  | "ERR_DPOP";

export interface AuthErrorOptions {
  cause?: unknown;
  /** For `ERR_INSUFFICIENT_SCOPE`: every scope the operation needs (granted or not). */
  requiredScopes?: readonly string[];
}

/**
 * Why a request was not authorized. The message is safe to show to the client (it never holds
 * the token); `authRefusal` turns the error into a 401, 403 or 503 with a challenge.
 */
export class AuthError extends Error {
  override readonly name = "AuthError";
  readonly code: AuthErrorCode;
  /** Set for `ERR_INSUFFICIENT_SCOPE`. */
  readonly requiredScopes: readonly string[] | undefined;

  constructor(code: AuthErrorCode, message: string, options: AuthErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.requiredScopes = options.requiredScopes;
  }
}
