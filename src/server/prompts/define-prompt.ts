/** `definePrompt`: a prompt declaration that brings the prompts feature (and completions) with it. */

import { completionsFeature } from "../completions/completions-feature.ts";
import { needing } from "../feature.ts";
import type { PromptDefinition } from "./prompt.ts";
import { promptsFeature } from "./prompts-feature.ts";

const NEEDS = [promptsFeature, completionsFeature];

/** Declares a prompt (checked by the type system; the server compiles it). */
export function definePrompt(definition: PromptDefinition): PromptDefinition {
  return needing(definition, NEEDS);
}
