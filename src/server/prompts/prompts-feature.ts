/** The prompts feature: `prompts/list` and `prompts/get`, and the `prompts` capability. */

import { invalidParams } from "../../core/errors.ts";
import { own } from "../../core/json.ts";
import { COMPLETION_SOURCES } from "../completions/completion-source.ts";
import type { Feature } from "../feature.ts";
import { withInputs } from "../inputs/with-inputs.ts";
import { listPage } from "../lists/list-page.ts";
import { PromptRegistry } from "./prompt-registry.ts";

/** Prompts, when the server declares any. */
export const promptsFeature: Feature = {
  name: "prompts",
  reads: ["prompts"],
  provides: [COMPLETION_SOURCES],
  install: (host) => {
    const prompts = new PromptRegistry(host.options.prompts ?? [], host.lists);
    // Prompt arguments complete through the completions feature (what definePrompt brings).
    host.provide(COMPLETION_SOURCES, {
      ref: "ref/prompt",
      size: prompts.size,
      completer: (ref, name) => {
        const prompt = prompts.resolve(ref["name"]);
        if (!(prompt.arguments ?? []).some((a) => a.name === name)) throw invalidParams(`Prompt ${prompt.name} has no argument ${name}`);
        return prompt.complete && Object.hasOwn(prompt.complete, name) ? prompt.complete[name] : undefined;
      },
    });
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
