/** URI templates for the resources feature: `defineResource` and `defineResourceTemplate` bring them; skill files and app resources alone do not. */

import type { Feature } from "../feature.ts";
import { URI_TEMPLATE_COMPILER } from "./resource-services.ts";
import { compileUriTemplate } from "./uri-template.ts";

/** Gives the resources feature the RFC 6570 matcher its templates are compiled with. */
export const uriTemplatesFeature: Feature = {
  name: "uriTemplates",
  provides: [URI_TEMPLATE_COMPILER],
  install: (host) => {
    host.provide(URI_TEMPLATE_COMPILER, compileUriTemplate);
    return {};
  },
};
