/** `completion/complete`: suggestions for prompt arguments and resource template variables. */

import { invalidParams } from "../../core/errors.ts";
import { isObject, own } from "../../core/json.ts";
import type { Params } from "../../core/jsonrpc.ts";
import type { JsonObject } from "../../core/types.ts";
import type { PromptRegistry } from "../prompts/prompt-registry.ts";
import type { Completer } from "../resources/resource.ts";
import type { ResourceRegistry } from "../resources/resource-registry.ts";

const MAX_VALUES = 100;

function stringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(value)) return out;
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === "string") Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Answers `completion/complete`; throws -32602 for a malformed request or an unknown prompt or template. */
export async function complete(params: Params | undefined, prompts: PromptRegistry | undefined, resources: ResourceRegistry | undefined): Promise<JsonObject> {
  const ref = params ? own(params, "ref") : undefined;
  const argument = params ? own(params, "argument") : undefined;
  if (!isObject(ref)) throw invalidParams(`completion/complete needs params.ref: {"type":"ref/prompt","name":…} or {"type":"ref/resource","uri":…}`);
  if (!isObject(argument) || typeof argument["name"] !== "string" || typeof argument["value"] !== "string") {
    throw invalidParams(`completion/complete needs params.argument: {"name": string, "value": string}`);
  }
  const name = argument["name"];
  let completer: Completer | undefined;
  if (ref["type"] === "ref/prompt") {
    if (!prompts) throw invalidParams(`Unknown prompt: ${String(ref["name"])}`);
    const prompt = prompts.resolve(ref["name"]);
    if (!(prompt.arguments ?? []).some((a) => a.name === name)) throw invalidParams(`Prompt ${prompt.name} has no argument ${name}`);
    completer = prompt.complete && Object.hasOwn(prompt.complete, name) ? prompt.complete[name] : undefined;
  } else if (ref["type"] === "ref/resource") {
    const uri = ref["uri"];
    if (typeof uri !== "string") throw invalidParams(`ref/resource needs a uri (a resource template)`);
    const template = resources?.template(uri);
    if (!template) throw invalidParams(`Unknown resource template: ${uri}`);
    completer = template.complete && Object.hasOwn(template.complete, name) ? template.complete[name] : undefined;
  } else {
    throw invalidParams(`Unknown completion reference type ${JSON.stringify(ref["type"])}: use "ref/prompt" or "ref/resource"`);
  }
  const context = params ? own(params, "context") : undefined;
  const values = completer ? await completer(argument["value"], { arguments: stringRecord(isObject(context) ? context["arguments"] : undefined) }) : [];
  const strings = values.filter((v) => typeof v === "string");
  return { completion: { values: strings.slice(0, MAX_VALUES), total: strings.length, hasMore: strings.length > MAX_VALUES } };
}
