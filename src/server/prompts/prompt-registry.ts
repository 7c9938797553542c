/** Prompts compiled once: listed pages, O(1) lookup, argument checks before `get` runs. */

import { DefinitionError } from "../../core/definition-error.ts";
import { invalidParams } from "../../core/errors.ts";
import { isObject, own } from "../../core/json.ts";
import type { Params } from "../../core/jsonrpc.ts";
import type { JsonObject } from "../../core/types.ts";
import type { Era, HandlerContext } from "../context/handler-context.ts";
import { PagedList, type PagedListOptions } from "../lists/paged-list.ts";
import type { PromptDefinition, PromptMessage } from "./prompt.ts";

export class PromptRegistry {
  readonly #prompts = new Map<string, PromptDefinition>();
  readonly #list: PagedList;

  constructor(definitions: readonly PromptDefinition[], options: PagedListOptions) {
    for (const prompt of definitions) {
      if (typeof prompt.name !== "string" || prompt.name === "")
        throw new DefinitionError(`prompt name ${JSON.stringify(prompt.name)} must be a non-empty string`);
      if (this.#prompts.has(prompt.name)) throw new DefinitionError(`prompt name "${prompt.name}" is declared twice`);
      if (typeof prompt.get !== "function") throw new DefinitionError(`prompt ${prompt.name}: get must be a function`);
      this.#prompts.set(prompt.name, prompt);
    }
    const prompts = [...this.#prompts.values()];
    const items = prompts.map(({ get: _get, complete: _complete, ...listed }) => JSON.stringify(listed));
    this.#list = new PagedList(
      "prompts/list",
      "prompts",
      items,
      prompts.map((p) => p.name),
      options,
    );
  }

  get size(): number {
    return this.#prompts.size;
  }

  page(cursor: unknown, era: Era): string {
    return this.#list.page(cursor, era);
  }

  /** Finds a prompt by name; throws -32602 for an unknown one. */
  resolve(name: unknown): PromptDefinition {
    if (typeof name !== "string") throw invalidParams(`prompts/get needs params.name, the name of a prompt from prompts/list`);
    const prompt = this.#prompts.get(name);
    if (!prompt) throw invalidParams(`Unknown prompt: ${name}`);
    return prompt;
  }

  /** Checks the arguments (strings; required ones present) and builds the messages. Throws -32602 naming what is missing. */
  async get(prompt: PromptDefinition, params: Params | undefined, ctx: HandlerContext): Promise<JsonObject> {
    const raw = params ? own(params, "arguments") : undefined;
    if (raw !== undefined && !isObject(raw)) throw invalidParams(`prompts/get params.arguments must be an object of strings`);
    const args: Record<string, string> = {};
    for (const [key, value] of Object.entries(raw ?? {})) {
      if (typeof value !== "string") throw invalidParams(`Prompt ${prompt.name}: argument ${key} must be a string`);
      Object.defineProperty(args, key, { value, enumerable: true, writable: true, configurable: true });
    }
    const missing = (prompt.arguments ?? []).filter((a) => a.required === true && !Object.hasOwn(args, a.name)).map((a) => a.name);
    if (missing.length > 0) throw invalidParams(`Prompt ${prompt.name}: missing required argument${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`);
    const value = await prompt.get(args, ctx);
    const messages: PromptMessage[] = Array.isArray(value) ? value : value.messages;
    const result: JsonObject = { messages };
    if (!Array.isArray(value) && value.description !== undefined) result["description"] = value.description;
    else if (prompt.description !== undefined) result["description"] = prompt.description;
    return result;
  }
}
