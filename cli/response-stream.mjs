// Relays a request's SSE response stream line by line until its answer arrives, resuming a stream the Worker ended
// early with Last-Event-ID (2025-11-25 resumability).

import { clip, delay, isEventStream, messageLine } from "./http-answer.mjs";
import { readSse } from "./sse-reader.mjs";

/**
 * @typedef {{ controller: AbortController, cancelled: boolean, answered: boolean, lastEventId: string | undefined, retryMs: number }} InFlight
 * @typedef {object} ResponseStreamOptions
 * @property {unknown} requestId The id of the request the stream answers.
 * @property {InFlight} entry The request's state: its answer, cancellation, last event id and retry delay.
 * @property {(line: string) => Promise<void>} emit Writes one message line to the host.
 * @property {(answer: Record<string, unknown>) => void} onAnswer Called with the request's answer.
 * @property {() => boolean} canResume Whether the stream can be reopened (it belongs to a session).
 * @property {(lastEventId: string) => Promise<Response>} resume Reopens the stream (the session's GET with Last-Event-ID).
 */

/**
 * Writes every message of the stream to the host; when the stream ends before the answer, waits the
 * server's retry delay and resumes it, until the answer came, the request was cancelled or no resume is possible.
 * @param {ReadableStream<Uint8Array>} body @param {ResponseStreamOptions} options
 */
export async function relayResponseStream(body, { requestId, entry, emit, onAnswer, canResume, resume }) {
  for (;;) {
    for await (const event of readSse(body)) {
      if (event.id !== undefined) entry.lastEventId = event.id;
      if (event.retry !== undefined) entry.retryMs = event.retry;
      const answer = event.data ? messageLine(event.data) : undefined;
      if (!answer) continue;
      if (!Object.hasOwn(answer.message, "method") && answer.message["id"] === requestId) {
        entry.answered = true;
        onAnswer(answer.message);
      }
      await emit(answer.line);
    }
    if (entry.answered || entry.cancelled) return;
    const lastEventId = entry.lastEventId;
    if (lastEventId === undefined || !canResume()) throw new Error("the Worker ended the response stream without an answer");
    await delay(entry.retryMs, entry.controller.signal);
    const resumed = await resume(lastEventId);
    if (!isEventStream(resumed) || !resumed.body)
      throw new Error(`resuming the response stream failed with HTTP ${resumed.status}: ${clip(await resumed.text())}`);
    body = resumed.body;
  }
}
