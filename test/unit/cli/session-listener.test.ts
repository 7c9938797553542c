// The relay's follower of a legacy session's GET stream: reconnects, resumes, and stops when told to.
import { describe, expect, it } from "vitest";
import { followSessionStream } from "../../../cli/session-listener.mjs";

const sse = (text: string) => new Response(text, { headers: { "content-type": "text/event-stream" } });
const event = (id: string, message: unknown) => `id: ${id}\nretry: 1\ndata: ${JSON.stringify(message)}\n\n`;

describe("followSessionStream", () => {
  it("reconnects after each end of the stream, resuming after the last event id, until aborted", async () => {
    const controller = new AbortController();
    const opened: (string | undefined)[] = [];
    const emitted: string[] = [];
    await followSessionStream({
      signal: controller.signal,
      open: async (lastEventId) => {
        opened.push(lastEventId);
        return sse(event(`g.${opened.length}`, { jsonrpc: "2.0", method: "notifications/tools/list_changed" }));
      },
      emit: async (line) => {
        emitted.push(line);
        if (emitted.length === 3) controller.abort();
      },
    });
    expect(opened).toEqual([undefined, "g.1", "g.2"]);
    expect(emitted).toEqual(Array(3).fill('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}'));
  });

  it("opens a fresh stream when the server no longer knows the last event id (404)", async () => {
    const controller = new AbortController();
    const opened: (string | undefined)[] = [];
    await followSessionStream({
      signal: controller.signal,
      open: async (lastEventId) => {
        opened.push(lastEventId);
        if (opened.length === 1) return sse("id: g.1\nretry: 1\ndata: \n\n");
        if (lastEventId !== undefined) return new Response('{"jsonrpc":"2.0","error":{"code":-32600,"message":"Unknown Last-Event-ID"}}', { status: 404 });
        controller.abort();
        return sse("");
      },
      emit: async () => {},
    });
    expect(opened).toEqual([undefined, "g.1", undefined]);
  });

  it("ends quietly when the server offers no GET stream (405), and throws on another refusal", async () => {
    const signal = new AbortController().signal;
    await expect(followSessionStream({ signal, open: async () => new Response(null, { status: 405 }), emit: async () => {} })).resolves.toBeUndefined();
    await expect(followSessionStream({ signal, open: async () => new Response("gone", { status: 404 }), emit: async () => {} })).rejects.toThrow(
      /refused with HTTP 404: gone/,
    );
  });
});
