/** Runs a handler that may ask for input: MRTR in 2026-07-28, a clear failure in stateless 2025-11-25. */

import { invalidParams } from "../../core/errors.ts";
import { isObject, own } from "../../core/json.ts";
import type { InboundRequest } from "../../core/jsonrpc.ts";
import type { JsonObject } from "../../core/types.ts";
import { isValidAnswer } from "./input-answer.ts";
import { InputRequired, checkCapabilities, type InputChannel, type InputRequest } from "./input.ts";
import type { TransportContext } from "../context/transport.ts";
import type { StateBinding } from "../state/request-state.ts";

const NO_ANSWERS: Record<string, unknown> = Object.freeze({});

/** A 2025 request without a session cannot receive server→client requests. */
const STATELESS_LEGACY: InputChannel = {
  request(requests) {
    const methods = [...new Set(Object.values(requests).map((r) => r.method))].join(", ");
    throw new Error(
      `it needs the client to answer ${methods}, which a 2025-era client can only receive in a session, and this server runs without sessions. ` +
        "Connect with a 2026-07-28 client, or enable legacy sessions on the server.",
    );
  },
};

/**
 * Runs `run` with an input channel for the request's era. Under 2026-07-28 an unanswered input
 * ends the run with `{resultType: "input_required", inputRequests, requestState}`; the retry
 * carries `inputResponses` and the signed `requestState`, and the handler runs again.
 */
export function withInputs(
  request: InboundRequest,
  transport: TransportContext,
  binding: Omit<StateBinding, "scope">,
  run: (inputs: InputChannel) => Promise<JsonObject>,
): Promise<JsonObject> {
  if (transport.era !== "modern") {
    // 2025: the run's own promise (no async wrapper to wait through); a synchronous throw rejects it all the same.
    try {
      return run(transport.inputs ?? STATELESS_LEGACY);
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return withModernInputs(request, transport, binding, run);
}

async function withModernInputs(
  request: InboundRequest,
  transport: TransportContext,
  binding: Omit<StateBinding, "scope">,
  run: (inputs: InputChannel) => Promise<JsonObject>,
): Promise<JsonObject> {
  const params = request.params ?? {};
  const responses = own(params, "inputResponses");
  if (responses !== undefined && !isObject(responses)) throw invalidParams(`params.inputResponses must be an object keyed by the inputRequests keys`);
  const token = own(params, "requestState");
  if (token !== undefined && typeof token !== "string") throw invalidParams(`params.requestState must be the string from the previous input_required result`);
  // Built when state is opened or sealed only: most calls do neither.
  const fullBinding = (): StateBinding => ({ ...binding, scope: transport.admission.caller });
  // Most calls carry neither: then no state is opened and no answers are merged.
  const answers: Record<string, unknown> =
    token === undefined ? (responses ?? NO_ANSWERS) : { ...(await transport.endpoint.sealer.open(token, fullBinding())), ...(responses ?? {}) };
  const used: Record<string, unknown> = {};

  const inputs: InputChannel = {
    async request(requests) {
      checkCapabilities(transport.clientCapabilities, requests);
      const missing: Record<string, InputRequest> = {};
      const found: Record<string, unknown> = {};
      for (const [key, input] of Object.entries(requests)) {
        const answer = Object.hasOwn(answers, key) ? answers[key] : undefined;
        if (isValidAnswer(input, answer)) {
          found[key] = answer;
          used[key] = answer;
        } else {
          missing[key] = input;
        }
      }
      if (Object.keys(missing).length > 0) throw new InputRequired(missing);
      return found;
    },
  };

  try {
    return await run(inputs);
  } catch (error) {
    if (!(error instanceof InputRequired)) throw error;
    return { resultType: "input_required", inputRequests: error.requests, requestState: await transport.endpoint.sealer.seal(fullBinding(), used) };
  }
}
