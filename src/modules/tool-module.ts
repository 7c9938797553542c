/** A bundled module: tools (and optionally resources and prompts) shipped inside the Worker. */

import type { PromptDefinition } from "../server/prompt.ts";
import type { ResourceDefinition, ResourceTemplateDefinition } from "../server/resource.ts";
import type { ToolDefinition } from "../server/tool.ts";

export interface ToolModule {
  tools?: readonly ToolDefinition<any>[];
  resources?: readonly ResourceDefinition[];
  resourceTemplates?: readonly ResourceTemplateDefinition[];
  prompts?: readonly PromptDefinition[];
}

/** Declares a bundled module (identity function, for type checking). */
export function defineModule(module: ToolModule): ToolModule {
  return module;
}
