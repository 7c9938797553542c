/** WWW-Authenticate challenges (RFC 6750 §3, RFC 9728 §5.1, RFC 9449 §7.1) and the one conversion of an AuthError to its answer. */

import type { AuthError } from "./auth-error.ts";
import type { DpopConfig } from "./dpop-config.ts";
import { ErrorCode, ProtocolError } from "../core/errors.ts";

/** Where clients find the metadata, and which scopes to ask for. */
export interface ChallengeOptions {
  /** URL of the protected resource metadata document (RFC 9728 §5.1), e.g. from `metadataUrls`. */
  resourceMetadata: string;
  /** Scopes a 401 suggests requesting (usually `scopesSupported`); left out when empty. */
  scopes?: readonly string[];
  /** The tenant's DPoP settings: a 401 then carries a DPoP challenge too (alone when DPoP is required). */
  dpop?: DpopConfig;
}

/** An HTTP quoted-string (RFC 9110 §5.6.4): `\` and `"` escaped; controls and non-ASCII become `?`. */
function quoted(value: string): string {
  return `"${value.replace(/[^\x20-\x7E]/g, "?").replace(/[\\"]/g, "\\$&")}"`;
}

/**
 * `error_description` may only hold %x20-21 / %x23-5B / %x5D-7E (RFC 6750 §3), so quotes and
 * backslashes are swapped, and a section sign is spelled out rather than lost to `?`.
 */
function description(value: string): string {
  return quoted(value.replaceAll('"', "'").replaceAll("\\", "/").replace(/§\s*/g, "section "));
}

/**
 * The DPoP challenge (RFC 9449 §7.1): `DPoP algs="…", resource_metadata="…"`, with `error` and
 * `error_description` when a credential was sent (`invalid_dpop_proof` for a bad proof).
 */
export function dpopChallenge(config: DpopConfig, resourceMetadata: string, error?: AuthError): string {
  const code =
    error === undefined || error.code === "ERR_NO_TOKEN"
      ? undefined
      : error.code === "ERR_DPOP" && error.message.startsWith("invalid DPoP proof")
        ? "invalid_dpop_proof"
        : "invalid_token";
  return [
    `DPoP algs=${quoted(config.algorithms.join(" "))}`,
    `resource_metadata=${quoted(resourceMetadata)}`,
    ...(code === undefined || error === undefined ? [] : [`error=${quoted(code)}`, `error_description=${description(error.message)}`]),
  ].join(", ");
}

function params(pairs: [string, string | undefined][]): string {
  return `Bearer ${pairs
    .filter((pair): pair is [string, string] => pair[1] !== undefined)
    .map(([name, value]) => `${name}=${value}`)
    .join(", ")}`;
}

function scopeValue(scopes: readonly string[] | undefined): string | undefined {
  return scopes === undefined || scopes.length === 0 ? undefined : quoted(scopes.join(" "));
}

/**
 * The 401 challenge: `Bearer resource_metadata="…", scope="…", error="invalid_token",
 * error_description="…"`. Without an error (no token sent) only `resource_metadata` and
 * `scope` appear, as RFC 6750 §3.1 asks for requests that carry no credentials.
 */
export function unauthorizedChallenge(error: AuthError | undefined, options: ChallengeOptions): string {
  const invalid = error !== undefined && error.code !== "ERR_NO_TOKEN";
  return params([
    ["resource_metadata", quoted(options.resourceMetadata)],
    ["scope", scopeValue(options.scopes)],
    ["error", invalid ? quoted("invalid_token") : undefined],
    ["error_description", invalid ? description(error.message) : undefined],
  ]);
}

/**
 * The 403 challenge: `Bearer error="insufficient_scope", scope="<every scope needed>",
 * resource_metadata="…", error_description="…"`. `scope` lists all scopes the operation needs,
 * granted or not, so a client that asks for exactly these gets through in one step.
 */
export function insufficientScopeChallenge(required: readonly string[], options: { resourceMetadata: string; description?: string }): string {
  return params([
    ["error", quoted("insufficient_scope")],
    ["scope", scopeValue(required)],
    ["resource_metadata", quoted(options.resourceMetadata)],
    ["error_description", options.description === undefined ? undefined : description(options.description)],
  ]);
}

/**
 * An {@link AuthError} as the error the pipeline answers with, status and challenge included: the
 * one place that picks them, so the error is converted once. `ERR_INSUFFICIENT_SCOPE` → 403 naming
 * every scope the operation needs; `ERR_JWKS_UNAVAILABLE` → 503 without a challenge (the token may
 * be fine, so nothing sends the client to re-authorize), and so does `ERR_VERIFIER_UNAVAILABLE`; the rest → 401 with the challenge.
 */
export function authRefusal(error: AuthError, options: ChallengeOptions): ProtocolError {
  if (error.code === "ERR_JWKS_UNAVAILABLE" || error.code === "ERR_VERIFIER_UNAVAILABLE") {
    return new ProtocolError(ErrorCode.InternalError, `Authorization unavailable: ${error.message}`, { status: 503, cause: error });
  }
  if (error.code === "ERR_INSUFFICIENT_SCOPE") {
    const header = insufficientScopeChallenge(error.requiredScopes ?? [], { resourceMetadata: options.resourceMetadata, description: error.message });
    return new ProtocolError(ErrorCode.InvalidRequest, `Insufficient scope: ${error.message}`, {
      status: 403,
      headers: { "WWW-Authenticate": header },
      cause: error,
    });
  }
  const bearer = unauthorizedChallenge(error, options);
  const { dpop } = options;
  // RFC 9449 §7.1: a DPoP challenge with algs; alone when DPoP is required, else after the Bearer one.
  const challenge =
    dpop === undefined
      ? bearer
      : dpop.required
        ? dpopChallenge(dpop, options.resourceMetadata, error)
        : `${bearer}, ${dpopChallenge(dpop, options.resourceMetadata, error)}`;
  return new ProtocolError(ErrorCode.InvalidRequest, `Unauthorized: ${error.message}`, {
    status: 401,
    headers: { "WWW-Authenticate": challenge },
    cause: error,
  });
}
