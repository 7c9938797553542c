// Follows a legacy session's standalone GET stream: server-initiated messages not tied to a request.

import { DEFAULT_RETRY_MS, clip, delay, isEventStream, messageLine } from "./http-answer.mjs";
import { readSse } from "./sse-reader.mjs";

/**
 * @typedef {object} SessionListenerOptions
 * @property {(lastEventId: string | undefined) => Promise<Response>} open GETs the stream (resuming after `lastEventId`).
 * @property {(line: string) => Promise<void>} emit Writes one message to the host.
 * @property {AbortSignal} signal Ends the listener.
 */

/**
 * Reads the GET stream and reconnects after the server's `retry` delay whenever it ends,
 * resuming with `Last-Event-ID` (2025-11-25 transports, resumability), until `signal` aborts.
 * Resolves quietly when the server offers no GET stream (405); throws when it refuses it.
 * @param {SessionListenerOptions} options
 * @returns {Promise<void>}
 */
export async function followSessionStream({ open, emit, signal }) {
  /** @type {string | undefined} */
  let lastEventId;
  let retryMs = DEFAULT_RETRY_MS;
  while (!signal.aborted) {
    const response = await open(lastEventId);
    if (!isEventStream(response) || !response.body) {
      const text = await response.text();
      if (response.status === 405) return;
      // 404 for a Last-Event-ID: its events expired; open a fresh stream.
      if (response.status !== 404 || lastEventId === undefined)
        throw new Error(`the session's GET stream was refused with HTTP ${response.status}: ${clip(text)}`);
      lastEventId = undefined;
      continue;
    }
    for await (const event of readSse(response.body)) {
      if (event.id !== undefined) lastEventId = event.id;
      if (event.retry !== undefined) retryMs = event.retry;
      const message = event.data ? messageLine(event.data) : undefined;
      if (message) await emit(message.line);
    }
    await delay(retryMs, signal);
  }
}
