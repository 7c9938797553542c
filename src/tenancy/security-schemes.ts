/** Per-tool `securitySchemes` (SEP-1488) of an auth tenant's tools, from what each tool requires. */

import type { AuthConfig } from "../auth/auth-config.ts";
import { createToolAccess } from "../auth/tool-access.ts";
import type { JsonObject } from "../core/types.ts";
import type { ToolDefinition } from "../server/tools/tool.ts";

/**
 * The tools with their `securitySchemes`, on the tool object and in `_meta.securitySchemes` (where
 * the OpenAI Apps SDK reads it): `[{ type: "noauth" }]` for a public tool, `[{ type: "oauth2",
 * scopes }]` otherwise. A tenant without auth lists its tools unchanged.
 */
export function withSecuritySchemes(tools: readonly ToolDefinition[], auth: AuthConfig | undefined): ToolDefinition[] {
  if (!auth) return [...tools];
  const access = createToolAccess(auth);
  return tools.map((tool) => {
    const schemes = access.securitySchemes(tool.name) as unknown as JsonObject[];
    return { ...tool, securitySchemes: schemes, _meta: { ...tool._meta, securitySchemes: schemes } };
  });
}
