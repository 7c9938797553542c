/** `completion/complete`: suggestions for prompt arguments and resource template variables. */

import { invalidParams } from "../../core/errors.ts";
import { isObject, own } from "../../core/json.ts";
import type { Params } from "../../core/jsonrpc.ts";
import type { JsonObject } from "../../core/types.ts";
import type { HandlerContext } from "../context/handler-context.ts";
import type { Completer, CompletionSource } from "./completion-source.ts";

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
export async function complete(params: Params | undefined, sources: readonly CompletionSource[], ctx: () => HandlerContext): Promise<JsonObject> {
  const ref = params ? own(params, "ref") : undefined;
  const argument = params ? own(params, "argument") : undefined;
  if (!isObject(ref)) throw invalidParams(`completion/complete needs params.ref: {"type":"ref/prompt","name":…} or {"type":"ref/resource","uri":…}`);
  if (!isObject(argument) || typeof argument["name"] !== "string" || typeof argument["value"] !== "string") {
    throw invalidParams(`completion/complete needs params.argument: {"name": string, "value": string}`);
  }
  const type = ref["type"];
  if (type === "ref/resource" && typeof ref["uri"] !== "string") throw invalidParams(`ref/resource needs a uri (a resource template)`);
  const source = sources.find((candidate) => candidate.ref === type);
  if (!source) {
    if (type === "ref/prompt") throw invalidParams(`Unknown prompt: ${String(ref["name"])}`);
    if (type === "ref/resource") throw invalidParams(`Unknown resource template: ${String(ref["uri"])}`);
    throw invalidParams(`Unknown completion reference type ${JSON.stringify(type)}: use "ref/prompt" or "ref/resource"`);
  }
  const completer: Completer | undefined = source.completer(ref, argument["name"]);
  const context = params ? own(params, "context") : undefined;
  const values = completer ? await completer(argument["value"], { arguments: stringRecord(isObject(context) ? context["arguments"] : undefined) }, ctx()) : [];
  const strings = values.filter((v) => typeof v === "string");
  return { completion: { values: strings.slice(0, MAX_VALUES), total: strings.length, hasMore: strings.length > MAX_VALUES } };
}
