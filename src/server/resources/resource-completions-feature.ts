/** Completions of resource template variables: `defineResource*` bring them; skill files and app resources alone do not. */

import { invalidParams } from "../../core/errors.ts";
import { COMPLETION_SOURCES } from "../completions/completion-source.ts";
import type { Feature } from "../feature.ts";
import { RESOURCE_REGISTRY } from "./resource-services.ts";

/** Offers the completions feature the variables of the server's resource templates (`ref/resource`). */
export const resourceCompletionsFeature: Feature = {
  name: "resourceCompletions",
  uses: [RESOURCE_REGISTRY],
  provides: [COMPLETION_SOURCES],
  install: (host) => {
    for (const resources of host.use(RESOURCE_REGISTRY)) {
      host.provide(COMPLETION_SOURCES, {
        ref: "ref/resource",
        size: resources.size,
        completer: (ref, name) => {
          const uri = String(ref["uri"]);
          const template = resources.template(uri);
          if (!template) throw invalidParams(`Unknown resource template: ${uri}`);
          return template.complete && Object.hasOwn(template.complete, name) ? template.complete[name] : undefined;
        },
      });
    }
    return {};
  },
};
