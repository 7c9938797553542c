/** The one place that turns results and errors into HTTP responses with JSON-RPC bodies. */

import { ErrorCode, ProtocolError } from "../core/errors.ts";
import type { RequestId } from "../core/jsonrpc.ts";
import { RawResult, type MethodResult } from "../server/raw-result.ts";

export const JSON_CONTENT_TYPE = "application/json";

/** Serialises a JSON-RPC success response; pre-serialised results are spliced in as they are. */
export function resultMessage(id: RequestId, result: MethodResult): string {
  const body = result instanceof RawResult ? result.json : JSON.stringify(result);
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${body}}`;
}

/** Serialises a JSON-RPC error response; `id` is null when it could not be read (JSON-RPC 2.0 §5: always present). */
export function errorMessage(error: ProtocolError, id: RequestId | undefined): string {
  return JSON.stringify({ jsonrpc: "2.0", id: id ?? error.requestId ?? null, error: error.toJSON() });
}

/**
 * Maps anything thrown to a {@link ProtocolError}. Unknown errors become -32603 with a generic
 * message (HTTP 500); their details go to the log only, never to the client.
 */
export function toProtocolError(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  console.error("edge-mcp: internal error", error);
  return new ProtocolError(ErrorCode.InternalError, "Internal error", { status: 500, cause: error });
}

/** A JSON response; a plain 200 (most answers) is built without an init object, which workerd converts at a cost. */
export function jsonResponse(body: string, status = 200, headers?: Record<string, string>): Response {
  if (status !== 200 || headers !== undefined) return new Response(body, { status, headers: { "content-type": JSON_CONTENT_TYPE, ...headers } });
  const response = new Response(body);
  // Replaces the text/plain type a string body gets.
  response.headers.set("content-type", JSON_CONTENT_TYPE);
  return response;
}

export function errorResponse(error: unknown, id?: RequestId, headers?: Record<string, string>): Response {
  const protocolError = toProtocolError(error);
  return jsonResponse(errorMessage(protocolError, id), protocolError.status, protocolError.headers ? { ...protocolError.headers, ...headers } : headers);
}
