/** A bundled module: tools (and optionally resources, prompts and skills) shipped inside the Worker. */

import type { AppDefinition } from "../server/apps/app.ts";
import type { PromptDefinition } from "../server/prompts/prompt.ts";
import type { ResourceDefinition, ResourceTemplateDefinition } from "../server/resources/resource.ts";
import type { Skill } from "../server/skills/skill.ts";
import type { ToolDefinition } from "../server/tools/tool.ts";

export interface ToolModule {
  tools?: readonly ToolDefinition[];
  resources?: readonly ResourceDefinition[];
  resourceTemplates?: readonly ResourceTemplateDefinition[];
  prompts?: readonly PromptDefinition[];
  /** Agent Skills; a module prefix goes before their path: `skill://<prefix>/<path>/<name>/SKILL.md`. */
  skills?: readonly Skill[];
  /** MCP Apps (from `defineApp`) with their tools; a module prefix goes before their `ui://` URIs and tool names. */
  apps?: readonly AppDefinition[];
}

/** Declares a bundled module (identity function, for type checking). */
export function defineModule(module: ToolModule): ToolModule {
  return module;
}
