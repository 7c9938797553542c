// A remote module against an in-memory upstream (a fetch function): revision negotiation, sessions, SSE answers,
// list caching and filtering, bounds, the circuit breaker, and what a call relays to its caller.
import { describe, expect, it, vi } from "vitest";
import { DefinitionError } from "../../../../src/core/definition-error.ts";
import { CircuitBreaker } from "../../../../src/modules/remote/circuit-breaker.ts";
import { RemoteModule, type RemoteModuleSettings } from "../../../../src/modules/remote/remote-module.ts";
import { collectRemoteModule } from "../../../../src/modules/remote/remote-parts.ts";
import { exposed, matchesPattern, remoteUrl } from "../../../../src/modules/remote/remote-target.ts";
import { handlerContext } from "../../context.ts";

type Message = { id?: number; method?: string; params?: Record<string, unknown> };
type Upstream = (message: Message, headers: Headers) => Response | Promise<Response>;

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
const result = (id: number | undefined, value: Record<string, unknown>) => json({ jsonrpc: "2.0", id, result: value });
const sse = (...messages: unknown[]) =>
  new Response(`id: 0\ndata: \n\n${messages.map((m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`).join("")}`, {
    headers: { "content-type": "text/event-stream" },
  });

const TOOLS = [
  { name: "echo", inputSchema: { type: "object" } },
  { name: "get-env", inputSchema: { type: "object" } },
  { name: "crooked", inputSchema: { type: "string" } },
];

/** A 2026-07-28 upstream: discover, a list with ttlMs, echo. */
const modern: Upstream = (message) => {
  if (message.method === "server/discover") return result(message.id, { supportedVersions: ["2026-07-28"], ttlMs: 0, cacheScope: "public", capabilities: {} });
  if (message.method === "tools/list") return result(message.id, { tools: TOOLS, ttlMs: 60_000, cacheScope: "public" });
  const args = message.params?.["arguments"] as Record<string, unknown>;
  return result(message.id, { resultType: "complete", content: [{ type: "text", text: `echo ${String(args["text"])}` }] });
};

function module(upstream: Upstream, settings: Partial<RemoteModuleSettings> = {}) {
  const requests: { message: Message; headers: Headers }[] = [];
  const fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
    const message = JSON.parse(init?.body as string) as Message;
    const headers = new Headers(init?.headers);
    requests.push({ message, headers });
    expect(init?.redirect).toBe("manual");
    // As fetch does: an aborted signal rejects the request with its reason.
    const signal = init?.signal as AbortSignal;
    const aborted = new Promise<never>((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason as Error)));
    return Promise.race([upstream(message, headers), aborted]);
  });
  const remote = new RemoteModule({
    name: "up",
    prefix: "up",
    url: new URL("https://upstream.example/mcp"),
    protocol: "auto",
    headers: { authorization: "Bearer s3cret" },
    timeoutMs: 200,
    maxResponseBytes: 10_000,
    fetch: fetch,
    ...settings,
  });
  return { remote, requests };
}

describe("remote module targets", () => {
  it("takes https anywhere and plain http only to loopback in development", () => {
    expect(remoteUrl("https://mcp.example.com/mcp", false, "m").href).toBe("https://mcp.example.com/mcp");
    expect(remoteUrl("http://127.0.0.1:3001/mcp", true, "m").port).toBe("3001");
    expect(() => remoteUrl("http://127.0.0.1:3001/mcp", false, "m")).toThrow(/allowed only in development/);
    expect(() => remoteUrl("http://mcp.example.com/mcp", true, "m")).toThrow(/must be https/);
    expect(() => remoteUrl("ftp://mcp.example.com/", true, "m")).toThrow(/must be https, not ftp/);
    expect(() => remoteUrl("https://user:pw@mcp.example.com/", true, "m")).toThrow(/must not hold credentials/);
    expect(() => remoteUrl("not a url", true, "m")).toThrow(DefinitionError);
  });

  it("matches tool names against allow and deny patterns, deny winning", () => {
    expect(matchesPattern("get-env", "get-*")).toBe(true);
    expect(matchesPattern("get-env", "*-env")).toBe(true);
    expect(matchesPattern("get-env", "g*t*v")).toBe(true);
    expect(matchesPattern("echo", "get-*")).toBe(false);
    expect(matchesPattern("ab", "a*b*b")).toBe(false);
    expect(exposed("echo", undefined, ["get-env"])).toBe(true);
    expect(exposed("get-env", ["*"], ["get-env"])).toBe(false);
    expect(exposed("echo", ["get-*"], undefined)).toBe(false);
  });
});

describe("circuit breaker", () => {
  it("opens after consecutive failures, lets one trial through after the cooldown, and closes on its success", () => {
    let now = 0;
    const breaker = new CircuitBreaker({ failures: 2, cooldownMs: 100, now: () => now });
    breaker.failure();
    breaker.success();
    breaker.failure();
    expect(breaker.admit()).toBe(true);
    breaker.failure();
    expect([breaker.state, breaker.admit(), breaker.retryInMs()]).toEqual(["open", false, 100]);
    now = 100;
    expect([breaker.admit(), breaker.admit()]).toEqual([true, false]);
    breaker.failure();
    expect(breaker.state).toBe("open");
    now = 250;
    expect(breaker.admit()).toBe(true);
    // A trial that ends without an answer (the caller went away) lets the next call be the trial.
    breaker.release();
    expect(breaker.admit()).toBe(true);
    breaker.success();
    expect(breaker.state).toBe("closed");
  });
});

describe("RemoteModule", () => {
  it("speaks 2026-07-28 when server/discover offers it, with the revision's headers and the configured credential", async () => {
    const { remote, requests } = module(modern);
    const result = await remote.call("echo", { text: "hi" }, handlerContext());
    expect(result).toEqual({ content: [{ type: "text", text: "echo hi" }] });
    const call = requests[1] as { message: Message; headers: Headers };
    expect(call.headers.get("mcp-protocol-version")).toBe("2026-07-28");
    expect(call.headers.get("mcp-method")).toBe("tools/call");
    expect(call.headers.get("mcp-name")).toBe("echo");
    expect(call.headers.get("authorization")).toBe("Bearer s3cret");
    expect((call.message.params?.["_meta"] as Record<string, unknown>)["io.modelcontextprotocol/protocolVersion"]).toBe("2026-07-28");
  });

  it("falls back to initialize when discover is refused, keeps the session, and opens a new one when the server forgets it", async () => {
    let sessions = 0;
    let live = "";
    const legacy: Upstream = (message, headers) => {
      if (message.method === "server/discover") return json({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Server not initialized" } }, 400);
      if (message.method === "initialize") {
        live = `s${++sessions}`;
        const answer = sse({
          jsonrpc: "2.0",
          id: message.id,
          result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "x", version: "1" } },
        });
        answer.headers.set("mcp-session-id", live);
        return answer;
      }
      if (headers.get("mcp-session-id") !== live) return new Response("gone", { status: 404 });
      if (message.method === "notifications/initialized") return new Response(null, { status: 202 });
      expect(headers.get("mcp-protocol-version")).toBe("2025-11-25");
      return sse({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: `on ${live}` }] } });
    };
    const { remote } = module(legacy);
    expect(await remote.call("echo", {}, handlerContext())).toEqual({ content: [{ type: "text", text: "on s1" }] });
    expect(await remote.call("echo", {}, handlerContext())).toEqual({ content: [{ type: "text", text: "on s1" }] });
    live = "forgotten";
    expect(await remote.call("echo", {}, handlerContext())).toEqual({ content: [{ type: "text", text: "on s2" }] });
  });

  it("lists exposed tools under the prefix, leaves out a schema that does not compile alone, and caches the list for its ttlMs", async () => {
    const { remote, requests } = module(modern, { deny: ["get-env"] });
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const taken = new Set<string>(["up_taken"]);
    const parts = await collectRemoteModule(remote, taken, "tenant t: ");
    expect(parts.tools.map((tool) => tool.name)).toEqual(["up_echo"]);
    expect(errors.mock.calls.map((args) => String(args[0]))).toEqual([expect.stringMatching(/^edge-mcp: tenant t: module up: tool up_crooked is left out/)]);
    errors.mockRestore();
    await collectRemoteModule(remote, new Set(), "");
    expect(requests.filter((r) => r.message.method === "tools/list")).toHaveLength(1);
    expect(remote.stale()).toBe(false);
  });

  it("reads the list again when the upstream says list_changed on a call's stream, and relays progress and logs to the caller", async () => {
    let tools = TOOLS;
    const upstream: Upstream = (message) => {
      if (message.method === "tools/list") return result(message.id, { tools, ttlMs: 60_000 });
      if (message.method !== "tools/call") return modern(message, new Headers());
      const token = (message.params?.["_meta"] as Record<string, unknown>)["progressToken"];
      return sse(
        { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 1, total: 2 } },
        { jsonrpc: "2.0", method: "notifications/message", params: { level: "error", data: "careful" } },
        { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
        { jsonrpc: "2.0", id: message.id, result: { content: [] } },
      );
    };
    const { remote, requests } = module(upstream);
    const lists = () => requests.filter((request) => request.message.method === "tools/list").length;
    const announced: string[] = [];
    remote.onListChanged(async (waitUntil) => {
      waitUntil(Promise.resolve());
      announced.push("changed");
    });
    await remote.tools();
    const notes: unknown[] = [];
    await remote.call("echo", {}, handlerContext(notes, { progressToken: "caller-token", minLogRank: 0 }));
    expect(notes).toEqual([
      { method: "notifications/progress", params: { progressToken: "caller-token", progress: 1, total: 2 } },
      expect.objectContaining({ method: "notifications/message", params: expect.objectContaining({ level: "error", data: "careful" }) }),
    ]);
    // The same list read again: nothing to announce, and the cache is fresh.
    expect(lists()).toBe(2);
    expect(announced).toEqual([]);
    expect(remote.stale()).toBe(false);
    // A list that differs: the generation moves on and the listener is told before the call returns.
    tools = [...TOOLS, { name: "divide", inputSchema: { type: "object" } }];
    const generation = remote.generation;
    await remote.call("echo", {}, handlerContext());
    expect(lists()).toBe(3);
    expect(remote.generation).toBe(generation + 1);
    expect(announced).toEqual(["changed"]);
    expect((await remote.tools()).map((tool) => tool.name)).toContain("divide");
    expect(lists()).toBe(3);
  });

  it("names the module in every failure, bounds size and time, refuses redirects, and opens the breaker after repeated failures", async () => {
    let mode = "ok";
    const upstream: Upstream = async (message) => {
      if (message.method !== "tools/call") return modern(message, new Headers());
      if (mode === "500") return new Response("secret detail", { status: 500 });
      if (mode === "big") return json({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: "x".repeat(20_000) }] } });
      if (mode === "garbage") return new Response("{", { headers: { "content-type": "application/json" } });
      if (mode === "redirect") return new Response(null, { status: 302, headers: { location: "https://elsewhere.example/x" } });
      if (mode === "error") return json({ jsonrpc: "2.0", id: message.id, error: { code: -32602, message: "bad arguments" } });
      if (mode === "hang") return new Promise<Response>(() => {});
      return result(message.id, { content: [] });
    };
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const { remote } = module(upstream, { breaker: { failures: 3, cooldownMs: 60_000 } });
    const failure = async (next: string) => {
      mode = next;
      return remote.call("echo", {}, handlerContext()).then(
        () => "no failure",
        (error: Error) => error.message,
      );
    };
    expect(await failure("error")).toBe("module up: the upstream answered tool echo with error -32602: bad arguments");
    expect(await failure("500")).toBe("module up: tool echo failed: it answered HTTP 500");
    expect(await failure("big")).toBe("module up: tool echo failed: its answer is larger than 10000 bytes");
    expect(await failure("ok")).toBe("no failure");
    expect(await failure("garbage")).toBe("module up: tool echo failed: its answer is not valid JSON");
    expect(await failure("redirect")).toBe(
      "module up: tool echo failed: it answered with a redirect (HTTP 302 to https://elsewhere.example), which is not followed",
    );
    expect(remote.circuit).toBe("closed");
    expect(await failure("hang")).toBe("module up did not answer tool echo within 200 ms");
    expect(remote.circuit).toBe("open");
    expect(await failure("ok")).toMatch(/^module up is unavailable: its upstream failed repeatedly; it is tried again in \d+ s$/);
    expect(errors.mock.calls.join("\n")).not.toMatch(/s3cret/);
    errors.mockRestore();
  });

  it("asks the caller for what a 2025-11-25 upstream asks on the call's stream, and posts the answer back", async () => {
    const replies: unknown[] = [];
    const upstream: Upstream = (message) => {
      if (message.method === "server/discover") return new Response(null, { status: 405 });
      if (message.method === "initialize") {
        expect(message.params?.["capabilities"]).toEqual({ elicitation: {} });
        return result(message.id, { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "x", version: "1" } });
      }
      if (message.method === "notifications/initialized") return new Response(null, { status: 202 });
      if (message.method === undefined) {
        replies.push(message);
        return new Response(null, { status: 202 });
      }
      return sse(
        { jsonrpc: "2.0", id: 77, method: "elicitation/create", params: { message: "Your name?", requestedSchema: { type: "object", properties: {} } } },
        { jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: "thanks" }] } },
      );
    };
    const { remote } = module(upstream);
    const asked: unknown[] = [];
    const channel = {
      request: (requests: Record<string, unknown>) => {
        asked.push(requests);
        return Promise.resolve({ "upstream-0": { action: "accept", content: { name: "Ann" } } });
      },
    };
    const answer = await remote.call("echo", {}, handlerContext([], { channel }));
    expect(answer).toEqual({ content: [{ type: "text", text: "thanks" }] });
    expect(asked).toEqual([
      { "upstream-0": { method: "elicitation/create", params: { message: "Your name?", requestedSchema: { type: "object", properties: {} } } } },
    ]);
    expect(replies).toEqual([{ jsonrpc: "2.0", id: 77, result: { action: "accept", content: { name: "Ann" } } }]);
  });

  it("asks the caller for a 2026-07-28 upstream's input_required and calls again with the answers and its requestState", async () => {
    const calls: Record<string, unknown>[] = [];
    const upstream: Upstream = (message) => {
      if (message.method !== "tools/call") return modern(message, new Headers());
      calls.push(message.params ?? {});
      const meta = message.params?.["_meta"] as Record<string, unknown>;
      expect(meta["io.modelcontextprotocol/clientCapabilities"]).toEqual({ elicitation: {} });
      if (message.params?.["inputResponses"] === undefined) {
        return result(message.id, {
          resultType: "input_required",
          inputRequests: { who: { method: "elicitation/create", params: { message: "Who?", requestedSchema: { type: "object", properties: {} } } } },
          requestState: "state-1",
        });
      }
      return result(message.id, { resultType: "complete", content: [{ type: "text", text: `hello ${JSON.stringify(message.params["inputResponses"])}` }] });
    };
    const { remote } = module(upstream);
    const channel = { request: () => Promise.resolve({ who: { action: "accept", content: { name: "Bo" } } }) };
    const context = handlerContext([], { channel, clientCapabilities: { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } } });
    const result2 = await remote.call("echo", {}, context);
    expect(result2).toEqual({ content: [{ type: "text", text: 'hello {"who":{"action":"accept","content":{"name":"Bo"}}}' }] });
    expect(calls[1]).toMatchObject({ requestState: "state-1", inputResponses: { who: { action: "accept" } } });
  });

  it("refuses to call a URL the Worker says is itself", async () => {
    const { remote, requests } = module(modern, { refuse: () => "its url points at this Worker itself, which a remote module may not" });
    vi.spyOn(console, "error").mockImplementation(() => {});
    await expect(remote.tools()).rejects.toThrow("module up: tools/list failed: its url points at this Worker itself, which a remote module may not");
    expect(requests).toHaveLength(0);
    vi.restoreAllMocks();
  });
});
