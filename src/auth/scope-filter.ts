/** Which tools a principal's scopes allow: the view of lists and tool search on an auth tenant. */

import type { Principal } from "../core/principal.ts";
import type { AuthConfig } from "./auth-config.ts";
import { missingScopes } from "./scopes.ts";

/** The tools a principal may call. Principals whose scopes satisfy the same `toolScopes` entries share a key. */
export interface ScopeFilter {
  readonly key: string;
  allows(toolName: string): boolean;
}

/**
 * Prepares, once per config, the filter of each principal. Tools needing no scope are always
 * allowed; when no tool needs any scope there is nothing to filter (undefined). The key records
 * which distinct scope lists of `toolScopes` the principal satisfies, so it stays short whatever
 * the principal's scopes, and two principals with the same key see the same tools.
 */
export function createScopeFilters(
  config: Pick<AuthConfig, "toolScopes" | "scopeHierarchy">,
): (principal: Pick<Principal, "scopes">) => ScopeFilter | undefined {
  const lists: (readonly string[])[] = [];
  const listIds = new Map<string, number>();
  const groups = new Map<string, number>();
  let star: number | undefined;
  for (const [tool, required] of Object.entries(config.toolScopes)) {
    if (required.length === 0) continue;
    const signature = JSON.stringify([...required].sort());
    let id = listIds.get(signature);
    if (id === undefined) {
      id = lists.length;
      listIds.set(signature, id);
      lists.push(required);
    }
    if (tool === "*") star = id;
    else groups.set(tool, id);
  }
  if (lists.length === 0) return () => undefined;
  return (principal) => {
    const satisfied = lists.map((required) => missingScopes(principal, required, config.scopeHierarchy).length === 0);
    return {
      key: satisfied.map((ok) => (ok ? "1" : "0")).join(""),
      allows(toolName) {
        // A tool's own entry wins over "*", even an empty one (requiredScopes does the same).
        const group = Object.hasOwn(config.toolScopes, toolName) ? groups.get(toolName) : star;
        return group === undefined || satisfied[group] === true;
      },
    };
  };
}
