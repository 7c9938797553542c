/** URI templates for the resources feature: `defineResource` and `defineResourceTemplate` bring them; skill files and app resources alone do not. */

import type { Feature } from "../feature.ts";
import { compileUriTemplate } from "./uri-template.ts";

/** Gives the resources feature (installed after it) the RFC 6570 matcher its templates are compiled with. */
export const uriTemplatesFeature: Feature = {
  name: "uriTemplates",
  rank: 19,
  install: (host) => {
    host.uriTemplates = compileUriTemplate;
    return {};
  },
};
