/** JSON-RPC error codes and the protocol error class: errors that are safe to send on the wire. */

/** JSON-RPC and MCP error codes (2025-11-25 §B.16, 2026-07-28 "Error Codes"). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** 2025 only: resource not found. 2026 uses InvalidParams with `data.uri`. */
  ResourceNotFound: -32002,
  /** 2026-07-28: an HTTP header disagrees with the body, or a required one is missing. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability the client did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the protocol version is not one this server speaks. */
  UnsupportedProtocolVersion: -32022,
  /** edge-mcp: a rate limit was reached (HTTP 429). Outside the reserved JSON-RPC range. */
  RateLimited: -31429,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface ProtocolErrorOptions {
  /** Extra data sent in `error.data`. Must be safe to show to the client. */
  data?: unknown;
  /** HTTP status for the response carrying this error; 200 when omitted. */
  status?: number;
  /** Extra HTTP response headers (Retry-After, WWW-Authenticate, Allow). */
  headers?: Record<string, string>;
  /** The id of the request being answered, when the error was raised before it was known to the caller. */
  requestId?: string | number;
  cause?: unknown;
}

/**
 * An error that becomes a JSON-RPC error response. Its message and data are sent to the client,
 * so they must say what was wrong and never contain secrets.
 *
 * Throw it from a tool handler to answer with a JSON-RPC error instead of an `isError` result.
 */
export class ProtocolError extends Error {
  override readonly name = "ProtocolError";
  readonly code: number;
  readonly data: unknown;
  readonly status: number;
  readonly requestId: string | number | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: number, message: string, options: ProtocolErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.data = options.data;
    this.status = options.status ?? 200;
    this.requestId = options.requestId;
    this.headers = options.headers;
  }

  /** The `error` member of a JSON-RPC response. */
  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

/** Shorthand for a -32602 error. */
export function invalidParams(message: string, options?: ProtocolErrorOptions): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, message, options);
}

/** Shorthand for a -32600 error answered with HTTP 400. */
export function invalidRequest(message: string, data?: unknown): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidRequest, message, data === undefined ? { status: 400 } : { status: 400, data });
}
