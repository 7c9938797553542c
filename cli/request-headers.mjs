// The HTTP headers a Streamable HTTP client sends with one JSON-RPC message, for either protocol era.

import { isObject } from "./is-object.mjs";

export const MODERN_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";

const SAFE_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
const SENTINEL = "=?base64?";

/** The body field each method mirrors in `Mcp-Name` (2026-07-28 Streamable HTTP, standard headers; tasks extension); test/unit/cli/shared-tables.test.ts checks it against src/core/era.ts. */
export const NAME_FIELD = new Map([
  ["tools/call", "name"],
  ["prompts/get", "name"],
  ["resources/read", "uri"],
  ["tasks/get", "taskId"],
  ["tasks/update", "taskId"],
  ["tasks/cancel", "taskId"],
]);

/**
 * A header value as 2026-07-28 "Value encoding" wants it: plain when it is visible ASCII without
 * leading or trailing spaces, otherwise `=?base64?…?=` of its UTF-8 bytes.
 * @param {string} value
 * @returns {string}
 */
export function encodeHeaderValue(value) {
  if (value === "" || (SAFE_VALUE.test(value) && !value.startsWith(SENTINEL))) return value;
  return `${SENTINEL}${Buffer.from(value, "utf8").toString("base64")}?=`;
}

/**
 * The 2026-07-28 protocol version a message names in `params._meta`, if it names one.
 * @param {Record<string, unknown>} message
 * @returns {string | undefined}
 */
export function modernVersionOf(message) {
  const params = message["params"];
  const meta = isObject(params) ? params["_meta"] : undefined;
  const version = isObject(meta) ? meta[MODERN_VERSION_KEY] : undefined;
  return typeof version === "string" ? version : undefined;
}

/**
 * The standard 2026-07-28 request-metadata headers of a message (`MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name`); `Mcp-Param-*` headers come from the tool's schema (see
 * ToolHeaderParams).
 * @param {Record<string, unknown>} message
 * @param {string} version
 * @returns {Record<string, string>}
 */
export function modernHeaders(message, version) {
  /** @type {Record<string, string>} */
  const headers = { "mcp-protocol-version": version };
  const method = message["method"];
  if (typeof method !== "string") return headers;
  headers["mcp-method"] = encodeHeaderValue(method);
  const field = NAME_FIELD.get(method);
  const params = message["params"];
  const name = field !== undefined && isObject(params) ? params[field] : undefined;
  if (typeof name === "string") headers["mcp-name"] = encodeHeaderValue(name);
  return headers;
}
