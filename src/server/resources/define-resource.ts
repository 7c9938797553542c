/** `defineResource` and `defineResourceTemplate`: declarations that bring the resources feature (and completions) with them. */

import { completionsFeature } from "../completions/completions-feature.ts";
import { needing } from "../feature.ts";
import type { ResourceDefinition, ResourceTemplateDefinition } from "./resource.ts";
import { resourcesFeature } from "./resources-feature.ts";
import { uriTemplatesFeature } from "./uri-templates-feature.ts";
import { resourceCompletionsFeature } from "./resource-completions-feature.ts";

// URI templates come with either: a plain template object next to a defined resource is served as before.
const NEEDS = [uriTemplatesFeature, resourcesFeature, resourceCompletionsFeature, completionsFeature];

/** Declares a fixed resource (checked by the type system; the server compiles it). */
export function defineResource(definition: ResourceDefinition): ResourceDefinition {
  return needing(definition, NEEDS);
}

/** Declares a family of resources addressed by a URI template. */
export function defineResourceTemplate(definition: ResourceTemplateDefinition): ResourceTemplateDefinition {
  return needing(definition, NEEDS);
}
