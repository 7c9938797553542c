/** The prompts feature: `prompts/list` and `prompts/get`, and the `prompts` capability. */

import { own } from "../../core/json.ts";
import type { Feature } from "../feature.ts";
import { withInputs } from "../inputs/with-inputs.ts";
import { listPage } from "../lists/list-page.ts";
import { PromptRegistry } from "./prompt-registry.ts";

/** Prompts, when the server declares any. */
export const promptsFeature: Feature = {
  name: "prompts",
  rank: 30,
  install: (host) => {
    const prompts = new PromptRegistry(host.declarations.prompts ?? [], host.lists);
    host.prompts = prompts;
    const { handlerContext } = host;
    if (prompts.size === 0) return {};
    return {
      capabilities: (caps, streams) => {
        caps["prompts"] = streams ? { listChanged: true } : {};
      },
      methods: [
        ["prompts/list", (request, ctx) => listPage(request, ctx, (cursor, era) => prompts.page(cursor, era))],
        [
          "prompts/get",
          (request, ctx) => {
            const prompt = prompts.resolve(request.params ? own(request.params, "name") : undefined);
            const binding = { method: "prompts/get", target: prompt.name, args: request.params ? own(request.params, "arguments") : undefined };
            return withInputs(request, ctx, binding, (inputs) => prompts.get(prompt, request.params, handlerContext(ctx, inputs)));
          },
        ],
      ],
    };
  },
};
