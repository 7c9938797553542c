// observability() with nothing on for an env (no OTEL endpoint, no usage binding, no provider registered):
// the request takes the path of a Worker without it (no observation, its URL and headers unread); with only
// MCP_ADMIN_TOKEN, the usage view answers and MCP requests are still not observed.
import { describe, expect, it } from "vitest";
import { newTrace } from "../../src/http/admission/admitted.ts";
import { createServer } from "../../src/server/server.ts";
import { defineTool } from "../../src/server/tools/tool.ts";
import { createWorker, observability } from "../../src/workers/index.ts";

const TOKEN = "off-path-admin-token";
const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
const add = defineTool({
  name: "add",
  description: "Adds.",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  handler: (args) => String(args["a"] + args["b"]),
});

/** A request that fails the test if anything reads its URL or its headers. */
function untouchable(method = "POST"): Request {
  return {
    method,
    get url(): string {
      throw new Error("the URL was read");
    },
    get headers(): Headers {
      throw new Error("the headers were read");
    },
  } as unknown as Request;
}

function call(path: string, headers: Record<string, string> = {}): Request {
  return new Request(`http://127.0.0.1:8787${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", arguments: { a: 2, b: 3 } } }),
  });
}

describe("observability() with nothing on", () => {
  it("observes no request and reads neither its URL nor its headers", () => {
    const observe = observability();
    const env = {};
    expect(observe.adminRoute(untouchable(), env)).toBeUndefined();
    expect(observe.observer(env).begin(untouchable(), newTrace(), "default")).toBeUndefined();
  });

  it("answers calls as a Worker without it does, and leaves /admin/usage to the app's 404", async () => {
    const server = createServer({ info: { name: "off", version: "1" }, tools: [add] });
    const observed = createWorker(server, { observe: observability() });
    const plain = createWorker(server);
    const [a, b] = [await observed.fetch(call("/mcp") as never, {}, ctx), await plain.fetch(call("/mcp") as never, {}, ctx)];
    expect(a.status).toBe(200);
    expect(await a.text()).toBe(await b.text());
    const view = await observed.fetch(new Request("http://127.0.0.1:8787/admin/usage?tenant=acme") as never, {}, ctx);
    expect(view.status).toBe(404);
    expect(await view.text()).toContain("the MCP endpoint is /mcp");
  });
});

describe("observability() with only MCP_ADMIN_TOKEN", () => {
  it("serves the usage view and still observes no MCP request", async () => {
    const observe = observability();
    const env = { MCP_ADMIN_TOKEN: TOKEN };
    expect(observe.observer(env).begin(untouchable(), newTrace(), "default")).toBeUndefined();
    expect(observe.adminRoute(call("/mcp"), env)).toBeUndefined();
    const refused = await observe.adminRoute(new Request("http://127.0.0.1/admin/usage?tenant=acme"), env);
    expect(refused?.status).toBe(401);
    const answered = await observe.adminRoute(new Request("http://127.0.0.1/admin/usage?tenant=acme", { headers: { authorization: `Bearer ${TOKEN}` } }), env);
    // No roll-ups bound: the view says which binding to add.
    expect(answered?.status).toBe(501);
  });
});
