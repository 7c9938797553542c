/** Runs a handler that may ask for input: MRTR in 2026-07-28, a clear failure in stateless 2025-11-25. */

import { ToolError } from "../../core/tool-error.ts";
import { invalidParams } from "../../core/errors.ts";
import { isObject, own } from "../../core/json.ts";
import type { InboundRequest } from "../../core/jsonrpc.ts";
import type { JsonObject } from "../../core/types.ts";
import { isValidAnswer } from "./input-answer.ts";
import { InputRequired, checkCapabilities, type InputChannel, type InputRequest } from "./input.ts";
import type { TransportContext } from "../context/transport.ts";
import type { StateBinding } from "../state/request-state.ts";
import { DORMANT } from "../../core/shape-anchor.ts";

const NO_ANSWERS: Record<string, unknown> = Object.freeze({});

/** A 2025 request without a session cannot receive server→client requests. */
const STATELESS_LEGACY: InputChannel = {
  request(requests) {
    const methods = [...new Set(Object.values(requests).map((r) => r.method))].join(", ");
    throw new ToolError(
      `it needs the client to answer ${methods}, which a 2025-era client can only receive in a session, and this server runs without sessions. ` +
        "Connect with a 2026-07-28 client, or enable legacy sessions on the server.",
    );
  },
};

/**
 * Runs `run` with an input channel for the request's era. Under 2026-07-28 an unanswered input
 * ends the run with `{resultType: "input_required", inputRequests, requestState}`; the retry
 * carries `inputResponses` and the signed `requestState`, and the handler runs again. A run that
 * answers without a promise is answered without one (most calls ask for no input).
 */
export function withInputs(
  request: InboundRequest,
  transport: TransportContext,
  binding: Omit<StateBinding, "scope">,
  run: (inputs: InputChannel) => JsonObject | Promise<JsonObject>,
): JsonObject | Promise<JsonObject> {
  // 2025: the run's own answer (no wrapper to wait through).
  if (transport.era !== "modern") return run(transport.inputs ?? STATELESS_LEGACY);
  const params = request.params ?? NO_ANSWERS;
  const responses = own(params, "inputResponses");
  if (responses !== undefined && !isObject(responses)) throw invalidParams(`params.inputResponses must be an object keyed by the inputRequests keys`);
  const token = own(params, "requestState");
  if (token !== undefined && typeof token !== "string") throw invalidParams(`params.requestState must be the string from the previous input_required result`);
  const inputs = new ModernInputs(transport, binding, responses ?? NO_ANSWERS);
  // Most calls carry no state: then none is opened and no answers are merged.
  if (token === undefined) return inputs.run(run);
  return transport.endpoint.sealer.open(token, inputs.binding()).then((opened) => {
    inputs.answers = { ...opened, ...(responses ?? {}) };
    return inputs.run(run);
  });
}

/** A 2026-07-28 request's input channel: the answers it carries, and those its handler used (sealed into the next requestState). */
class ModernInputs implements InputChannel {
  #used: Record<string, unknown> | undefined;

  constructor(
    readonly transport: TransportContext,
    readonly stateBinding: Omit<StateBinding, "scope">,
    public answers: Record<string, unknown>,
  ) {}

  /** A dormant channel, kept for good so that the class's hidden class outlives a major GC (core/shape-anchor.ts). */
  static readonly dormant = new ModernInputs(DORMANT, DORMANT, NO_ANSWERS);

  /** What request state is bound to: built when state is opened or sealed only (most calls do neither). */
  binding(): StateBinding {
    return { ...this.stateBinding, scope: this.transport.admission.caller };
  }

  /** Runs the handler; an unanswered input becomes the `input_required` result. */
  run(run: (inputs: InputChannel) => JsonObject | Promise<JsonObject>): JsonObject | Promise<JsonObject> {
    let pending: JsonObject | Promise<JsonObject>;
    try {
      pending = run(this);
    } catch (error) {
      return this.#inputRequired(error);
    }
    return pending instanceof Promise ? pending.then(undefined, (error: unknown) => this.#inputRequired(error)) : pending;
  }

  async request(requests: Readonly<Record<string, InputRequest>>): Promise<Record<string, unknown>> {
    checkCapabilities(this.transport.clientCapabilities, requests);
    const missing: Record<string, InputRequest> = {};
    const found: Record<string, unknown> = {};
    const used = (this.#used ??= {});
    for (const [key, input] of Object.entries(requests)) {
      const answer = Object.hasOwn(this.answers, key) ? this.answers[key] : undefined;
      if (isValidAnswer(input, answer)) {
        found[key] = answer;
        used[key] = answer;
      } else {
        missing[key] = input;
      }
    }
    if (Object.keys(missing).length > 0) throw new InputRequired(missing);
    return found;
  }

  async #inputRequired(error: unknown): Promise<JsonObject> {
    if (!(error instanceof InputRequired)) throw error;
    return {
      resultType: "input_required",
      inputRequests: error.requests,
      requestState: await this.transport.endpoint.sealer.seal(this.binding(), this.#used ?? {}),
    };
  }
}
