/** The verified identity of a caller, and the unambiguous key that binds state to it. */

/** Who vouches for an API-key principal, in place of a token issuer. */
export const API_KEY_ISSUER = "api-key";

/**
 * A verified caller, as admission found it. Tools and tool services receive this, never the
 * token (no token passthrough). A principal is identified by its tenant, its issuer and its
 * subject together: the same `sub` from two issuers is two principals.
 */
export interface Principal {
  /** The token's `iss`, or {@link API_KEY_ISSUER} for an API key. */
  readonly issuer: string;
  /** The token's `sub`, or the API key's id. */
  readonly subject: string;
  /** Granted scopes: `scope` (space-separated) or `scp` of the token, or the API key's. */
  readonly scopes: readonly string[];
  /** What verified the credential: a JWT, an API key, RFC 7662 introspection, an authorization server over a Service Binding, or this Worker's own authorization server (edge-mcp/oauth). */
  readonly via: "jwt" | "api-key" | "introspection" | "authorization-server" | "oauth";
  /** `client_id` (RFC 9068) or `azp` of the token; the key id for an API key. */
  readonly clientId?: string;
  /** `exp` of the token, in seconds since the epoch. */
  readonly expiresAt?: number;
  /** Tool names and `prefix_*` patterns granted by the token's claims (auth `grants`), sorted. */
  readonly tools?: readonly string[];
  /**
   * What the authorization server said about an opaque token: the grant's props (Service Binding),
   * or the introspection response's members. Never holds the token itself.
   */
  readonly claims?: Readonly<Record<string, unknown>>;
}

/**
 * The key of a caller: `[tenant]` for an anonymous caller, `[tenant, issuer, subject]` for a
 * principal, encoded as JSON so that no choice of issuer or subject can make two callers
 * collide (a `sub` of `api-key:ci`, or one containing separators, is just a string here).
 */
export function callerKey(tenant: string, principal: Pick<Principal, "issuer" | "subject"> | undefined): string {
  return JSON.stringify(principal ? [tenant, principal.issuer, principal.subject] : [tenant]);
}
