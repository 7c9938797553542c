/** Inputs a handler asks of the client (elicitation, sampling, roots) and how each era answers them. */

import { ErrorCode, ProtocolError } from "../../core/errors.ts";
import { isObject } from "../../core/json.ts";
import type { JsonObject } from "../../core/types.ts";

export type ElicitParams =
  { mode?: "form"; message: string; requestedSchema: JsonObject } | { mode: "url"; message: string; url: string; elicitationId?: string };

export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
}

export interface CreateMessageParams {
  messages: { role: "user" | "assistant"; content: JsonObject | JsonObject[] }[];
  maxTokens: number;
  [key: string]: unknown;
}

export interface CreateMessageResult {
  role: "user" | "assistant";
  content: JsonObject | JsonObject[];
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

export interface ListRootsResult {
  roots: { uri: string; name?: string }[];
}

/** One server→client request, as it appears in `inputRequests` (no jsonrpc/id). */
export type InputRequest =
  | { method: "elicitation/create"; params: ElicitParams }
  | { method: "sampling/createMessage"; params: CreateMessageParams }
  | { method: "roots/list"; params?: JsonObject };

/**
 * Thrown (internally) when a handler needs answers the client has not given yet; the server turns
 * it into an `input_required` result. Handlers never see it unless they catch everything: rethrow it.
 */
export class InputRequired extends Error {
  override readonly name = "InputRequired";
  readonly code = "ERR_INPUT_REQUIRED";

  constructor(readonly requests: Readonly<Record<string, InputRequest>>) {
    super(`input required: ${Object.keys(requests).join(", ")}`);
  }
}

/** How one request obtains answers to input requests. */
export interface InputChannel {
  /** Resolves with an answer for every key, or throws {@link InputRequired} / a {@link ProtocolError}. */
  request(requests: Readonly<Record<string, InputRequest>>): Promise<Record<string, unknown>>;
}

/** The client capability an input request needs, in `requiredCapabilities` shape. */
export function requiredCapability(request: InputRequest): JsonObject {
  switch (request.method) {
    case "elicitation/create":
      return { elicitation: request.params.mode === "url" ? { url: {} } : {} };
    case "sampling/createMessage":
      return { sampling: {} };
    case "roots/list":
      return { roots: {} };
  }
}

/** True when the declared client capabilities allow the request (2025-11-25 elicitation: `{}` means form only). */
export function clientSupports(capabilities: JsonObject, request: InputRequest): boolean {
  switch (request.method) {
    case "elicitation/create": {
      const elicitation = capabilities["elicitation"];
      if (!isObject(elicitation)) return false;
      if (request.params.mode === "url") return isObject(elicitation["url"]);
      return isObject(elicitation["form"]) || !isObject(elicitation["url"]);
    }
    case "sampling/createMessage":
      return isObject(capabilities["sampling"]);
    case "roots/list":
      return isObject(capabilities["roots"]);
  }
}

/** Throws -32021 (HTTP 400) naming every capability the client lacks for these requests. */
export function checkCapabilities(capabilities: JsonObject, requests: Readonly<Record<string, InputRequest>>): void {
  const missing: JsonObject = {};
  for (const request of Object.values(requests)) {
    if (!clientSupports(capabilities, request)) Object.assign(missing, requiredCapability(request));
  }
  const names = Object.keys(missing);
  if (names.length > 0) {
    throw new ProtocolError(ErrorCode.MissingRequiredClientCapability, `Server requires the ${names.join(" and ")} capability for this request`, {
      status: 400,
      data: { requiredCapabilities: missing },
    });
  }
}
