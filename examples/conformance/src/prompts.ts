/** Prompts the conformance suites list and get (prompts-*, completion-complete, MRTR non-tool request). */

import { definePrompt } from "edge-mcp";
import { PNG_BASE64, acceptedField } from "./content.ts";

export const simplePrompt = definePrompt({
  name: "test_simple_prompt",
  description: "A prompt without arguments (prompts-get-simple).",
  get: () => [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }],
});

/** prompts-get-with-args; completion-complete asks for completions of arg1. */
export const promptWithArguments = definePrompt({
  name: "test_prompt_with_arguments",
  description: "A prompt with two required arguments (prompts-get-with-args).",
  arguments: [
    { name: "arg1", description: "First test argument", required: true },
    { name: "arg2", description: "Second test argument", required: true },
  ],
  get: (args) => [{ role: "user", content: { type: "text", text: `Prompt with arguments: arg1='${args["arg1"]}', arg2='${args["arg2"]}'` } }],
  complete: {
    arg1: (value) => ["test", "testValue1", "testing", "other"].filter((item) => item.startsWith(value)),
  },
});

export const promptWithEmbeddedResource = definePrompt({
  name: "test_prompt_with_embedded_resource",
  description: "A prompt that embeds the resource named by its argument (prompts-get-embedded-resource).",
  arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
  get: (args) => [
    {
      role: "user",
      content: { type: "resource", resource: { uri: args["resourceUri"] ?? "", mimeType: "text/plain", text: "Embedded resource content for testing." } },
    },
    { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
  ],
});

export const promptWithImage = definePrompt({
  name: "test_prompt_with_image",
  description: "A prompt that contains an image (prompts-get-with-image).",
  get: () => [
    { role: "user", content: { type: "image", data: PNG_BASE64, mimeType: "image/png" } },
    { role: "user", content: { type: "text", text: "Please analyze the image above." } },
  ],
});

/** input-required-result-non-tool-request: a prompts/get that asks the user first (key user_context). */
export const inputRequiredPrompt = definePrompt({
  name: "test_input_required_result_prompt",
  description: "A prompt that first asks the user for context (input_required with elicitation/create under key user_context).",
  get: async (_args, ctx) => {
    const answer = await ctx.elicit(
      {
        message: "What context should the prompt use?",
        requestedSchema: { type: "object", properties: { context: { type: "string" } }, required: ["context"] },
      },
      { key: "user_context" },
    );
    const context = acceptedField(answer, "context") ?? "(none given)";
    return [{ role: "user", content: { type: "text", text: `Answer using this context: ${context}` } }];
  },
});

export const prompts = [simplePrompt, promptWithArguments, promptWithEmbeddedResource, promptWithImage, inputRequiredPrompt];
