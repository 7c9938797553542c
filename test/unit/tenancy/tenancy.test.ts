// Tenant configs: validation naming tenant and field, resolution, caching, service modules and isolation.
import { describe, expect, it, vi } from "vitest";
import { DefinitionError } from "../../../src/core/definition-error.ts";
import { ErrorCode, ProtocolError } from "../../../src/core/errors.ts";
import type { CallToolResult } from "../../../src/core/types.ts";
import { createMcpApp } from "../../../src/http/mcp-app.ts";
import type { ToolService } from "../../../src/modules/service-contract.ts";
import { createServer } from "../../../src/server/server.ts";
import { defineTool } from "../../../src/server/tools/tool.ts";
import { parseTenantConfig, parseTenantsDocument } from "../../../src/tenancy/tenant-config.ts";
import { TenantDirectory } from "../../../src/tenancy/tenant-directory.ts";
import { createCachedConfig } from "../../../src/tenancy/tenant-source.ts";
import { modern } from "../app-client.ts";
import { request } from "../app-client.ts";

const hello = defineTool({ name: "hello", description: "Says hello.", inputSchema: { type: "object" }, handler: () => "hi" });
const MODULES = { greetings: { tools: [hello] } };
const base = { id: "acme", hosts: ["acme.example.com"], modules: [{ name: "greetings" }] };

function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as Error).message;
  }
  throw new Error("expected a DefinitionError");
}

describe("parseTenantConfig", () => {
  it("accepts a full config", () => {
    const config = parseTenantConfig({
      ...base,
      pathPrefix: "/t/acme",
      allowedOrigins: ["https://app.acme.com"],
      legacySessions: true,
      revisions: ["2026-07-28"],
      server: { name: "acme", instructions: "…" },
      limits: { maxBodyBytes: 1000, toolTimeoutMs: 500, bodyTimeoutMs: 2000 },
      quotas: { handles: { perPrincipal: 5 }, sessions: { perPrincipal: 2, perTenant: 100, anonymous: 20 }, streams: { perPrincipal: 4 } },
      rateLimits: { tenant: "LIMIT", retryAfterSeconds: 10 },
      notifications: { shards: 4, maxQueuedBytes: 8192, heartbeatMs: 5000 },
      modules: [{ name: "greetings" }, { name: "weather", service: "WEATHER", prefix: "wx", timeoutMs: 2000 }],
    });
    expect(config.modules[1]).toEqual({ name: "weather", service: "WEATHER", prefix: "wx", timeoutMs: 2000 });
    expect(config.quotas).toEqual({ handles: { perPrincipal: 5 }, sessions: { perPrincipal: 2, perTenant: 100, anonymous: 20 }, streams: { perPrincipal: 4 } });
    expect(config.limits?.bodyTimeoutMs).toBe(2000);
    expect(config.notifications).toEqual({ shards: 4, maxQueuedBytes: 8192, heartbeatMs: 5000 });
  });

  it.each([
    [{ ...base, id: "Acme!" }, /tenant Acme!: id must be/],
    [{ ...base, hosts: undefined }, /tenant acme: hosts or pathPrefix is required/],
    [{ ...base, pathPrefix: "t/acme/" }, /tenant acme: pathPrefix must be a path/],
    [{ ...base, modules: [] }, /tenant acme: modules must list at least one module/],
    [{ ...base, modules: [{ name: "x y" }] }, /tenant acme: modules\[0\]\.name must be/],
    [{ ...base, modules: [{ name: "w", service: "not a binding" }] }, /tenant acme: modules\[0\]\.service must be a binding name/],
    [{ ...base, modules: [{ name: "w", timeoutMs: -1 }] }, /tenant acme: modules\[0\]\.timeoutMs must be a positive integer/],
    [{ ...base, modules: [{ name: "w", colour: "red" }] }, /tenant acme: modules\[0\]\.colour is not a known field/],
    [{ ...base, revisions: ["1999-01-01"] }, /tenant acme: revisions names 1999-01-01/],
    [{ ...base, legacySessions: "yes" }, /tenant acme: legacySessions must be true or false/],
    [{ ...base, limits: { maxBodyBytes: 0 } }, /tenant acme: limits.maxBodyBytes must be a positive integer/],
    [{ ...base, rateLimits: { tool: "a-b" } }, /tenant acme: rateLimits.tool must be a rate limiting binding name/],
    [{ ...base, hosts: ["Bad Host"] }, /tenant acme: hosts must be an array of strings matching/],
    [{ ...base, colour: "red" }, /tenant acme: colour is not a known field/],
    [{ ...base, limits: { bodyTimeout: 5 } }, /tenant acme: limits.bodyTimeout is not a known field/],
    [{ ...base, limits: { bodyTimeoutMs: 0 } }, /tenant acme: limits.bodyTimeoutMs must be a positive integer/],
    [{ ...base, quotas: [] }, /tenant acme: quotas must be an object/],
    [{ ...base, quotas: { widgets: {} } }, /tenant acme: quotas.widgets is not a known field \(handles, sessions, tasks, streams\)/],
    [{ ...base, quotas: { handles: 5 } }, /tenant acme: quotas.handles must be an object with perPrincipal/],
    [{ ...base, quotas: { handles: { perCaller: 5 } } }, /tenant acme: quotas.handles.perCaller is not a known field/],
    [{ ...base, quotas: { sessions: { perTenant: -1 } } }, /tenant acme: quotas.sessions.perTenant must be a positive integer/],
    [{ ...base, quotas: { streams: { anonymous: 0 } } }, /tenant acme: quotas.streams.anonymous must be a positive integer/],
    [{ ...base, notifications: 4 }, /tenant acme: notifications must be an object/],
    [{ ...base, notifications: { shards: 0 } }, /tenant acme: notifications.shards must be a positive integer/],
    [{ ...base, notifications: { shards: 2.5 } }, /tenant acme: notifications.shards must be a positive integer/],
    [{ ...base, notifications: { shards: 65 } }, /tenant acme: notifications.shards must be at most 64/],
    [{ ...base, notifications: { shards: "4" } }, /tenant acme: notifications.shards must be a positive integer/],
    [{ ...base, notifications: { maxQueuedBytes: -1 } }, /tenant acme: notifications.maxQueuedBytes must be a positive integer/],
    [{ ...base, notifications: { shard: 2 } }, /tenant acme: notifications.shard is not a known field/],
    [{ ...base, notifications: { heartbeatMs: 50 } }, /tenant acme: notifications.heartbeatMs must be from 100 to 300000/],
    [{ ...base, notifications: { heartbeatMs: 0 } }, /tenant acme: notifications.heartbeatMs must be a positive integer/],
  ])("refuses %j, naming tenant and field", (config, message) => {
    expect(failure(() => parseTenantConfig(config))).toMatch(message);
  });

  it("refuses duplicate ids, hosts and path prefixes across tenants", () => {
    expect(failure(() => parseTenantsDocument({ tenants: [base, { ...base, hosts: ["other.example.com"] }] }))).toMatch(
      /tenant acme: id acme is already used by tenant acme/,
    );
    expect(failure(() => parseTenantsDocument({ tenants: [base, { ...base, id: "globex" }] }))).toMatch(
      /tenant globex: host acme.example.com is already used by tenant acme/,
    );
    expect(failure(() => parseTenantsDocument({ tenants: [] as unknown[] }.tenants))).toMatch(/tenants document/);
  });
});

function service(impl: Partial<ToolService>): ToolService {
  return {
    describe: async () => ({ tools: [{ name: "forecast", description: "Forecast.", inputSchema: { type: "object" } }] }),
    callTool: async (): Promise<CallToolResult> => ({ content: [{ type: "text", text: "sunny" }] }),
    ...impl,
  };
}

function directory(tenants: unknown[], services: Record<string, ToolService> = {}) {
  return new TenantDirectory(parseTenantsDocument({ tenants }), { modules: MODULES, service: (name) => services[name], info: { name: "t", version: "1" } });
}

describe("TenantDirectory", () => {
  const tenants = [
    base,
    { id: "globex", pathPrefix: "/t/globex", modules: [{ name: "greetings" }] },
    { id: "deep", pathPrefix: "/t/globex/deep", modules: [{ name: "greetings" }] },
  ];
  const req = (host: string) => new Request(`http://${host}/`, { headers: { host } });

  it("resolves by host first, then by the longest path prefix", () => {
    const dir = directory(tenants);
    expect(dir.resolve(req("acme.example.com:8787"), "/mcp")).toMatchObject({ tenant: { id: "acme" }, path: "/mcp" });
    expect(dir.resolve(req("127.0.0.1"), "/t/globex/mcp")).toMatchObject({ tenant: { id: "globex" }, path: "/t/globex/mcp" });
    expect(dir.resolve(req("127.0.0.1"), "/t/globex/deep/mcp")).toMatchObject({ tenant: { id: "deep" } });
    expect(dir.resolve(req("127.0.0.1"), "/t/globexx/mcp")).toBeUndefined();
    expect(dir.resolve(req("other.example.com"), "/mcp")).toBeUndefined();
  });

  it("sets aside a tenant with an unknown bundled module or colliding tool names at load, serving the others", () => {
    const other = { ...base, id: "other", hosts: ["other.example.com"] };
    const unknown = directory([{ ...base, modules: [{ name: "nope" }] }, other]);
    expect(unknown.tenants.map((t) => t.id)).toEqual(["other"]);
    expect(unknown.broken.map((b) => b.problem)).toEqual([expect.stringMatching(/tenant acme: modules names nope, which this Worker does not bundle/)]);
    expect(unknown.unavailable(new Request("https://acme.example.com/mcp"), "/mcp")?.label).toBe("acme");
    expect(unknown.resolve(new Request("https://other.example.com/mcp"), "/mcp")?.tenant.id).toBe("other");
    expect(directory([{ ...base, modules: [{ name: "greetings" }, { name: "greetings" }] }]).broken[0]?.problem).toMatch(
      /tenant acme: tool hello of module greetings collides/,
    );
    expect(directory([{ ...base, modules: [{ name: "greetings" }, { name: "greetings", prefix: "again" }] }]).broken).toEqual([]);
  });

  it("leaves out alone a service tool whose declaration is wrong, logging the tool, the module and the reason", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const config = { ...base, modules: [{ name: "greetings" }, { name: "weather", service: "WEATHER" }] };
    const services = {
      WEATHER: service({
        describe: async () => ({
          tools: [
            { name: "forecast", description: "Forecast.", inputSchema: { type: "object" } },
            { name: "typo", description: "A mistyped schema.", inputSchema: { type: "object", properties: { n: { type: "integr" } }, required: "n" } },
            { name: "bad name!", description: "Not a tool name.", inputSchema: { type: "object" } },
          ],
        }),
      }),
    };
    const server = await directory([config], services).server(parseTenantConfig(config));
    const app = createMcpApp({ server, tenant: "acme", allow: { hosts: ["acme.example.com"] } });
    const names = ((await modern(app, "tools/list")).body["result"] as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toEqual(["hello", "weather_forecast"]);
    const log = errors.mock.calls.flat().join("\n");
    expect(log).toMatch(
      /edge-mcp: tenant acme: module weather: tool weather_typo is left out: tool weather_typo inputSchema: .*properties\.n\.type: "integr" is not a JSON Schema type/,
    );
    expect(log).toMatch(/edge-mcp: tenant acme: module weather: tool weather_bad name! is left out: tool name "weather_bad name!" must be/);
    vi.restoreAllMocks();
  });

  it("lists a service's tools with the prefix and isolates a failing, hanging or unbound module", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const config = {
      ...base,
      modules: [
        { name: "greetings" },
        { name: "weather", service: "WEATHER", timeoutMs: 50 },
        { name: "broken", service: "BROKEN" },
        { name: "slow", service: "SLOW", timeoutMs: 50 },
        { name: "ghost", service: "GHOST" },
      ],
    };
    const services = {
      WEATHER: service({ callTool: async (name, _args, context) => ({ content: [{ type: "text", text: `${name} for ${context.tenant}` }] }) }),
      BROKEN: service({ describe: async () => Promise.reject(new Error("cannot describe")) }),
      SLOW: service({ describe: () => new Promise(() => {}) }),
    };
    const server = await directory([config], services).server(parseTenantConfig(config));
    const app = createMcpApp({ server, tenant: "acme", allow: { hosts: ["acme.example.com"] } });
    const names = ((await modern(app, "tools/list")).body["result"] as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toEqual(["hello", "weather_forecast"]);
    expect((await modern(app, "tools/call", { name: "weather_forecast", arguments: {} })).body["result"]).toMatchObject({
      content: [{ text: "forecast for acme" }],
    });
    for (const [tool, message] of [
      ["broken_x", /module broken is unavailable: module broken: describe\(\) failed$/],
      ["slow_x", /module slow is unavailable: module slow did not answer describe\(\) within 50 ms/],
      ["ghost_x", /module ghost is unavailable: its service binding GHOST is not bound/],
    ] as const) {
      const result = (await modern(app, "tools/call", { name: tool, arguments: {} })).body["result"] as { isError: boolean; content: { text: string }[] };
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toMatch(message);
    }
    expect((await modern(app, "tools/call", { name: "hello", arguments: {} })).body["result"]).toMatchObject({ content: [{ text: "hi" }] });
    vi.restoreAllMocks();
  });

  it("times out a hanging service call and names the module", async () => {
    const config = { ...base, modules: [{ name: "weather", service: "WEATHER", timeoutMs: 30 }] };
    const services = { WEATHER: service({ callTool: () => new Promise(() => {}) }) };
    const app = createMcpApp({ server: await directory([config], services).server(parseTenantConfig(config)), allow: { hosts: ["acme.example.com"] } });
    const result = (await modern(app, "tools/call", { name: "weather_forecast", arguments: {} })).body["result"] as {
      isError: boolean;
      content: { text: string }[];
    };
    expect(result).toMatchObject({ isError: true });
    expect(result.content[0]?.text).toMatch(/module weather did not answer tool forecast within 30 ms/);
  });
});

describe("what a service throws stays in the log", () => {
  const SECRET = "postgres://admin:hunter2-fake-password@db.internal/prod";

  it("answers a throwing tool call with 'module X failed' and logs the service's message with module and tool", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const config = { ...base, modules: [{ name: "weather", service: "WEATHER" }] };
    const services = { WEATHER: service({ callTool: async () => Promise.reject(new Error(`connect failed: ${SECRET}`)) }) };
    const app = createMcpApp({ server: await directory([config], services).server(parseTenantConfig(config)), allow: { hosts: ["acme.example.com"] } });
    const reply = await modern(app, "tools/call", { name: "weather_forecast", arguments: {} });
    expect(reply.body["result"]).toMatchObject({ content: [{ type: "text", text: "Tool weather_forecast failed: module weather failed" }], isError: true });
    expect(JSON.stringify(reply.body)).not.toContain("hunter2");
    expect(errors.mock.calls.map((c) => c.join(" ")).join("\n")).toContain(`edge-mcp: module weather: tool forecast failed: connect failed: ${SECRET}`);
    vi.restoreAllMocks();
  });

  it("answers calls of a module whose describe() threw without its message, and logs the message", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const config = { ...base, modules: [{ name: "greetings" }, { name: "broken", service: "BROKEN" }] };
    const services = { BROKEN: service({ describe: async () => Promise.reject(new Error(SECRET)) }) };
    const app = createMcpApp({ server: await directory([config], services).server(parseTenantConfig(config)), allow: { hosts: ["acme.example.com"] } });
    const reply = await modern(app, "tools/call", { name: "broken_x", arguments: {} });
    expect(reply.body["result"]).toMatchObject({
      isError: true,
      content: [{ text: "Tool broken_x failed: module broken is unavailable: module broken: describe() failed" }],
    });
    expect(JSON.stringify(reply.body)).not.toContain("hunter2");
    expect(errors.mock.calls.map((c) => c.join(" ")).join("\n")).toContain(`edge-mcp: module broken: describe() failed: ${SECRET}`);
    vi.restoreAllMocks();
  });
});

describe("per-tenant isolation and limits", () => {
  const ask = defineTool({
    name: "ask",
    description: "Asks the user a question.",
    inputSchema: { type: "object" },
    handler: async (_args, ctx) => (await ctx.elicit({ message: "?", requestedSchema: { type: "object", properties: {} } }, { key: "q" })).action,
  });
  const server = createServer({ info: { name: "t", version: "1" }, tools: [ask] });
  const caps = { "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };

  it("refuses a requestState minted for another tenant", async () => {
    const a = createMcpApp({ server, tenant: "a", stateSecret: "shared" });
    const b = createMcpApp({ server, tenant: "b", stateSecret: "shared" });
    const first = (await modern(a, "tools/call", { name: "ask", arguments: {} }, caps)).body["result"] as { requestState: string };
    const retry = { name: "ask", arguments: {}, inputResponses: { q: { action: "accept", content: {} } }, requestState: first.requestState };
    expect((await modern(b, "tools/call", retry, caps)).body["error"]).toMatchObject({ code: -32602 });
    expect((await modern(a, "tools/call", retry, caps)).body["result"]).toMatchObject({ content: [{ text: "accept" }] });
  });

  it("answers 429 with Retry-After and a JSON-RPC error once a limit is reached", async () => {
    const seen: unknown[] = [];
    let calls = 0;
    const app = createMcpApp({
      server,
      tenant: "a",
      rateLimiter: {
        check: async (admission, tool) => {
          seen.push({ tenant: admission.tenant, principal: admission.principal, tool });
          return ++calls > 2 ? 30 : undefined;
        },
      },
    });
    expect((await modern(app, "tools/list")).status).toBe(200);
    expect((await modern(app, "server/discover")).status).toBe(200);
    const response = await request(app, "http://localhost/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "ask" } }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("30");
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 9,
      error: { code: -31429, message: "Rate limit exceeded: retry after 30 s", data: { retryAfterSeconds: 30 } },
    });
    expect(seen.at(-1)).toEqual({ tenant: "a", principal: undefined, tool: "ask" });
  });

  it("writes one access log line per request, without arguments or tokens", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: unknown) => {
      lines.push(String(line));
    });
    const app = createMcpApp({ server, tenant: "a", accessLog: true });
    await request(app, "http://localhost/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: "Bearer secret-token" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "ask", arguments: { password: "hunter2" } } }),
    });
    vi.restoreAllMocks();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      event: "mcp.request",
      tenant: "a",
      method: "tools/call",
      target: "ask",
      status: 200,
      revision: "2025-03-26",
    });
    expect(lines[0]).not.toMatch(/hunter2|secret-token/);
  });
});

describe("createCachedConfig", () => {
  it("re-reads after the TTL, rebuilds only on change, and keeps the last good config when a new one is invalid", async () => {
    let now = 0;
    let text = '{"v":1}';
    let builds = 0;
    const read = vi.fn(async () => text);
    const config = createCachedConfig({
      read,
      build: (t) => {
        builds++;
        const value = JSON.parse(t) as { v: number };
        if (value.v < 0) throw new DefinitionError("tenant x: v must be positive");
        return value;
      },
      ttlMs: 100,
      now: () => now,
    });
    expect(await config.get()).toEqual({ v: 1 });
    expect(await config.get()).toEqual({ v: 1 });
    expect(read).toHaveBeenCalledTimes(1);
    now = 150;
    expect(await config.get()).toEqual({ v: 1 });
    expect(builds).toBe(1);
    text = '{"v":-1}';
    now = 300;
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await config.get()).toEqual({ v: 1 });
    text = '{"v":2}';
    now = 450;
    expect(await config.get()).toEqual({ v: 2 });
    vi.restoreAllMocks();
  });

  it("throws when there is no config at all", async () => {
    await expect(createCachedConfig({ read: async () => undefined, build: (t) => t }).get()).rejects.toThrow(/no tenant configuration/);
  });
});

describe("tool limits", () => {
  const slow = defineTool({
    name: "slow",
    description: "Takes a second.",
    inputSchema: { type: "object" },
    handler: () => new Promise<string>((resolve) => setTimeout(() => resolve("late"), 1000)),
  });
  const big = defineTool({ name: "big", description: "Returns a lot.", inputSchema: { type: "object" }, handler: () => "é".repeat(200) });
  const small = defineTool({ name: "small", description: "Returns a little.", inputSchema: { type: "object" }, handler: () => "ok" });
  const app = createMcpApp({
    server: createServer({ info: { name: "t", version: "1" }, tools: [slow, big, small] }),
    limits: { toolTimeoutMs: 30, maxResultBytes: 300 },
  });

  it("answers a call past the deadline with an isError result", async () => {
    expect((await modern(app, "tools/call", { name: "slow", arguments: {} })).body["result"]).toMatchObject({
      isError: true,
      content: [{ text: "Tool slow did not finish within 30 ms" }],
    });
  });

  it("replaces a result larger than the limit (counted in UTF-8 bytes) with an isError result", async () => {
    const result = (await modern(app, "tools/call", { name: "big", arguments: {} })).body["result"] as { isError: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/^Tool big returned 4\d\d bytes, more than this server's limit of 300/);
    expect((await modern(app, "tools/call", { name: "small", arguments: {} })).body["result"]).toMatchObject({ content: [{ text: "ok" }] });
  });
});

describe("cursors bound to the principal", () => {
  const tools = ["a", "b", "c"].map((name) => defineTool({ name, description: name, inputSchema: { type: "object" }, handler: () => name }));
  const authorizer = {
    metadata: {},
    metadataJson: () => "{}",
    resourcePath: "/mcp",
    authenticate: async (request: Request) => ({ issuer: "api-key", subject: request.headers.get("x-user") ?? "nobody", scopes: [], via: "api-key" as const }),
    authorizeTool: () => {},
    unauthorized: () => new ProtocolError(ErrorCode.InvalidRequest, "Unauthorized", { status: 401 }),
  };
  const app = createMcpApp({ server: createServer({ info: { name: "t", version: "1" }, tools, pageSize: 1 }), tenant: "acme", authorizer, stateSecret: "s" });
  const list = async (user: string, cursor?: string) =>
    (
      await request(app, "http://localhost/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "x-user": user },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: cursor === undefined ? {} : { cursor } }),
      })
    ).json<{ result?: { tools: { name: string }[]; nextCursor?: string }; error?: { code: number } }>();

  it("pages for the principal that got the cursor and refuses it for another", async () => {
    const first = await list("alice");
    const cursor = first.result?.nextCursor as string;
    expect(cursor).toMatch(/\./);
    expect((await list("alice", cursor)).result?.tools.map((t) => t.name)).toEqual(["b"]);
    expect((await list("bob", cursor)).error).toMatchObject({ code: -32602 });
    expect((await list("alice", cursor.split(".")[0])).error).toMatchObject({ code: -32602 });
  });
});
