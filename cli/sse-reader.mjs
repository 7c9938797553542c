// Reads Server-Sent Events from a byte stream (the event-stream parsing rules of the WHATWG HTML standard, §9.2.6).

/**
 * One event block of a stream. `data` is undefined when the block had no data line (a priming
 * event or a bare `retry`); `id` and `retry` are set only when the block named them.
 * @typedef {{ data: string | undefined, id: string | undefined, retry: number | undefined }} SseEvent
 */

/**
 * Yields each event of `body` as it arrives. Comment lines (`:`) are skipped, and an event cut
 * off by the end of the stream is dropped, as the standard says. Cancels the stream when the
 * caller stops early.
 * @param {ReadableStream<Uint8Array>} body
 * @returns {AsyncGenerator<SseEvent>}
 */
export async function* readSse(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let pendingCr = false;
  /** @type {string[] | undefined} */
  let data;
  /** @type {string | undefined} */
  let id;
  /** @type {number | undefined} */
  let retry;
  let fields = 0;
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      let text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      // CR LF, LF and a lone CR all end a line; a CR at the end of a chunk may be the first half of CR LF.
      if (pendingCr) text = `\r${text}`;
      pendingCr = !done && text.endsWith("\r");
      if (pendingCr) text = text.slice(0, -1);
      buffer += text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;

      let start = 0;
      for (let end = buffer.indexOf("\n"); end !== -1; end = buffer.indexOf("\n", start)) {
        const line = buffer.slice(start, end);
        start = end + 1;
        if (line === "") {
          if (fields > 0) yield { data: data?.join("\n"), id, retry };
          data = undefined;
          id = undefined;
          retry = undefined;
          fields = 0;
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        let fieldValue = colon === -1 ? "" : line.slice(colon + 1);
        if (fieldValue.startsWith(" ")) fieldValue = fieldValue.slice(1);
        if (field === "data") (data ??= []).push(fieldValue);
        else if (field === "id" && !fieldValue.includes("\0")) id = fieldValue;
        else if (field === "retry" && /^\d+$/.test(fieldValue)) retry = Number(fieldValue);
        else continue;
        fields++;
      }
      buffer = buffer.slice(start);
      if (done) {
        finished = true;
        return;
      }
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
