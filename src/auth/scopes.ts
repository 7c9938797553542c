/** Scope checks: which scopes a tool needs, which of them a principal lacks, and the 403 error. */

import type { AuthConfig, ScopeHierarchy } from "./auth-config.ts";
import { AuthError } from "./auth-error.ts";
import { shown } from "./jose-errors.ts";
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

/**
 * Throws `ERR_INSUFFICIENT_SCOPE` when the principal may not call the tool. The error carries
 * every scope the tool needs (2026-07-28 authorization: one challenge lists all scopes needed
 * for the operation), and its message names the missing ones.
 */
export function assertToolScopes(config: Pick<AuthConfig, "toolScopes" | "scopeHierarchy">, principal: Pick<Principal, "scopes">, toolName: string): void {
  const required = requiredScopes(config, toolName);
  const missing = missingScopes(principal, required, config.scopeHierarchy);
  if (missing.length === 0) return;
  throw new AuthError(
    "ERR_INSUFFICIENT_SCOPE",
    `the tool "${shown(toolName)}" needs the scope${missing.length > 1 ? "s" : ""} ${missing.join(" ")}, which the token does not grant`,
    {
      requiredScopes: required,
    },
  );
}
