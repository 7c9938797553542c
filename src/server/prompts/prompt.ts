/** How prompts are declared. */

import type { ContentBlock, Icon, JsonObject } from "../../core/types.ts";
import type { HandlerContext } from "../context/handler-context.ts";
import type { Completer } from "../completions/completion-source.ts";

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface PromptMessage {
  role: "user" | "assistant";
  content: ContentBlock;
}

/** What `get` may return: the messages, or the messages with a description. */
export type PromptGetReturn = PromptMessage[] | { description?: string; messages: PromptMessage[] };

export interface PromptDefinition {
  name: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  _meta?: JsonObject;
  arguments?: PromptArgument[];
  /** Builds the messages; required arguments are checked before it runs. */
  get: (args: Record<string, string>, ctx: HandlerContext) => PromptGetReturn | Promise<PromptGetReturn>;
  /** Completions for arguments, by argument name. */
  complete?: Record<string, Completer>;
}

declare module "../feature.ts" {
  interface ServerDeclarations {
    /** Prompts (from `definePrompt`): listed by `prompts/list`, rendered by `prompts/get`. */
    prompts?: readonly PromptDefinition[];
  }
}
