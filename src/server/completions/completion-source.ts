/** What the completions feature completes: sources that other features (prompts, resources) provide through its key. */

import type { JsonObject } from "../../core/types.ts";
import type { HandlerContext } from "../context/handler-context.ts";
import { serviceKey } from "../feature.ts";

/**
 * Suggests values for one argument or template variable (`completion/complete`): `context` holds the
 * arguments given so far, `ctx` the request's handler context (`ctx.env`, the caller); it cannot ask the user anything.
 */
export type Completer = (value: string, context: { arguments: Record<string, string> }, ctx: HandlerContext) => string[] | Promise<string[]>;

/** The things of one reference type (`ref/prompt`, `ref/resource`) whose arguments a feature completes. */
export interface CompletionSource {
  /** The reference type it answers, such as `ref/prompt`. */
  readonly ref: string;
  /** How many things it has: a server whose sources have none offers no completions. */
  readonly size: number;
  /** The completer of argument `name` of what `ref` names (undefined: no suggestions); throws -32602 for an unknown thing or argument. */
  completer(ref: JsonObject, name: string): Completer | undefined;
}

/** The completions feature's key: prompts and resources provide their sources to it. */
export const COMPLETION_SOURCES = serviceKey<CompletionSource>("completion sources");
