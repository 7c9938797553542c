// The SSE parser of the stdio relay: event blocks, fields, line endings and chunk boundaries.
import { describe, expect, it } from "vitest";
import { readSse } from "../../../cli/sse-reader.mjs";

/** A byte stream that delivers `chunks` one read at a time. */
function streamOf(...chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
}

async function events(body: ReadableStream<Uint8Array>) {
  const seen = [];
  for await (const event of readSse(body)) seen.push(event);
  return seen;
}

describe("readSse", () => {
  it("yields each event's data, id and retry, and a priming event with empty data", async () => {
    const body = streamOf('id: s.0\nretry: 1000\ndata: \n\nid: s.1\nevent: message\ndata: {"a":1}\n\n');
    expect(await events(body)).toEqual([
      { data: "", id: "s.0", retry: 1000 },
      { data: '{"a":1}', id: "s.1", retry: undefined },
    ]);
  });

  it("joins data lines with a newline and skips comment lines", async () => {
    const body = streamOf(": keep-alive\n\ndata: first\ndata:second\n: note\n\n");
    expect(await events(body)).toEqual([{ data: "first\nsecond", id: undefined, retry: undefined }]);
  });

  it("reads events split across chunks, inside a field and inside a multi-byte character", async () => {
    const bytes = new TextEncoder().encode("data: héllo ✓\n\n");
    const splitAt = bytes.indexOf(0xe2) + 1; // inside the three bytes of ✓
    const body = streamOf("da", "ta: one\n", "\n", bytes.slice(0, splitAt), bytes.slice(splitAt));
    expect((await events(body)).map((e) => e.data)).toEqual(["one", "héllo ✓"]);
  });

  it("ends lines at CR LF and at a lone CR, even when a CR LF is split between chunks", async () => {
    const body = streamOf("data: a\r", "\n\r\n", "data: b\r\rdata: c\n\n");
    expect((await events(body)).map((e) => e.data)).toEqual(["a", "b", "c"]);
  });

  it("drops an event the stream cut off before its blank line", async () => {
    expect(await events(streamOf("data: done\n\ndata: cut"))).toEqual([{ data: "done", id: undefined, retry: undefined }]);
  });

  it("ignores a retry that is not a number and an id with a NUL", async () => {
    expect(await events(streamOf("retry: soon\nid: a\0b\ndata: x\n\n"))).toEqual([{ data: "x", id: undefined, retry: undefined }]);
  });

  it("cancels the stream when the reader stops early", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("data: 1\n\n"));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const event of readSse(body)) {
      expect(event.data).toBe("1");
      break;
    }
    expect(cancelled).toBe(true);
  });
});
