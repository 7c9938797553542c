/** The completions feature: `completion/complete` for what other features offer (prompt arguments, resource template variables). */

import type { Feature } from "../feature.ts";
import type { InputChannel } from "../inputs/input.ts";
import { complete } from "./completion.ts";
import { COMPLETION_SOURCES } from "./completion-source.ts";

/** A completer answers at once: it cannot ask the user anything. */
const NO_INPUTS: InputChannel = {
  request() {
    throw new Error("a completer cannot ask the user for input");
  },
};

/** Completions, offered whenever a feature provides a source with anything in it (prompts, resource templates). */
export const completionsFeature: Feature = {
  name: "completions",
  uses: [COMPLETION_SOURCES],
  install: (host) => {
    const sources = host.use(COMPLETION_SOURCES);
    if (!sources.some((source) => source.size > 0)) return {};
    return {
      capabilities: (caps) => {
        caps["completions"] = {};
      },
      methods: [["completion/complete", (request, transport) => complete(request.params, sources, () => host.handlerContext(transport, NO_INPUTS))]],
    };
  },
};
