/** The completions feature: `completion/complete` for prompt arguments and resource template variables. */

import type { Feature } from "../feature.ts";
import { complete } from "./completion.ts";

/** Completions, offered whenever the server has prompts or resources. */
export const completionsFeature: Feature = {
  name: "completions",
  rank: 40,
  install: ({ prompts, resources }) => {
    if ((prompts?.size ?? 0) === 0 && (resources?.size ?? 0) === 0) return {};
    return {
      capabilities: (caps) => {
        caps["completions"] = {};
      },
      methods: [["completion/complete", (request) => complete(request.params, prompts, resources)]],
    };
  },
};
