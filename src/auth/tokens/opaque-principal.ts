/** The principal of an opaque token, from what its authorization server said: the same shape and grants as a JWT's. */

import type { Principal } from "../../core/principal.ts";
import { grantsOf, type ClaimGrant } from "../grants.ts";

/** What an authorization server reported about an active token. */
export interface OpaqueTokenFacts {
  readonly issuer: string;
  readonly subject: string;
  readonly scopes: readonly string[];
  readonly via: "introspection" | "authorization-server";
  readonly clientId?: string | undefined;
  readonly expiresAt?: number | undefined;
  /** Read by `grants` as a JWT's payload is, and handed to handlers as `principal.claims`. */
  readonly claims: Record<string, unknown>;
}

/** The space-separated `scope` of RFC 7662 §2.2, or a list of scopes, as a clean list. */
export function scopeList(raw: unknown): string[] {
  const list = typeof raw === "string" ? raw.split(" ") : Array.isArray(raw) ? raw : [];
  return [...new Set(list.filter((scope): scope is string => typeof scope === "string" && scope !== ""))];
}

/** The principal: scopes granted by `grants` join the token's own, granted tools are kept apart (as for a JWT). */
export function opaquePrincipal(facts: OpaqueTokenFacts, grants: readonly ClaimGrant[]): Principal {
  const granted = grantsOf(grants, facts.claims);
  return {
    issuer: facts.issuer,
    subject: facts.subject,
    scopes: granted.scopes.length === 0 ? [...facts.scopes] : [...new Set([...facts.scopes, ...granted.scopes])],
    via: facts.via,
    ...(granted.tools.length === 0 ? {} : { tools: granted.tools }),
    ...(facts.clientId === undefined ? {} : { clientId: facts.clientId }),
    ...(facts.expiresAt === undefined ? {} : { expiresAt: facts.expiresAt }),
    claims: facts.claims,
  };
}
