/** Reads an upstream MCP server's HTTP answer: one JSON body or an SSE stream, bounded in bytes, handing on what comes before the response. */

import { isObject } from "../../core/json.ts";
import type { JsonObject } from "../../core/types.ts";
import { ModuleFailure } from "../service-module.ts";

/** A message the upstream sent before its response (a notification, or a request to its client). */
export type UpstreamMessage = (message: JsonObject) => void | Promise<void>;

/** Why an upstream's answer could not be read; `transport` failures count against the circuit breaker. */
export class UpstreamAnswerError extends Error {
  override readonly name = "UpstreamAnswerError";
  readonly code = "ERR_UPSTREAM_ANSWER";
}

/** The upstream answered a request with a JSON-RPC error: a failure of that request, naming the module, with the upstream's code. */
export class UpstreamErrorAnswer extends ModuleFailure {
  readonly rpcCode: unknown;

  constructor(message: string, rpcCode: unknown) {
    super(message);
    this.rpcCode = rpcCode;
  }
}

const decoder = () => new TextDecoder();

/** Reads a stream to its end as text, failing once more than `limit` bytes arrived. */
async function boundedText(body: ReadableStream<Uint8Array>, limit: number): Promise<string> {
  const reader = body.getReader();
  const text = decoder();
  let bytes = 0;
  let out = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out + text.decode();
    bytes += value.byteLength;
    if (bytes > limit) {
      await reader.cancel().catch(() => {});
      throw new UpstreamAnswerError(`its answer is larger than ${limit} bytes`);
    }
    out += text.decode(value, { stream: true });
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UpstreamAnswerError("its answer is not valid JSON");
  }
}

/** The JSON-RPC response to `id` in a parsed body (a message or a batch); an error with id null is one too (the request could not be read). */
function responseIn(value: unknown, id: string | number): JsonObject | undefined {
  for (const message of Array.isArray(value) ? value : [value]) {
    if (!isObject(message)) continue;
    if (message["id"] === id && (message["result"] !== undefined || message["error"] !== undefined)) return message;
    if (message["id"] === null && isObject(message["error"])) return message;
  }
  return undefined;
}

/**
 * The JSON-RPC response to request `id` in an upstream's answer. A JSON body is read whole (at most
 * `limit` bytes); an SSE stream is read event by event, each message before the response handed to
 * `onMessage`, until the response arrives, the stream ends or `limit` bytes have come.
 */
export async function readAnswer(response: Response, id: string | number, limit: number, onMessage: UpstreamMessage): Promise<JsonObject> {
  const type = (response.headers.get("content-type") ?? "").toLowerCase();
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > limit) {
    await response.body?.cancel().catch(() => {});
    throw new UpstreamAnswerError(`its answer is larger than ${limit} bytes (content-length ${declared})`);
  }
  const body = response.body as ReadableStream<Uint8Array> | null;
  if (!body) throw new UpstreamAnswerError("its answer has no body");
  if (type.startsWith("application/json")) {
    const found = responseIn(parseJson(await boundedText(body, limit)), id);
    if (!found) throw new UpstreamAnswerError(`its answer holds no JSON-RPC response to request ${id}`);
    return found;
  }
  if (type.startsWith("text/event-stream")) return readEvents(body, id, limit, onMessage);
  await body.cancel().catch(() => {});
  throw new UpstreamAnswerError(`its answer has content-type ${JSON.stringify(type || "none")}, not application/json or text/event-stream`);
}

/** Reads SSE events (WHATWG HTML §9.2) until the response to `id`; the stream is cancelled once it is found. */
async function readEvents(body: ReadableStream<Uint8Array>, id: string | number, limit: number, onMessage: UpstreamMessage): Promise<JsonObject> {
  const reader = body.getReader();
  const text = decoder();
  let bytes = 0;
  let buffer = "";
  let data: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) throw new UpstreamAnswerError(`its event stream ended before the response to request ${id}`);
      bytes += value.byteLength;
      if (bytes > limit) throw new UpstreamAnswerError(`its event stream sent more than ${limit} bytes`);
      buffer += text.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.search(/\r\n|\r|\n/)) !== -1) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(buffer[end] === "\r" && buffer[end + 1] === "\n" ? end + 2 : end + 1);
        if (line === "") {
          // An event ends: its data lines joined are one JSON-RPC message (a priming event has none).
          const payload = data.join("\n");
          data = [];
          if (payload.trim() === "") continue;
          const message = parseJson(payload);
          const found = responseIn(message, id);
          if (found) return found;
          if (isObject(message)) await onMessage(message);
        } else if (line.startsWith("data:")) {
          data.push(line.slice(line[5] === " " ? 6 : 5));
        }
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
