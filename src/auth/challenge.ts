/** WWW-Authenticate challenges (RFC 6750 §3, RFC 9728 §5.1) and the plain-data response for an AuthError. */

import type { AuthError } from "./auth-error.ts";

/** Where clients find the metadata, and which scopes to ask for. */
export interface ChallengeOptions {
  /** URL of the protected resource metadata document (RFC 9728 §5.1), e.g. from `metadataUrls`. */
  resourceMetadata: string;
  /** Scopes a 401 suggests requesting (usually `scopesSupported`); left out when empty. */
  scopes?: readonly string[];
}

/** An auth failure as data: the pipeline builds the Response from it. */
export interface AuthErrorResponse {
  /** 401 (no or bad credentials), 403 (insufficient scope), 503 (keys unavailable). */
  status: 401 | 403 | 503;
  /** `WWW-Authenticate` on 401 and 403; nothing on 503. */
  headers: Record<string, string>;
  /** An id-less JSON-RPC error: -32600 for 401/403, -32603 for 503. */
  body: { jsonrpc: "2.0"; error: { code: number; message: string } };
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
 * Maps an {@link AuthError} to its response data: the one place that picks status and challenge.
 * `ERR_INSUFFICIENT_SCOPE` → 403 with its required scopes; `ERR_JWKS_UNAVAILABLE` → 503 (the
 * token may be fine, so no challenge that would send the client to re-authorize); the rest → 401.
 */
export function authErrorResponse(error: AuthError, options: ChallengeOptions): AuthErrorResponse {
  if (error.code === "ERR_JWKS_UNAVAILABLE") {
    return { status: 503, headers: {}, body: { jsonrpc: "2.0", error: { code: -32603, message: `Authorization unavailable: ${error.message}` } } };
  }
  if (error.code === "ERR_INSUFFICIENT_SCOPE") {
    const header = insufficientScopeChallenge(error.requiredScopes ?? [], { resourceMetadata: options.resourceMetadata, description: error.message });
    return { status: 403, headers: { "WWW-Authenticate": header }, body: { jsonrpc: "2.0", error: { code: -32600, message: `Forbidden: ${error.message}` } } };
  }
  return {
    status: 401,
    headers: { "WWW-Authenticate": unauthorizedChallenge(error, options) },
    body: { jsonrpc: "2.0", error: { code: -32600, message: `Unauthorized: ${error.message}` } },
  };
}
