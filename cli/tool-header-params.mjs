// What each tool mirrors in `Mcp-Param-*` headers (2026-07-28 `x-mcp-header`), learned from tools/list results.

import { isObject } from "./is-object.mjs";
import { encodeHeaderValue } from "./request-headers.mjs";

// Both checked against src/core/names.ts by test/unit/cli/shared-tables.test.ts.
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
export const HEADER_TYPES = new Set(["string", "integer", "boolean"]);

/** @typedef {{ header: string, path: string[] }} HeaderParam */

/**
 * @param {Record<string, unknown>} schema
 * @param {string[]} path
 * @param {HeaderParam[]} found
 */
function collect(schema, path, found) {
  const properties = schema["properties"];
  if (!isObject(properties)) return;
  for (const [key, child] of Object.entries(properties)) {
    if (!isObject(child)) continue;
    const childPath = [...path, key];
    const name = child["x-mcp-header"];
    // Marks the spec forbids (not a token, not a primitive) are left out: the server refuses such tools anyway.
    if (typeof name === "string" && TOKEN.test(name) && HEADER_TYPES.has(/** @type {string} */ (child["type"]))) {
      found.push({ header: `mcp-param-${name.toLowerCase()}`, path: childPath });
    }
    collect(child, childPath, found);
  }
}

/**
 * @param {unknown} args
 * @param {string[]} path
 * @returns {unknown}
 */
function valueAt(args, path) {
  let value = args;
  for (const key of path) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

/**
 * The `x-mcp-header` marks of every tool seen so far, by tool name. A Streamable HTTP client
 * reads them from `tools/list`; the relay learns them from the lists that pass through it (or
 * that it asks for itself when a call names a tool it has not seen).
 */
export class ToolHeaderParams {
  /** @type {Map<string, HeaderParam[]>} */
  #byTool = new Map();

  /**
   * Records the marks of each tool of one `tools/list` page.
   * @param {unknown} tools
   */
  learn(tools) {
    if (!Array.isArray(tools)) return;
    for (const tool of tools) {
      if (!isObject(tool) || typeof tool["name"] !== "string") continue;
      /** @type {HeaderParam[]} */
      const found = [];
      if (isObject(tool["inputSchema"])) collect(tool["inputSchema"], [], found);
      this.#byTool.set(tool["name"], found);
    }
  }

  /**
   * @param {string} name
   * @returns {boolean}
   */
  knows(name) {
    return this.#byTool.has(name);
  }

  /**
   * Drops what is known about a tool (its schema changed: the server refused the headers).
   * @param {string} name
   */
  forget(name) {
    this.#byTool.delete(name);
  }

  /**
   * The `Mcp-Param-*` headers of one call: one per marked argument that is present and not null.
   * @param {string} name
   * @param {unknown} args
   * @returns {Record<string, string>}
   */
  headersFor(name, args) {
    /** @type {Record<string, string>} */
    const headers = {};
    for (const param of this.#byTool.get(name) ?? []) {
      const value = valueAt(args, param.path);
      if (value === undefined || value === null || typeof value === "object") continue;
      headers[param.header] = encodeHeaderValue(String(value));
    }
    return headers;
  }
}
