// remoteServers(): other MCP servers as modules of a single-tenant Worker (createWorker's services option).
import { describe, expect, it, vi } from "vitest";
import { createMcpApp } from "../../../src/http/mcp-app.ts";
import { defineTool } from "../../../src/server/tools/tool.ts";
import { remoteServers } from "../../../src/workers/remote-servers.ts";
import { modern } from "../app-client.ts";

const hello = defineTool({ name: "hello", description: "Says hello.", inputSchema: { type: "object" }, handler: () => "hi" });
const base = { info: { name: "t", version: "1" }, tools: [hello] };

/** A 2026-07-28 upstream that checks the bearer credential. */
function upstream(seen: string[]): typeof fetch {
  return async (_url: string | URL | Request, init?: RequestInit) => {
    const message = JSON.parse(init?.body as string) as { id: number; method: string; params: Record<string, unknown> };
    seen.push(`${message.method} ${new Headers(init?.headers).get("authorization")}`);
    const result = (value: Record<string, unknown>) =>
      new Response(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: value }), { headers: { "content-type": "application/json" } });
    if (message.method === "server/discover") return result({ supportedVersions: ["2026-07-28"], ttlMs: 0, cacheScope: "public", capabilities: {} });
    if (message.method === "tools/list")
      return result({
        tools: [
          { name: "echo", inputSchema: { type: "object" } },
          { name: "get-env", inputSchema: { type: "object" } },
        ],
        ttlMs: 60000,
        cacheScope: "public",
      });
    return result({ content: [{ type: "text", text: `echo ${JSON.stringify(message.params["arguments"])}` }] });
  };
}

describe("remoteServers", () => {
  it("adds an upstream's tools under its prefix to the Worker's own, the credential read from its secret", async () => {
    const seen: string[] = [];
    const services = remoteServers([{ urlVar: "UP_URL", prefix: "up", auth: { secret: "UP_TOKEN" }, deny: ["get-env"] }], { fetch: upstream(seen) });
    const server = await services.server(base, { UP_URL: "https://up.example/mcp", UP_TOKEN: "tok" }, () => {});
    const app = createMcpApp({ server, allow: { hosts: ["localhost"] } });
    const names = ((await modern(app, "tools/list")).body["result"] as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(names).toEqual(["hello", "up_echo"]);
    expect((await modern(app, "tools/call", { name: "up_echo", arguments: { a: 1 } })).body["result"]).toMatchObject({ content: [{ text: 'echo {"a":1}' }] });
    expect(seen).toEqual(["server/discover Bearer tok", "tools/list Bearer tok", "tools/call Bearer tok"]);
  });

  it("says which binding is missing, and refuses plain http outside development", async () => {
    const missing = remoteServers([{ urlVar: "UP_URL", prefix: "up", auth: { secret: "UP_TOKEN" } }], { fetch: upstream([]) });
    await expect(missing.server(base, { UP_URL: "https://up.example/mcp" }, () => {})).rejects.toThrow(
      /module up: auth\.secret names the binding UP_TOKEN, which is not set/,
    );
    const plain = remoteServers([{ url: "http://127.0.0.1:3001/mcp", prefix: "up" }], { fetch: upstream([]) });
    await expect(plain.server(base, {}, () => {})).rejects.toThrow(/plain http, which is allowed only in development/);
    vi.spyOn(console, "error").mockImplementation(() => {});
    const dev = remoteServers([{ url: "http://127.0.0.1:3001/mcp", prefix: "up" }], { fetch: upstream([]) });
    expect(await dev.server(base, { MCP_DEV: "true" }, () => {})).toBeDefined();
    vi.restoreAllMocks();
  });

  it("checks its list when it is made", () => {
    expect(() => remoteServers([])).toThrow(/needs a list/);
    expect(() =>
      remoteServers([
        { url: "https://a.example/mcp", prefix: "a" },
        { url: "https://b.example/mcp", prefix: "a" },
      ]),
    ).toThrow(/\[1\]\.prefix a is used twice/);
    expect(() => remoteServers([{ url: "https://a.example/mcp", prefix: "a", headers: { "X-Key": "inline secret" } }])).toThrow(
      /\[0\]\.headers\.X-Key must be the name of the secret binding/,
    );
  });

  it("refuses a server that is the Worker itself: a host the Worker was reached at", async () => {
    const seen: string[] = [];
    vi.spyOn(console, "error").mockImplementation(() => {});
    const services = remoteServers([{ url: "https://gw.example/mcp", prefix: "up" }], { fetch: upstream(seen) });
    const serverOf = services.serversOf(base, {});
    const server = await serverOf({}, undefined, new Request("https://gw.example/mcp", { method: "POST" }));
    const app = createMcpApp({ server, allow: { hosts: ["localhost"] } });
    const call = (await modern(app, "tools/call", { name: "up_echo", arguments: {} })).body["result"] as { isError: boolean; content: { text: string }[] };
    expect(call.isError).toBe(true);
    expect(call.content[0]?.text).toMatch(/module up is unavailable: its tools cannot be listed: .*its url points at this Worker itself/);
    expect(seen).toEqual([]);
    vi.restoreAllMocks();
  });

  it("builds the server again before a call returns when the upstream said list_changed and its list differs, and announces it", async () => {
    let tools = [{ name: "echo", inputSchema: { type: "object" } }];
    const fetch = (async (_url: string | URL | Request, init?: RequestInit) => {
      const message = JSON.parse(init?.body as string) as { id: number; method: string };
      const body = (value: Record<string, unknown>) => ({ jsonrpc: "2.0", id: message.id, result: value });
      if (message.method === "server/discover") return Response.json(body({ supportedVersions: ["2026-07-28"], capabilities: { tools: {} } }));
      if (message.method === "tools/list") return Response.json(body({ tools, ttlMs: 60_000 }));
      tools = [...tools, { name: "grown", inputSchema: { type: "object" } }];
      const events = [{ jsonrpc: "2.0", method: "notifications/tools/list_changed" }, body({ content: [{ type: "text", text: "grew" }] })];
      return new Response(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(""), { headers: { "content-type": "text/event-stream" } });
    }) as typeof globalThis.fetch;
    const services = remoteServers([{ url: "https://up.example/mcp", prefix: "up" }], { fetch });
    const env = {};
    const announced: unknown[] = [];
    const changed = (previous: unknown, waitUntil?: unknown) => void announced.push([previous, typeof waitUntil]);
    const first = await services.server(base, env, changed);
    const app = createMcpApp({ server: first, allow: { hosts: ["localhost"] } });
    expect((await modern(app, "tools/call", { name: "up_echo", arguments: {} })).body["result"]).toMatchObject({ content: [{ text: "grew" }] });
    expect(announced).toEqual([[first, "function"]]);
    const second = await services.server(base, env, changed);
    expect(second).not.toBe(first);
    const names = (
      (await modern(createMcpApp({ server: second, allow: { hosts: ["localhost"] } }), "tools/list")).body["result"] as { tools: { name: string }[] }
    ).tools;
    expect(names.map((tool) => tool.name)).toEqual(["hello", "up_echo", "up_grown"]);
  });
});
