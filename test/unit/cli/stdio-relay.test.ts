// The stdio relay against a scripted Worker: the HTTP requests it makes for each line, and the lines it writes back.
import { describe, expect, it } from "vitest";
import { StdioRelay } from "../../../cli/stdio-relay.mjs";

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal | undefined;
}
type Answer = (request: Seen, index: number) => Response | Promise<Response>;

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};
const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };
const INITIALIZE_RESULT = { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "w", version: "1" } };

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
const sse = (...events: string[]) => new Response(events.join(""), { headers: { "content-type": "text/event-stream" } });
const event = (message: unknown, id?: string) => `${id === undefined ? "" : `id: ${id}\n`}event: message\ndata: ${JSON.stringify(message)}\n\n`;
const accepted = () => new Response(null, { status: 202 });

/** A stream that stays open until the request's signal aborts; records that it did. */
function openStream(request: Seen, first: string, aborted: { value: boolean }): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(first));
      request.signal?.addEventListener("abort", () => {
        aborted.value = true;
        controller.error(new DOMException("aborted", "AbortError"));
      });
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

function start(answer: Answer, limits: { maxInFlight?: number; onRoom?: () => void } = {}) {
  const seen: Seen[] = [];
  const lines: string[] = [];
  const logs: string[] = [];
  const relay = new StdioRelay({
    ...limits,
    endpoint: "http://localhost/mcp",
    dispatch: async (url, init) => {
      const request = { url, method: init.method, headers: init.headers, body: init.body, signal: init.signal };
      seen.push(request);
      return answer(request, seen.length - 1);
    },
    write: (line) => {
      lines.push(line);
    },
    log: (line) => logs.push(line),
  });
  const send = (...messages: unknown[]) => {
    for (const message of messages) relay.receive(typeof message === "string" ? message : JSON.stringify(message));
  };
  const written = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { relay, seen, lines, logs, send, written };
}

/** A scripted Worker with a session: initialize opens "s-1", everything else is routed by method. */
function sessionWorker(routes: (request: Seen, message: Record<string, unknown> | undefined) => Response | Promise<Response>): Answer {
  return (request) => {
    const message = request.body === undefined ? undefined : (JSON.parse(request.body) as Record<string, unknown>);
    if (message?.["method"] === "initialize") return json({ jsonrpc: "2.0", id: message["id"], result: INITIALIZE_RESULT }, 200, { "mcp-session-id": "s-1" });
    return routes(request, message);
  };
}

describe("StdioRelay, 2025-era hosts", () => {
  it("POSTs each line as it is and writes the JSON answer as one line", async () => {
    const { relay, seen, lines, send } = start(
      () => new Response('{\n  "jsonrpc": "2.0",\n  "id": 7,\n  "result": {}\n}', { headers: { "content-type": "application/json" } }),
    );
    const line = '{"jsonrpc":"2.0","id":7,"method":"ping"}';
    send(line);
    await relay.idle();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ url: "http://localhost/mcp", method: "POST", body: line });
    expect(seen[0]?.headers).toEqual({ "content-type": "application/json", accept: "application/json, text/event-stream" });
    expect(lines).toEqual(['{"jsonrpc":"2.0","id":7,"result":{}}']);
  });

  it("keeps the session and version that initialize returned for every later message, which waits for it", async () => {
    let release = () => {};
    const initializing = new Promise<void>((resolve) => (release = resolve));
    const { relay, seen, send, written } = start(async (request, index) => {
      if (index === 0) await initializing;
      if (request.method !== "POST") return new Response(null, { status: 405 });
      const message = JSON.parse(request.body ?? "{}") as Record<string, unknown>;
      if (message["method"] === "initialize") return json({ jsonrpc: "2.0", id: 1, result: INITIALIZE_RESULT }, 200, { "mcp-session-id": "s-1" });
      return message["id"] === undefined ? accepted() : json({ jsonrpc: "2.0", id: message["id"], result: {} });
    });
    send(INITIALIZE, INITIALIZED, { jsonrpc: "2.0", id: 2, method: "tools/list" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toHaveLength(1); // the others wait for initialize's answer
    release();
    await relay.idle();
    expect(seen[0]?.headers).not.toHaveProperty("mcp-session-id");
    const posts = seen.filter((request) => request.method === "POST").slice(1);
    expect(posts.map((request) => [request.headers["mcp-session-id"], request.headers["mcp-protocol-version"]])).toEqual([
      ["s-1", "2025-11-25"],
      ["s-1", "2025-11-25"],
    ]);
    expect(written().map((message) => message["id"])).toEqual([1, 2]);
    await relay.close();
  });

  it("adds the request's id to an error the endpoint raised before it read the body", async () => {
    const { relay, send, written } = start(() =>
      json({ jsonrpc: "2.0", error: { code: -32600, message: "Request body is larger than the limit of 1048576 bytes" } }, 413),
    );
    send({ jsonrpc: "2.0", id: "big", method: "tools/call", params: { name: "echo", arguments: { text: "x" } } });
    await relay.idle();
    expect(written()).toEqual([{ jsonrpc: "2.0", id: "big", error: { code: -32600, message: "Request body is larger than the limit of 1048576 bytes" } }]);
  });

  it("writes the endpoint's id-less error for a malformed line and for a batch", async () => {
    const { relay, seen, send, written } = start((request) =>
      request.body?.startsWith("[")
        ? json({ jsonrpc: "2.0", error: { code: -32600, message: "Batch requests are not supported" } }, 400)
        : json({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } }, 400),
    );
    send("{not json", "[1,2]");
    await relay.idle();
    expect(seen.map((request) => request.body)).toEqual(["{not json", "[1,2]"]);
    expect(written()).toEqual([
      { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } },
      { jsonrpc: "2.0", error: { code: -32600, message: "Batch requests are not supported" } },
    ]);
  });

  it("relays an SSE answer event by event: notifications first, then the result", async () => {
    const progress = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: 1 } };
    const { relay, send, written } = start(() =>
      sse("id: a.0\nretry: 10\ndata: \n\n", event(progress, "a.1"), ": keep-alive\n\n", event({ jsonrpc: "2.0", id: 3, result: { content: [] } }, "a.2")),
    );
    send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "countdown", _meta: { progressToken: "p" } } });
    await relay.idle();
    expect(written()).toEqual([progress, { jsonrpc: "2.0", id: 3, result: { content: [] } }]);
  });

  it("answers -32603 with the request's id when the Worker cannot be reached or closes the stream early without a session", async () => {
    const { relay, send, written, logs } = start((request) => {
      if (request.body?.includes('"id":1')) throw new Error("workerd exited");
      return sse(event({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } }));
    });
    send({ jsonrpc: "2.0", id: 1, method: "tools/list" }, { jsonrpc: "2.0", id: 2, method: "tools/list" });
    await relay.idle();
    const errors = written().filter((message) => "error" in message);
    expect(errors).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error: no answer from the Worker (workerd exited)" } },
      {
        jsonrpc: "2.0",
        id: 2,
        error: { code: -32603, message: "Internal error: no answer from the Worker (the Worker ended the response stream without an answer)" },
      },
    ]);
    expect(logs.join("\n")).toMatch(/request 1 failed: workerd exited/);
  });

  it("resumes a session's response stream with Last-Event-ID when the connection ends before the answer", async () => {
    const { relay, seen, send, written } = start(
      sessionWorker((request) => {
        if (request.method === "GET") return sse(event({ jsonrpc: "2.0", id: 5, result: { resumed: true } }, "a.2"));
        return sse("id: a.0\nretry: 5\ndata: \n\n", event({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } }, "a.1"));
      }),
    );
    send(INITIALIZE, { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "slow" } });
    await relay.idle();
    const resume = seen.find((request) => request.method === "GET");
    expect(resume?.headers).toMatchObject({
      accept: "text/event-stream",
      "mcp-session-id": "s-1",
      "last-event-id": "a.1",
      "mcp-protocol-version": "2025-11-25",
    });
    expect(written().slice(1)).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } },
      { jsonrpc: "2.0", id: 5, result: { resumed: true } },
    ]);
    await relay.close();
  });

  it("opens the session's GET stream after notifications/initialized, relays its requests, and POSTs the host's answers back", async () => {
    const elicit = { jsonrpc: "2.0", id: 0, method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object", properties: {} } } };
    const aborted = { value: false };
    const { relay, seen, send, written } = start(
      sessionWorker((request, message) => {
        if (request.method === "GET") return openStream(request, event(elicit, "g.1"), aborted);
        if (request.method === "DELETE") return new Response(null, { status: 204 });
        return message?.["id"] === undefined || "result" in message ? accepted() : json({ jsonrpc: "2.0", id: message["id"], result: {} });
      }),
    );
    send(INITIALIZE, INITIALIZED);
    await relay.idle();
    await expect.poll(() => written().length).toBe(2);
    expect(written()[1]).toEqual(elicit);
    const get = seen.find((request) => request.method === "GET");
    expect(get?.headers).toMatchObject({ accept: "text/event-stream", "mcp-session-id": "s-1", "mcp-protocol-version": "2025-11-25" });

    send({ jsonrpc: "2.0", id: 0, result: { action: "accept", content: { name: "Ada" } } });
    await relay.idle();
    const answer = seen.at(-1);
    expect(answer).toMatchObject({ method: "POST", body: '{"jsonrpc":"2.0","id":0,"result":{"action":"accept","content":{"name":"Ada"}}}' });
    expect(answer?.headers["mcp-session-id"]).toBe("s-1");

    await relay.close();
    expect(aborted.value).toBe(true);
    expect(seen.at(-1)).toMatchObject({ method: "DELETE", headers: { "mcp-session-id": "s-1" } });
  });

  it("forwards notifications/cancelled to the session, closes the request's stream and writes nothing for it", async () => {
    const aborted = { value: false };
    const { relay, seen, send, written } = start(
      sessionWorker((request, message) => {
        if (message?.["method"] === "tools/call")
          return openStream(request, event({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } }, "c.1"), aborted);
        return accepted();
      }),
    );
    send(INITIALIZE, { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "slow" } });
    await expect.poll(() => written().length).toBe(2);
    send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9, reason: "user" } });
    await relay.idle();
    const cancel = seen.find((request) => request.body?.includes("notifications/cancelled"));
    expect(cancel?.headers["mcp-session-id"]).toBe("s-1");
    expect(aborted.value).toBe(true);
    expect(written().map((message) => message["id"] ?? message["method"])).toEqual([1, "notifications/progress"]);
  });

  it("logs a refused notification instead of answering it", async () => {
    const { relay, send, lines, logs } = start(() => json({ jsonrpc: "2.0", error: { code: -32600, message: "Missing Mcp-Session-Id header" } }, 400));
    send({ jsonrpc: "2.0", method: "notifications/roots/list_changed" });
    await relay.idle();
    expect(lines).toEqual([]);
    expect(logs.join("\n")).toMatch(/refused a message with HTTP 400: .*Missing Mcp-Session-Id/);
  });
});

describe("StdioRelay, 2026-07-28 hosts", () => {
  it("sends the request-metadata headers derived from the message's _meta, and no session", async () => {
    const { relay, seen, send } = start(() => json({ jsonrpc: "2.0", id: 1, result: {} }));
    send({ jsonrpc: "2.0", id: 1, method: "prompts/get", params: { name: "review", _meta: META } });
    await relay.idle();
    expect(seen[0]?.headers).toEqual({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "prompts/get",
      "mcp-name": "review",
    });
  });

  it("lists the tools itself (every page) before calling a tool it has not seen, and mirrors its x-mcp-header arguments", async () => {
    const marked = { name: "route", inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } } };
    const { relay, seen, send, written } = start((request) => {
      const message = JSON.parse(request.body ?? "{}") as { id: unknown; method: string; params: { cursor?: string } };
      if (message.method === "tools/list") {
        return message.params.cursor === undefined
          ? json({ jsonrpc: "2.0", id: message.id, result: { tools: [{ name: "echo", inputSchema: { type: "object" } }], nextCursor: "2" } })
          : sse(event({ jsonrpc: "2.0", id: message.id, result: { tools: [marked] } }));
      }
      return json({ jsonrpc: "2.0", id: message.id, result: { content: [] } });
    });
    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "route", arguments: { region: "eu-west" }, _meta: META } });
    send(call(1));
    await relay.idle();
    send(call(2));
    await relay.idle();
    expect(seen.map((request) => (JSON.parse(request.body ?? "{}") as { method?: string }).method)).toEqual([
      "tools/list",
      "tools/list",
      "tools/call",
      "tools/call",
    ]);
    expect(seen[0]?.headers).toMatchObject({ "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" });
    expect(seen.slice(2).map((request) => request.headers["mcp-param-region"])).toEqual(["eu-west", "eu-west"]);
    expect(written().map((message) => message["id"])).toEqual([1, 2]); // the relay's own lists are not written
  });

  it("learns header marks from the host's own tools/list and asks nothing more", async () => {
    const { relay, seen, send } = start((request) => {
      const message = JSON.parse(request.body ?? "{}") as { id: unknown; method: string };
      const tools = [{ name: "route", inputSchema: { type: "object", properties: { n: { type: "integer", "x-mcp-header": "N" } } } }];
      return json({ jsonrpc: "2.0", id: message.id, result: message.method === "tools/list" ? { tools } : {} });
    });
    send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } });
    await relay.idle();
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "route", arguments: { n: 7 }, _meta: META } });
    await relay.idle();
    expect(seen).toHaveLength(2);
    expect(seen[1]?.headers["mcp-param-n"]).toBe("7");
  });

  it("lists the tools again after the server refused a call's headers (-32020), and only once for a tool that is not listed", async () => {
    let region = "Region";
    const { relay, seen, send, written } = start((request) => {
      const message = JSON.parse(request.body ?? "{}") as { id: unknown; method: string; params: { name?: string } };
      if (message.method === "tools/list") {
        return json({
          jsonrpc: "2.0",
          id: message.id,
          result: { tools: [{ name: "route", inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": region } } } }] },
        });
      }
      const expected = `mcp-param-${region.toLowerCase()}`;
      if (message.params.name === "route" && request.headers[expected] === undefined)
        return json({ jsonrpc: "2.0", id: message.id, error: { code: -32020, message: `Header mismatch: missing ${expected}` } }, 400);
      return json({ jsonrpc: "2.0", id: message.id, result: { content: [] } });
    });
    const call = (id: number, name = "route") => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: { region: "eu" }, _meta: META } });
    send(call(1));
    await relay.idle();
    region = "Zone"; // the tool's schema changed on the server
    send(call(2));
    await relay.idle();
    send(call(3));
    await relay.idle();
    expect(written().map((message) => (message["error"] as { code?: number } | undefined)?.code ?? "ok")).toEqual(["ok", -32020, "ok"]);
    expect(seen.at(-1)?.headers["mcp-param-zone"]).toBe("eu");

    const before = seen.length;
    send(call(4, "ghost"), call(5, "ghost"));
    await relay.idle();
    expect(seen.slice(before).map((request) => (JSON.parse(request.body ?? "{}") as { method?: string }).method)).toEqual([
      "tools/list",
      "tools/call",
      "tools/call",
    ]);
  });

  it("cancels by closing the request's stream, without POSTing the notification, and writes nothing more for it", async () => {
    const aborted = { value: false };
    const { relay, seen, send, written } = start((request) =>
      request.body?.includes("tools/list")
        ? json({ jsonrpc: "2.0", id: (JSON.parse(request.body) as { id: number }).id, result: { tools: [] } })
        : openStream(request, event({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } }), aborted),
    );
    send({ jsonrpc: "2.0", id: "c", method: "tools/call", params: { name: "slow", arguments: {}, _meta: META } });
    await expect.poll(() => written().length).toBe(1);
    send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "c", _meta: META } });
    await relay.idle();
    expect(aborted.value).toBe(true);
    expect(seen.filter((request) => request.body?.includes("notifications/cancelled"))).toEqual([]);
    expect(written()).toHaveLength(1);
  });
});

describe("StdioRelay, requests in flight", () => {
  const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping", params: { _meta: META } });

  /** A Worker that holds every ping until the test releases it, counting how many are held at once. */
  function heldWorker() {
    const held: (() => void)[] = [];
    const state = { now: 0, most: 0 };
    const answer: Answer = (request) => {
      const message = JSON.parse(request.body ?? "{}") as Record<string, unknown>;
      if (message["method"] !== "ping") return accepted();
      state.now++;
      state.most = Math.max(state.most, state.now);
      return new Promise<Response>((resolve) =>
        held.push(() => {
          state.now--;
          resolve(json({ jsonrpc: "2.0", id: message["id"], result: {} }));
        }),
      );
    };
    const releaseAll = async () => {
      while (held.length > 0) {
        for (const release of held.splice(0)) release();
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    };
    return { answer, held, state, releaseAll };
  }

  it("sends at most maxInFlight requests at once; the others wait in order and every one is answered", async () => {
    const worker = heldWorker();
    let rooms = 0;
    const { relay, seen, send, written } = start(worker.answer, { maxInFlight: 8, onRoom: () => rooms++ });
    send(...Array.from({ length: 500 }, (_, i) => ping(i + 1)));
    await expect.poll(() => seen.length).toBe(8);
    expect(relay.backlog).toBe(492);
    await worker.releaseAll();
    await relay.idle();
    expect(worker.state.most).toBe(8);
    expect(relay.backlog).toBe(0);
    expect(rooms).toBe(492);
    expect(written().map((message) => message["id"])).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
  });

  it("bounds requests in flight by 64 by default", async () => {
    const worker = heldWorker();
    const { relay, seen, send } = start(worker.answer);
    send(...Array.from({ length: 1000 }, (_, i) => ping(i + 1)));
    await expect.poll(() => seen.length).toBe(64);
    expect(relay.backlog).toBe(936);
    await worker.releaseAll();
    await relay.idle();
    expect(worker.state.most).toBe(64);
  });

  it("lets notifications and the host's answers pass while requests wait, and drops a waiting request the host cancels", async () => {
    const worker = heldWorker();
    const { relay, seen, send, written } = start(worker.answer, { maxInFlight: 1 });
    send(ping(1), ping(2), ping(3));
    await expect.poll(() => seen.length).toBe(1);
    send(
      { jsonrpc: "2.0", id: "srv-1", result: { action: "decline" } },
      { jsonrpc: "2.0", method: "notifications/roots/list_changed", params: { _meta: META } },
    );
    await expect.poll(() => seen.length).toBe(3);
    // Request 2 never left: cancelling it drops it, and nothing is POSTed or answered for it.
    send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, _meta: META } });
    expect(relay.backlog).toBe(1);
    await worker.releaseAll();
    await relay.idle();
    expect(written().map((message) => message["id"])).toEqual([1, 3]);
    expect(seen.filter((request) => request.body?.includes('"method":"ping"')).map((request) => (JSON.parse(request.body ?? "") as { id: number }).id)).toEqual(
      [1, 3],
    );
    expect(seen.filter((request) => request.body?.includes("notifications/cancelled"))).toEqual([]);
  });
});
