/** Scope checks: which scopes a tool needs and which of them a principal lacks (the 403 is built in challenge.ts). */

import type { AuthConfig, ScopeHierarchy } from "./auth-config.ts";
import type { Principal } from "../core/principal.ts";

/**
 * The scopes a tool needs: its own `toolScopes` entry, else the `"*"` entry, else none.
 * An entry with an empty list makes a tool public to every authenticated caller even when
 * `"*"` asks for more.
 */
export function requiredScopes(config: Pick<AuthConfig, "toolScopes">, toolName: string): readonly string[] {
  const { toolScopes } = config;
  if (Object.hasOwn(toolScopes, toolName)) return toolScopes[toolName] ?? [];
  return Object.hasOwn(toolScopes, "*") ? (toolScopes["*"] ?? []) : [];
}

/** True when `granted` satisfies `required` under the hierarchy rule. */
export function scopeCovers(granted: string, required: string, hierarchy: ScopeHierarchy = "none"): boolean {
  if (granted === required) return true;
  // Only at a ":" boundary: "tools" covers "tools:read" but never "toolsmith" or "tool".
  return hierarchy === "colon" && required.startsWith(`${granted}:`);
}

/**
 * The required scopes the principal does not hold, in the order required. Matching is exact
 * (case-sensitive, RFC 6749 §3.3) unless the tenant sets `scopeHierarchy: "colon"`, where a
 * granted `a` also covers `a:b` and `a:b:c`. Hierarchy is opt-in because identity providers
 * name scopes by different conventions (`files.read`, URLs, `api://x/.default`), and a parent
 * scope silently granting a dangerous child is a worse surprise than a 403.
 */
export function missingScopes(principal: Pick<Principal, "scopes">, required: readonly string[], hierarchy: ScopeHierarchy = "none"): string[] {
  return required.filter((scope) => !principal.scopes.some((granted) => scopeCovers(granted, scope, hierarchy)));
}
