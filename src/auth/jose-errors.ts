/** Maps jose's errors to AuthError codes, by jose's stable `code` (and `claim`), never by message. */

import { AuthError } from "./auth-error.ts";

interface JoseLike {
  code?: unknown;
  claim?: unknown;
  reason?: unknown;
}

/** jose's stable error code of a thrown value, if it has one. */
export function joseCode(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as JoseLike).code : undefined;
}

/** Keeps only printable ASCII and at most 100 characters of a value taken from a token. */
export function shown(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  const clean = text.replace(/[^\x20-\x7E]/g, "?");
  return clean.length > 100 ? `${clean.slice(0, 100)}…` : clean;
}

function claimError(claim: unknown, reason: unknown, payload: Record<string, unknown>, error: unknown): AuthError {
  const cause = { cause: error };
  if (claim === "iss") {
    return reason === "missing"
      ? new AuthError("ERR_WRONG_ISSUER", "the token has no iss claim; only tokens from this resource's issuers are accepted", cause)
      : new AuthError("ERR_WRONG_ISSUER", `the token's issuer "${shown(payload["iss"])}" is not trusted by this resource`, cause);
  }
  if (claim === "aud") {
    return new AuthError(
      "ERR_WRONG_AUDIENCE",
      "the token was not issued for this resource (its aud claim does not name it); request a token with this resource as its audience",
      cause,
    );
  }
  if (claim === "typ") {
    return new AuthError(
      "ERR_MALFORMED_TOKEN",
      "the token's typ header does not say it is an access token of the type this resource requires (RFC 9068 at+jwt); send an access token, not an ID token",
      cause,
    );
  }
  if (claim === "nbf" && reason === "check_failed") return new AuthError("ERR_TOKEN_NOT_YET_VALID", "the token is not valid yet (nbf is in the future)", cause);
  if (reason === "missing") return new AuthError("ERR_MALFORMED_TOKEN", `the token has no ${shown(claim)} claim`, cause);
  return new AuthError("ERR_MALFORMED_TOKEN", `the token's ${shown(claim)} claim is invalid`, cause);
}

/**
 * Turns whatever `jwtVerify` threw into an {@link AuthError}. An AuthError raised by the key
 * resolver passes through; anything unknown fails closed as `ERR_BAD_SIGNATURE`.
 */
export function fromJoseError(error: unknown, payload: Record<string, unknown>): AuthError {
  if (error instanceof AuthError) return error;
  const { code, claim, reason } = (typeof error === "object" && error !== null ? error : {}) as JoseLike;
  const cause = { cause: error };
  switch (code) {
    case "ERR_JWS_INVALID":
    case "ERR_JWT_INVALID":
      return new AuthError("ERR_MALFORMED_TOKEN", "the bearer token is not a well-formed JWT", cause);
    case "ERR_JOSE_NOT_SUPPORTED":
      return new AuthError("ERR_MALFORMED_TOKEN", "the token uses a JWS feature this server does not support (e.g. an unknown crit header)", cause);
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
      return new AuthError("ERR_BAD_SIGNATURE", "the token's signature does not verify", cause);
    case "ERR_JWT_EXPIRED":
      return new AuthError("ERR_TOKEN_EXPIRED", "the token has expired; get a new one", cause);
    case "ERR_JOSE_ALG_NOT_ALLOWED":
      return new AuthError("ERR_ALGORITHM", "the token's signing algorithm is not accepted by this resource", cause);
    case "ERR_JWT_CLAIM_VALIDATION_FAILED":
      return claimError(claim, reason, payload, error);
    case "ERR_JWKS_NO_MATCHING_KEY":
      return new AuthError("ERR_UNKNOWN_KEY", "no signing key of this resource's issuer matches the token (kid and algorithm)", cause);
    case "ERR_JWKS_TIMEOUT":
    case "ERR_JWKS_INVALID":
    case "ERR_JOSE_GENERIC":
      return new AuthError("ERR_JWKS_UNAVAILABLE", "the issuer's signing keys could not be loaded; try again later", cause);
    default:
      return new AuthError("ERR_BAD_SIGNATURE", "the token could not be verified", cause);
  }
}
