/** The request span's first attributes. */

import type { Attributes } from "@opentelemetry/api";

/** The request span's first attributes: admission's outcome, and the MCP method (or, for a stream, the HTTP method). */
export function rootAttributes(outcome: string, stream: boolean, verb: string, method: string | undefined): Attributes {
  const attributes: Attributes = { "edge_mcp.admission": outcome };
  if (stream) attributes["http.request.method"] = verb;
  else if (method !== undefined) attributes["mcp.method.name"] = method;
  return attributes;
}
