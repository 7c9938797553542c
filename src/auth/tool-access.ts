/**
 * Who may call which tool on an auth tenant: public tools, grants from claims and scopes, decided
 * in one place for calls (admission), for lists and tool search (the filter) and for `securitySchemes`.
 */

import type { Principal } from "../core/principal.ts";
import type { AuthConfig } from "./auth-config.ts";
import { toolMatches } from "./grants.ts";
import { createScopeFilters, type ScopeFilter } from "./scope-filter.ts";
import { missingScopes, requiredScopes } from "./scopes.ts";

/** Why a call is refused: no token (401), or a token that lacks what the tool needs (403). */
export type ToolRefusal =
  | { readonly status: 401 }
  /** `scopes`: every scope the tool needs, when scopes would let the caller in; empty when only a grant would. */
  | { readonly status: 403; readonly scopes: readonly string[]; readonly missing: readonly string[] };

/** A `securitySchemes` entry (SEP-1488, as the OpenAI Apps SDK reads it). */
export type SecurityScheme = { type: "noauth" } | { type: "oauth2"; scopes?: string[] };

/** The tool access rules of one tenant, built once per config. */
export interface ToolAccess {
  /** True when some tool is public: anonymous requests are admitted (for those tools only). */
  readonly hasPublicTools: boolean;
  /** Undefined when the caller may call the tool, else why not. */
  check(principal: Principal | undefined, toolName: string): ToolRefusal | undefined;
  /** The tools a caller may see; undefined when it may see every tool. */
  filter(principal: Principal | undefined): ScopeFilter | undefined;
  /** What the tool requires, for its listed form. */
  securitySchemes(toolName: string): SecurityScheme[];
}

/**
 * Lists: an anonymous caller sees every tool, or with `anonymousList: "public-only"` the public ones
 * only; a caller with a token sees what it may call. The call rules, in order: a public tool is open to everyone; anyone else needs a token (401); a tool
 * granted by the caller's claims is allowed; a tool needing scopes is allowed when the caller's
 * scopes (its own plus granted ones) cover them (403 naming them otherwise); a tool named by some
 * grant's `tools` and needing no scope is restricted to callers holding such a grant (403 without
 * scopes: no scope would help); any other tool is open to every authenticated caller.
 */
export function createToolAccess(
  config: Pick<AuthConfig, "toolScopes" | "scopeHierarchy" | "grants" | "publicTools"> & Partial<Pick<AuthConfig, "anonymousList">>,
): ToolAccess {
  const isPublic = (name: string) => config.publicTools.some((pattern) => toolMatches(pattern, name));
  const granted = (principal: Principal, name: string) => principal.tools?.some((pattern) => toolMatches(pattern, name)) === true;
  const grantPatterns = config.grants.flatMap((grant) => grant.tools);
  const restricted = (name: string) => grantPatterns.some((pattern) => toolMatches(pattern, name));
  const scopeFilters = createScopeFilters(config);
  const hasRules = grantPatterns.length > 0;
  // Anonymous callers see every tool (protected ones say so in securitySchemes) unless the tenant hides them.
  const anonymousView: ScopeFilter | undefined = config.anonymousList === "public-only" ? { key: "anonymous", allows: isPublic } : undefined;

  const check = (principal: Principal | undefined, name: string): ToolRefusal | undefined => {
    if (isPublic(name)) return undefined;
    if (!principal) return { status: 401 };
    if (granted(principal, name)) return undefined;
    const required = requiredScopes(config, name);
    if (required.length > 0) {
      const missing = missingScopes(principal, required, config.scopeHierarchy);
      return missing.length === 0 ? undefined : { status: 403, scopes: required, missing };
    }
    return restricted(name) ? { status: 403, scopes: [], missing: [] } : undefined;
  };

  return {
    hasPublicTools: config.publicTools.length > 0,
    check,
    filter(principal) {
      if (!principal) return anonymousView;
      const byScopes = scopeFilters(principal);
      if (!byScopes && !hasRules) return undefined;
      // Equal keys allow the same tools: the satisfied scope lists and the granted patterns say it all.
      return { key: `${byScopes?.key ?? ""}|${(principal.tools ?? []).join(" ")}`, allows: (name) => check(principal, name) === undefined };
    },
    securitySchemes(name) {
      if (isPublic(name)) return [{ type: "noauth" }];
      const required = requiredScopes(config, name);
      return [required.length > 0 ? { type: "oauth2", scopes: [...required] } : { type: "oauth2" }];
    },
  };
}
