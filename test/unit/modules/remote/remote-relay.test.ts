// What a remote module relays besides tools, against an in-memory upstream: cancellation told to a 2025-11-25
// upstream before its request closes, and the upstream's resources, templates and prompts under the prefix.
import { describe, expect, it, vi } from "vitest";
import { collectRemoteExtras, remoteUri, upstreamUri } from "../../../../src/modules/remote/remote-extras.ts";
import { RemoteModule } from "../../../../src/modules/remote/remote-module.ts";
import { handlerContext } from "../../context.ts";

type Message = { id?: number; method?: string; params?: Record<string, unknown> };
type Upstream = (message: Message) => Response | Promise<Response>;

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const result = (id: number | undefined, value: Record<string, unknown>) => json({ jsonrpc: "2.0", id, result: value });

/** A module over `upstream`, and every message it sent with whether its request was aborted by then. */
function module(upstream: Upstream, protocol: "2025-11-25" | "2026-07-28") {
  const sent: { message: Message; signal: AbortSignal }[] = [];
  const fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
    const message = JSON.parse(init?.body as string) as Message;
    const signal = init?.signal as AbortSignal;
    sent.push({ message, signal });
    const aborted = new Promise<never>((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason as Error)));
    return Promise.race([upstream(message), aborted]);
  });
  const remote = new RemoteModule({
    name: "up",
    prefix: "up",
    url: new URL("https://upstream.example/mcp"),
    protocol,
    headers: {},
    timeoutMs: 500,
    maxResponseBytes: 10_000,
    fetch,
  });
  return { remote, sent };
}

const session: Upstream = (message) => {
  if (message.method === "initialize")
    return result(message.id, { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "x", version: "1" } });
  if (message.id === undefined) return new Response(null, { status: 202 });
  // A call never answers: it waits to be cancelled.
  return new Promise<Response>(() => {});
};

describe("cancellation of a call", () => {
  it("tells a 2025-11-25 upstream notifications/cancelled for the call's id, before its request is closed", async () => {
    const { remote, sent } = module(session, "2025-11-25");
    const cancel = new AbortController();
    const call = remote.call("slow", {}, handlerContext([], { signal: cancel.signal }));
    await vi.waitFor(() => expect(sent.some((entry) => entry.message.method === "tools/call")).toBe(true));
    cancel.abort(new DOMException("changed my mind", "AbortError"));
    await expect(call).rejects.toThrow(/changed my mind/);
    const request = sent.find((entry) => entry.message.method === "tools/call") as { message: Message; signal: AbortSignal };
    const notice = sent.find((entry) => entry.message.method === "notifications/cancelled") as { message: Message; signal: AbortSignal };
    expect(notice.message.params).toEqual({ requestId: request.message.id, reason: "cancelled by the caller or its time limit" });
    expect(request.signal.aborted).toBe(true);
    // Cancelled by its caller, the upstream is not at fault.
    expect(remote.circuit).toBe("closed");
  });

  it("tells it too when the module's time limit passes, and the call fails naming the module", async () => {
    const { remote, sent } = module(session, "2025-11-25");
    await expect(remote.call("slow", {}, handlerContext())).rejects.toThrow(/module up did not answer tool slow within 500 ms/);
    expect(sent.filter((entry) => entry.message.method === "notifications/cancelled")).toHaveLength(1);
  });

  it("closes a 2026-07-28 request without a notification (that revision's cancellation)", async () => {
    const modern: Upstream = (message) => (message.method === "tools/call" ? new Promise<Response>(() => {}) : json({}, 404));
    const { remote, sent } = module(modern, "2026-07-28");
    const cancel = new AbortController();
    const call = remote.call("slow", {}, handlerContext([], { signal: cancel.signal }));
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    cancel.abort(new DOMException("gone", "AbortError"));
    await expect(call).rejects.toThrow(/gone/);
    expect(sent.map((entry) => [entry.message.method, entry.signal.aborted])).toEqual([["tools/call", true]]);
  });
});

describe("resources, templates and prompts of an upstream", () => {
  const rich: Upstream = (message) => {
    const id = message.id;
    switch (message.method) {
      case "initialize":
        return result(id, { protocolVersion: "2025-11-25", capabilities: { tools: {}, resources: {}, prompts: {} }, serverInfo: { name: "x", version: "1" } });
      case "resources/list":
        return result(id, {
          resources: [
            { uri: "demo://doc/1", name: "one", mimeType: "text/plain" },
            { uri: 7, name: "no uri" },
          ],
        });
      case "resources/templates/list":
        return result(id, { resourceTemplates: [{ uriTemplate: "demo://doc/{id}", name: "docs" }] });
      case "resources/read": {
        const uri = String(message.params?.["uri"]);
        if (uri === "demo://doc/9") return json({ jsonrpc: "2.0", id, error: { code: -32002, message: "Resource not found" } });
        return result(id, { contents: [{ uri, mimeType: "text/plain", text: `body of ${uri}` }] });
      }
      case "prompts/list":
        return result(id, { prompts: [{ name: "greet", arguments: [{ name: "who", required: true }] }] });
      case "prompts/get":
        return result(id, {
          description: "a greeting",
          messages: [{ role: "user", content: { type: "text", text: `hello ${String((message.params?.["arguments"] as Record<string, string>)["who"])}` } }],
        });
      default:
        return message.id === undefined ? new Response(null, { status: 202 }) : result(id, { tools: [] });
    }
  };

  it("lists them under the prefix with URIs that round-trip, and forwards reads and gets", async () => {
    expect(upstreamUri("up", remoteUri("up", "demo://a/b?c=d#e"))).toBe("demo://a/b?c=d#e");
    expect(upstreamUri("up", "mcp-remote://other/demo://a")).toBeUndefined();
    expect(upstreamUri("up", "mcp-remote://up/")).toBeUndefined();
    const { remote } = module(rich, "2025-11-25");
    await remote.tools();
    const extras = await collectRemoteExtras(remote, () => {});
    expect(extras.resources.map((resource) => [resource.uri, resource.name, resource.mimeType])).toEqual([
      ["mcp-remote://up/demo://doc/1", "one", "text/plain"],
    ]);
    expect(extras.templates.map((template) => template.uriTemplate)).toEqual(["mcp-remote://up/demo://doc/{id}"]);
    expect(extras.prompts.map((prompt) => [prompt.name, prompt.arguments])).toEqual([["up_greet", [{ name: "who", required: true }]]]);
    const ctx = handlerContext();
    const read = await extras.resources[0]?.read({ uri: "mcp-remote://up/demo://doc/1" }, ctx);
    expect(read).toEqual([{ uri: "mcp-remote://up/demo://doc/1", mimeType: "text/plain", text: "body of demo://doc/1" }]);
    const templated = await extras.templates[0]?.read({ uri: "mcp-remote://up/demo://doc/5", variables: { id: "5" } }, ctx);
    expect(templated).toEqual([{ uri: "mcp-remote://up/demo://doc/5", mimeType: "text/plain", text: "body of demo://doc/5" }]);
    await expect(Promise.resolve(extras.templates[0]?.read({ uri: "mcp-remote://up/demo://doc/9", variables: { id: "9" } }, ctx))).rejects.toThrow(
      /module up: the upstream answered resource demo:\/\/doc\/9 with error -32002: Resource not found/,
    );
    await expect(Promise.resolve(extras.resources[0]?.read({ uri: "mcp-remote://elsewhere/x" }, ctx))).rejects.toThrow(/is not one of its resources/);
    expect(await extras.prompts[0]?.get({ who: "Ann" }, ctx)).toEqual({
      description: "a greeting",
      messages: [{ role: "user", content: { type: "text", text: "hello Ann" } }],
    });
  });

  it("does not ask an upstream for lists its capabilities lack, and leaves out a list that fails, logged", async () => {
    const { remote, sent } = module(session, "2025-11-25");
    await remote.send("ping", {}, "ping").catch(() => {});
    const lines: string[] = [];
    expect(await collectRemoteExtras(remote, (line) => lines.push(line))).toMatchObject({ resources: [], templates: [], prompts: [], catalog: null });
    expect(sent.map((entry) => entry.message.method)).not.toContain("resources/list");
    const broken: Upstream = (message) => {
      if (message.method === "initialize")
        return result(message.id, { protocolVersion: "2025-11-25", capabilities: { resources: {}, prompts: {} }, serverInfo: { name: "x", version: "1" } });
      if (message.id === undefined) return new Response(null, { status: 202 });
      if (message.method === "resources/list") return result(message.id, { resources: "many" });
      if (message.method === "prompts/list") return json({ jsonrpc: "2.0", id: message.id, error: { code: -32603, message: "Internal error" } });
      // Method not found: it has none (a module that never learnt its capabilities asks anyway), not logged.
      return json({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
    };
    const other = module(broken, "2025-11-25");
    await other.remote.send("ping", {}, "ping").catch(() => {});
    expect(await collectRemoteExtras(other.remote, (line) => lines.push(line))).toMatchObject({ resources: [], templates: [], prompts: [] });
    expect(lines).toEqual([
      "its resources are left out: its resources/list result has no resources array",
      "its prompts are left out: the upstream answered prompts/list with error -32603: Internal error",
    ]);
  });
});
