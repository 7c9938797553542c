/** The transport-level checks of a POST: media types, header whitespace, bounded JSON parsing. */

import type { HeaderReader } from "../../core/era.ts";
import { ErrorCode, ProtocolError, invalidRequest } from "../../core/errors.ts";
import { jsonDepthExceeds } from "../../core/json.ts";

const OWS = /^[ \t]+|[ \t]+$/g;

/** Strips optional whitespace (space, tab) around a header value; most values have none. */
function trimOws(value: string | null): string | null {
  if (value === null || value === "") return value;
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  return first === 32 || first === 9 || last === 32 || last === 9 ? value.replace(OWS, "") : value;
}

/**
 * Reads request headers without optional whitespace around the value (RFC 9110 §5.5); values
 * that need leading or trailing spaces travel base64-encoded (2026-07-28 "Value encoding").
 */
export function headerReader(headers: Headers): HeaderReader {
  return (name) => trimOws(headers.get(name));
}

function mediaTypes(header: string | null): string[] {
  if (header === null) return [];
  return header.split(",").map((part) => (part.split(";")[0] ?? "").trim().toLowerCase());
}

// What the official clients send: accepted without parsing (the common case on the hot path).
const USUAL_ACCEPT = new Set(["application/json, text/event-stream", "text/event-stream, application/json"]);

/**
 * Throws 406 unless the client accepts both JSON and SSE answers. Takes the request's headers, read
 * once by the caller: each `request.headers` is a call into the runtime.
 */
export function checkAccept(headers: Headers): void {
  const accept = headers.get("accept");
  if (accept !== null && USUAL_ACCEPT.has(accept)) return;
  const types = mediaTypes(accept);
  const json = types.some((t) => t === "application/json" || t === "application/*" || t === "*/*");
  const sse = types.some((t) => t === "text/event-stream" || t === "text/*" || t === "*/*");
  if (!json || !sse) {
    throw new ProtocolError(ErrorCode.InvalidRequest, `Not Acceptable: the Accept header must list both application/json and text/event-stream`, {
      status: 406,
    });
  }
}

/** Throws 406 unless the client accepts an SSE stream (a session's GET opens one: 2025-11-25 transports, "Listening for Messages"). */
export function checkAcceptsStream(request: Request): void {
  if (!mediaTypes(request.headers.get("accept")).some((t) => t === "text/event-stream" || t === "text/*" || t === "*/*")) {
    throw new ProtocolError(ErrorCode.InvalidRequest, `Not Acceptable: a GET opens an SSE stream, so the Accept header must list text/event-stream`, {
      status: 406,
    });
  }
}

/** Throws 415 unless the body is declared as JSON in UTF-8 (`headers`: the request's). */
export function checkContentType(headers: Headers): void {
  const header = headers.get("content-type");
  if (header === "application/json") return;
  const [type = "", ...parameters] = (header ?? "").split(";").map((part) => part.trim().toLowerCase());
  const charset = parameters
    .find((p) => p.startsWith("charset="))
    ?.slice("charset=".length)
    .replaceAll('"', "");
  if (type !== "application/json" || (charset !== undefined && charset !== "utf-8" && charset !== "utf8")) {
    throw new ProtocolError(
      ErrorCode.InvalidRequest,
      `Unsupported Media Type: send the JSON-RPC message as application/json (UTF-8); received ${header === null ? "no Content-Type" : `'${header}'`}`,
      { status: 415 },
    );
  }
}

/** Parses a body after checking its nesting depth; throws 400 -32600 (too deep) or -32700 (not JSON). */
export function parseJson(text: string, maxDepth: number): unknown {
  if (jsonDepthExceeds(text, maxDepth)) throw invalidRequest(`The JSON body is nested deeper than the limit of ${maxDepth} levels`);
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = error instanceof SyntaxError ? `: ${error.message}` : "";
    throw new ProtocolError(ErrorCode.ParseError, `Parse error: the body is not valid JSON${detail}`, { status: 400 });
  }
}
