/** JSON-RPC 2.0 message shapes and the classification of one inbound message. */

import { ErrorCode, ProtocolError, invalidRequest } from "./errors.ts";
import { isObject, own } from "./json.ts";

export type RequestId = string | number;

export type Params = Record<string, unknown>;

export interface InboundRequest {
  kind: "request";
  id: RequestId;
  method: string;
  params: Params | undefined;
}

export interface InboundNotification {
  kind: "notification";
  method: string;
  params: Params | undefined;
}

export interface InboundResponse {
  kind: "response";
  id: RequestId;
  result: unknown;
  error: unknown;
}

export type InboundMessage = InboundRequest | InboundNotification | InboundResponse;

/** The error member of a JSON-RPC error response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

function readId(value: unknown): RequestId | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  return undefined;
}

/**
 * Classifies a parsed JSON body as a request, notification or response. Throws a
 * {@link ProtocolError} (-32600, HTTP 400) naming what is wrong; the error carries the
 * message id in `requestId` when it could be read, so the error response can echo it.
 */
export function classifyMessage(body: unknown): InboundMessage {
  if (Array.isArray(body)) {
    throw invalidRequest("Batch requests are not supported: send one JSON-RPC message per POST (batching was removed in MCP 2025-06-18)");
  }
  if (!isObject(body)) {
    throw invalidRequest(`The body must be a JSON-RPC message object; received ${body === null ? "null" : typeof body}`);
  }
  const rawId = own(body, "id");
  const id = readId(rawId);
  const fail = (message: string): never => {
    throw new ProtocolError(ErrorCode.InvalidRequest, message, id === undefined ? { status: 400 } : { status: 400, requestId: id });
  };
  if (own(body, "jsonrpc") !== "2.0") fail(`"jsonrpc" must be "2.0"; received ${JSON.stringify(own(body, "jsonrpc")) ?? "nothing"}`);

  const method = own(body, "method");
  if (method !== undefined) {
    if (typeof method !== "string" || method.length === 0) fail(`"method" must be a non-empty string`);
    const params = own(body, "params");
    if (params !== undefined && !isObject(params)) fail(`"params" must be an object when present`);
    if (rawId === undefined) {
      return { kind: "notification", method: method as string, params: params as Params | undefined };
    }
    if (id === undefined) fail(`"id" must be a string or an integer; received ${JSON.stringify(rawId)}`);
    return { kind: "request", id: id as RequestId, method: method as string, params: params as Params | undefined };
  }

  const hasResult = Object.hasOwn(body, "result");
  const hasError = Object.hasOwn(body, "error");
  if ((hasResult || hasError) && id !== undefined) {
    return { kind: "response", id, result: own(body, "result"), error: own(body, "error") };
  }
  return fail(`A JSON-RPC message needs "method" (request or notification) or "result"/"error" with an "id" (response)`);
}
