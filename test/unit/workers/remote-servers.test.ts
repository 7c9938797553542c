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
});
