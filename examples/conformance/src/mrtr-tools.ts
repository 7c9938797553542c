/**
 * Tools for the 14 `input-required-result-*` scenarios (SEP-2322, multi round-trip requests).
 *
 * Each handler simply asks for what it needs (`ctx.elicit`, `ctx.sample`, `ctx.listRoots`,
 * `ctx.input`). Under 2026-07-28 the runtime turns an unanswered question into
 * `{resultType: "input_required", inputRequests, requestState}` and re-runs the handler from the
 * start when the client retries with `inputResponses`; answers already given ride along in the
 * signed `requestState`. The keys are fixed because the suite looks some of them up by name
 * (`user_name`), and because they must be the same on every rerun.
 */

import { defineTool, type ElicitParams, type InputRequest } from "edge-mcp";
import { NO_ARGS, acceptedField, sampledText } from "./content.ts";

function textForm(message: string, field: string, type: "string" | "boolean" = "string"): ElicitParams {
  return { message, requestedSchema: { type: "object", properties: { [field]: { type } }, required: [field] } };
}

const ASK_NAME = textForm("What is your name?", "name");

/** basic-elicitation, missing-input-response, result-type, ignore-extra-params, validate-input. */
export const inputElicitation = defineTool({
  name: "test_input_required_result_elicitation",
  description: "Asks the user for their name (input_required with elicitation/create under key user_name), then greets them.",
  inputSchema: NO_ARGS,
  handler: async (_args, ctx) => {
    const answer = await ctx.elicit(ASK_NAME, { key: "user_name" });
    const name = acceptedField(answer, "name");
    return name === undefined ? `No name given (action: ${answer.action}).` : `Hello, ${name}!`;
  },
});

/** basic-sampling. */
export const inputSampling = defineTool({
  name: "test_input_required_result_sampling",
  description: "Asks the client's model a question (input_required with sampling/createMessage), then returns its answer.",
  inputSchema: NO_ARGS,
  handler: async (_args, ctx) => {
    const answer = await ctx.sample(
      { messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }], maxTokens: 100 },
      { key: "capital_question" },
    );
    return `The model answered: ${sampledText(answer)}`;
  },
});

/** basic-list-roots. */
export const inputListRoots = defineTool({
  name: "test_input_required_result_list_roots",
  description: "Asks the client for its roots (input_required with roots/list), then lists them.",
  inputSchema: NO_ARGS,
  handler: async (_args, ctx) => {
    const { roots } = await ctx.listRoots({ key: "client_roots" });
    return `The client has ${roots.length} root(s): ${roots.map((root) => root.uri).join(", ") || "none"}`;
  },
});

/** request-state: the first round returns a (signed) requestState that the retry echoes. */
export const inputRequestState = defineTool({
  name: "test_input_required_result_request_state",
  description: "Asks the user to confirm (key confirm, {ok: boolean}); the retry must echo the requestState it was given.",
  inputSchema: NO_ARGS,
  handler: async (_args, ctx) => {
    const answer = await ctx.elicit(textForm("Please confirm", "ok", "boolean"), { key: "confirm" });
    return acceptedField(answer, "ok") === "true" ? "state-ok: confirmed" : `not confirmed (action: ${answer.action})`;
  },
});

/** multiple-input-requests: elicitation, sampling and roots asked in one round. */
export const inputMultiple = defineTool({
  name: "test_input_required_result_multiple_inputs",
  description: "Asks for a name, a sampled greeting and the client's roots in one input_required result.",
  inputSchema: NO_ARGS,
  handler: async (_args, ctx) => {
    const answers = await ctx.input({
      user_name: { method: "elicitation/create", params: ASK_NAME },
      greeting: {
        method: "sampling/createMessage",
        params: { messages: [{ role: "user", content: { type: "text", text: "Write a short greeting." } }], maxTokens: 50 },
      },
      client_roots: { method: "roots/list", params: {} },
    });
    const name = acceptedField(answers["user_name"] as { action: string; content?: Record<string, unknown> }, "name") ?? "friend";
    const greeting = sampledText(answers["greeting"] as { content: unknown });
    const roots = (answers["client_roots"] as { roots: unknown[] }).roots;
    return `Name: ${name}; greeting: ${greeting}; roots: ${roots.length}`;
  },
});

/** multi-round: two questions asked one after the other, so the second round has a new requestState. */
export const inputMultiRound = defineTool({
  name: "test_input_required_result_multi_round",
  description: "Asks for a name, then (in a second round) a favourite colour, then answers.",
  inputSchema: NO_ARGS,
  handler: async (_args, ctx) => {
    const first = await ctx.elicit(textForm("Step 1: what is your name?", "name"), { key: "step1" });
    const second = await ctx.elicit(textForm("Step 2: what is your favourite colour?", "color"), { key: "step2" });
    return `Multi-round complete: ${acceptedField(first, "name") ?? "someone"} likes ${acceptedField(second, "color") ?? "no colour"}`;
  },
});

/** tampered-state: a retry whose requestState was altered is refused with -32602 by the runtime. */
export const inputTamperedState = defineTool({
  name: "test_input_required_result_tampered_state",
  description: "Asks the user to confirm; its signed requestState is refused (-32602) if the client alters it.",
  inputSchema: NO_ARGS,
  handler: async (_args, ctx) => {
    const answer = await ctx.elicit(textForm("Please confirm", "ok", "boolean"), { key: "confirm" });
    return `integrity-ok: state verified (action: ${answer.action})`;
  },
});

/** capability-check: asks only for what the client declared (sampling-only clients get no elicitation). */
export const inputCapabilities = defineTool({
  name: "test_input_required_result_capabilities",
  description: "Asks for input only through the capabilities the client declared (elicitation and/or sampling).",
  inputSchema: NO_ARGS,
  handler: async (_args, ctx) => {
    const requests: Record<string, InputRequest> = {};
    if (ctx.clientCapabilities["elicitation"] !== undefined) {
      requests["elicit_input"] = { method: "elicitation/create", params: textForm("Enter any value", "value") };
    }
    if (ctx.clientCapabilities["sampling"] !== undefined) {
      requests["sample_input"] = {
        method: "sampling/createMessage",
        params: { messages: [{ role: "user", content: { type: "text", text: "Reply with any text." } }], maxTokens: 50 },
      };
    }
    if (Object.keys(requests).length === 0) return "The client declared neither elicitation nor sampling; nothing to ask.";
    const answers = await ctx.input(requests);
    return `capabilities-ok: received ${Object.keys(answers).join(", ")}`;
  },
});

export const mrtrTools = [
  inputElicitation,
  inputSampling,
  inputListRoots,
  inputRequestState,
  inputMultiple,
  inputMultiRound,
  inputTamperedState,
  inputCapabilities,
];
