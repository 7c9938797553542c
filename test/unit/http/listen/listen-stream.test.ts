// Listen streams fed by a relay: acknowledged when the source is live, ended gracefully, bounded, released.
import { describe, expect, it, vi } from "vitest";
import { createMcpApp } from "../../../../src/http/mcp-app.ts";
import { openListenStreams } from "../../../../src/http/listen/listen.ts";
import type { ChangeSink } from "../../../../src/server/notifications/change-hub.ts";
import type { ChangeRelay } from "../../../../src/server/notifications/change-relay.ts";
import { createServer } from "../../../../src/server/server.ts";
import { MODERN_META } from "../../app-client.ts";

const server = createServer({ info: { name: "listen-stream", version: "1.0.0" } });

/** A relay stand-in: the test drives each subscription's sink. */
function fakeRelay() {
  const sinks: ChangeSink[] = [];
  let unsubscribed = 0;
  const relay: ChangeRelay = {
    publish: () => Promise.resolve(),
    subscribe(_filter, sink) {
      sinks.push(sink);
      return () => void unsubscribed++;
    },
  };
  return { relay, sinks, unsubscribed: () => unsubscribed };
}

async function openListen(app: ReturnType<typeof createMcpApp>, id: number, signal?: AbortSignal) {
  const response = await app.fetch(
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "subscriptions/listen",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: MODERN_META } }),
      ...(signal ? { signal } : {}),
    }),
  );
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  return {
    response,
    /** Reads until the stream ends; resolves with the raw SSE text. */
    async rest(): Promise<string> {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return text;
        text += decoder.decode(value, { stream: true });
      }
    },
    /** Reads until `pattern` appears in the text. */
    async until(pattern: RegExp): Promise<string> {
      while (!pattern.test(text)) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`stream ended before ${pattern}: ${text}`);
        text += decoder.decode(value, { stream: true });
      }
      return text;
    },
    cancel: () => reader.cancel(),
  };
}

const messages = (text: string) =>
  text
    .split("\n\n")
    .map((block) => block.split("\n").find((line) => line.startsWith("data: ")))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);

describe("listen streams over a relay", () => {
  it("sends the acknowledgement only once the source is live", async () => {
    const { relay, sinks } = fakeRelay();
    const stream = await openListen(createMcpApp({ server, relay }), 5);
    const sink = sinks[0] as ChangeSink;
    sink.send("notifications/tools/list_changed", {}); // before ready: not part of the subscription
    sink.ready?.();
    sink.send("notifications/tools/list_changed", {});
    const text = await stream.until(/list_changed/);
    expect(messages(text).map((m) => m["method"])).toEqual(["notifications/subscriptions/acknowledged", "notifications/tools/list_changed"]);
    await stream.cancel();
  });

  it("tells a client that may have missed changes to refresh every list it listens to, right after the acknowledgement", async () => {
    const { relay, sinks } = fakeRelay();
    const stream = await openListen(createMcpApp({ server, relay }), 6);
    (sinks[0] as ChangeSink).ready?.(true);
    const text = await stream.until(/list_changed/);
    expect(messages(text)).toEqual([
      expect.objectContaining({ method: "notifications/subscriptions/acknowledged" }),
      { jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { "io.modelcontextprotocol/subscriptionId": 6 } } },
    ]);
    await stream.cancel();
  });

  it("ends gracefully with the listen result and a spread reconnection delay when the source ends", async () => {
    const { relay, sinks, unsubscribed } = fakeRelay();
    const stream = await openListen(createMcpApp({ server, relay }), 9);
    const sink = sinks[0] as ChangeSink;
    sink.ready?.();
    sink.end?.("the notification hub closed the subscription");
    const text = await stream.rest();
    const last = messages(text).at(-1);
    expect(last).toEqual({ jsonrpc: "2.0", id: 9, result: { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": 9 } } });
    const retry = Number(/^retry: (\d+)$/m.exec(text)?.[1]);
    expect(retry).toBeGreaterThanOrEqual(1000);
    expect(retry).toBeLessThan(5000);
    expect(unsubscribed()).toBe(1);
  });

  it("answers a JSON-RPC error when the source ends before it was live", async () => {
    const { relay, sinks } = fakeRelay();
    const stream = await openListen(createMcpApp({ server, relay }), 4);
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    sinks[0]?.end?.("the notification hub subscription failed: no route");
    error.mockRestore();
    expect(messages(await stream.rest())).toEqual([
      { jsonrpc: "2.0", id: 4, error: { code: -32603, message: "Internal error: change notifications are unavailable; retry later" } },
    ]);
  });

  it("ends a listener that reads too slowly instead of queueing without bound", async () => {
    const { relay, sinks, unsubscribed } = fakeRelay();
    const stream = await openListen(createMcpApp({ server, relay, listen: { maxQueuedBytes: 2048 } }), 1);
    const sink = sinks[0] as ChangeSink;
    sink.ready?.();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    // Nothing is read meanwhile: 100 notifications of ~150 bytes overflow 2 KiB.
    for (let i = 0; i < 100; i++) sink.send("notifications/resources/updated", { uri: `a://${"x".repeat(60)}/${i}` });
    warn.mockRestore();
    expect(unsubscribed()).toBe(1);
    const all = messages(await stream.rest());
    expect(all.length).toBeLessThan(20);
    expect(all.at(-1)).toEqual({ jsonrpc: "2.0", id: 1, result: { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": 1 } } });
  });

  it("releases the subscription as soon as the request is aborted", async () => {
    const { relay, sinks, unsubscribed } = fakeRelay();
    const before = openListenStreams();
    const abort = new AbortController();
    const stream = await openListen(createMcpApp({ server, relay }), 2, abort.signal);
    sinks[0]?.ready?.();
    await stream.until(/acknowledged/);
    expect(openListenStreams()).toBe(before + 1);
    abort.abort();
    expect(unsubscribed()).toBe(1);
    expect(openListenStreams()).toBe(before);
  });

  it("writes a heartbeat comment after the configured time without a write", async () => {
    const { relay, sinks } = fakeRelay();
    const stream = await openListen(createMcpApp({ server, relay, listen: { heartbeatMs: 100 } }), 6);
    sinks[0]?.ready?.();
    expect(await stream.until(/acknowledged[^]*\n\n:\n\n/)).toMatch(/\n\n:\n\n$/);
    await stream.cancel();
  });

  it("runs a task a source hands it, on the stream's own loop", async () => {
    const { relay, sinks } = fakeRelay();
    const stream = await openListen(createMcpApp({ server, relay }), 3);
    const ran = new Promise<string>((resolve) => sinks[0]?.run?.(() => resolve("ran")));
    expect(await ran).toBe("ran");
    await stream.cancel();
  });
});
