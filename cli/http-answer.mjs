// Small readers of the Worker's HTTP answers shared by the relay's request and stream paths.

import { isObject } from "./is-object.mjs";
import { readSse } from "./sse-reader.mjs";

// The wait before reconnecting a stream when the server named none (its priming event normally does).
export const DEFAULT_RETRY_MS = 1000;
const CLIP = 2000;

/** @param {string} text @returns {unknown} JSON.parse's value, or undefined for text that is not JSON. */
export function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** @param {Response} response Whether the answer is an SSE stream. */
export function isEventStream(response) {
  return (response.headers.get("content-type") ?? "").toLowerCase().startsWith("text/event-stream");
}

/** @param {string} text Long text cut for a log line. */
export function clip(text) {
  return text.length > CLIP ? `${text.slice(0, CLIP)}… (${text.length} chars)` : text;
}

/** Waits `ms`, or less when `signal` aborts. @param {number} ms @param {AbortSignal} signal @returns {Promise<void>} */
export function delay(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/**
 * A message line for stdout: the event or body text as it is when it is one line of JSON (the
 * common case, no re-serialising), re-serialised when it spans lines; undefined when it is not
 * a JSON-RPC object.
 * @param {string} text
 * @returns {{ line: string, message: Record<string, unknown> } | undefined}
 */
export function messageLine(text) {
  const message = parseJson(text);
  if (!isObject(message)) return undefined;
  return { line: text.includes("\n") || text.includes("\r") ? JSON.stringify(message) : text, message };
}

/**
 * The answer to request `id` in a JSON or SSE response, if there is one.
 * @param {Response} response
 * @param {string} id
 * @returns {Promise<Record<string, unknown> | undefined>}
 */
export async function answerOf(response, id) {
  if (!isEventStream(response) || !response.body) {
    const body = parseJson(await response.text());
    return isObject(body) ? body : undefined;
  }
  for await (const event of readSse(response.body)) {
    const message = event.data ? parseJson(event.data) : undefined;
    if (isObject(message) && message["id"] === id && !Object.hasOwn(message, "method")) return message;
  }
  return undefined;
}
