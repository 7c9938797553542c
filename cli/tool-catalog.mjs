// What the stdio relay knows of the Worker's tools: their header marks, learned from tools/list answers (or read
// on first need), for the `Mcp-Param-*` headers of a 2026-07-28 tools/call.

import { answerOf } from "./http-answer.mjs";
import { isObject } from "./is-object.mjs";
import { modernHeaders, modernVersionOf } from "./request-headers.mjs";
import { ToolHeaderParams } from "./tool-header-params.mjs";

/**
 * @typedef {Record<string, unknown>} Message
 * @typedef {(headers: Record<string, string>, body: string) => Promise<Response>} Post
 */

/** Pages of tools/list read at most when learning the catalogue (a Worker that never ends its list). */
const MAX_PAGES = 100;

/** The tools' header marks as the relay has learned them; a tool not seen yet is looked up once. */
export class ToolCatalog {
  #marks = new ToolHeaderParams();
  /** @type {Promise<void> | undefined} */
  #learning;
  #ids = 0;
  #post;

  /** @param {Post} post POSTs one message to the Worker's MCP endpoint. */
  constructor(post) {
    this.#post = post;
  }

  /** `Mcp-Param-*` headers of a 2026-07-28 tools/call; other messages get none. */
  async headersFor(/** @type {Message} */ message) {
    const params = message["params"];
    if (message["method"] !== "tools/call" || !isObject(params) || typeof params["name"] !== "string") return {};
    if (!this.#marks.knows(params["name"])) {
      await (this.#learning ??= this.#learn(message).finally(() => (this.#learning = undefined)));
      // Still unknown (no such tool, or the list was refused): no marks, and no second lookup per call.
      if (!this.#marks.knows(params["name"])) this.#marks.learn([{ name: params["name"] }]);
    }
    return this.#marks.headersFor(params["name"], params["arguments"]);
  }

  /** Keeps the marks of a tools/list answer; forgets a tool whose call answered -32020 (its marks changed). */
  observe(/** @type {Message} */ request, /** @type {Message} */ answer) {
    const method = request["method"];
    const result = answer["result"];
    if (method === "tools/list" && isObject(result)) this.#marks.learn(result["tools"]);
    const error = answer["error"];
    const params = request["params"];
    if (method === "tools/call" && isObject(error) && error["code"] === -32020 && isObject(params)) this.#marks.forget(String(params["name"]));
  }

  /** Reads every page of tools/list, with the `_meta` of the call that needs it. */
  async #learn(/** @type {Message} */ call) {
    const meta = isObject(call["params"]) ? call["params"]["_meta"] : undefined;
    /** @type {unknown} */
    let cursor;
    for (let page = 0; page < MAX_PAGES; page++) {
      const id = `edge-mcp-stdio-${++this.#ids}`;
      const request = { jsonrpc: "2.0", id, method: "tools/list", params: { ...(typeof cursor === "string" ? { cursor } : {}), _meta: meta } };
      const response = await this.#post(modernHeaders(request, /** @type {string} */ (modernVersionOf(request))), JSON.stringify(request));
      const result = (await answerOf(response, id))?.["result"];
      if (!isObject(result)) return;
      this.#marks.learn(result["tools"]);
      cursor = result["nextCursor"];
      if (typeof cursor !== "string") return;
    }
  }
}
