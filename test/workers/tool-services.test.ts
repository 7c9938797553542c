// toolServices() in a single-tenant Worker: a changed catalogue rebuilds the server (the old one announces
// tools/list_changed), a service that is down fails only its own tools, session and task objects see the same tools.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CallToolResult } from "../../src/core/types.ts";
import type { ServiceTool, ToolService } from "../../src/modules/service-contract.ts";
import { defineTool } from "../../src/server/tools/tool.ts";
import { workerEndpoints } from "../../src/workers/create-worker.ts";
import { createWorker, toolServices, type McpEnv } from "../../src/workers/index.ts";
import { fullJsonSchema } from "../../src/json-schema.ts";

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
const ping = defineTool({ name: "ping", description: "Answers pong.", inputSchema: { type: "object" }, handler: () => "pong" });
const SERVER = { info: { name: "single", version: "1.0.0" }, tools: [ping] };
const forecast: ServiceTool = { name: "forecast", description: "Forecast.", inputSchema: { type: "object" } };
const alerts: ServiceTool = { name: "alerts", description: "Alerts.", inputSchema: { type: "object" } };

function service(tools: ServiceTool[]): ToolService & { tools: ServiceTool[] } {
  const value = {
    tools,
    describe: async () => ({ tools: value.tools }),
    callTool: async (name: string): Promise<CallToolResult> => ({ content: [{ type: "text", text: `ran ${name}` }] }),
  };
  return value;
}

let id = 1;
async function rpc(worker: ReturnType<typeof createWorker>, env: object, method: string, params: Record<string, unknown> = {}) {
  const response = await worker.fetch(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: id++, method, params }),
    }),
    env,
    ctx,
  );
  return await response.json<{ result: Record<string, unknown> }>();
}

async function names(worker: ReturnType<typeof createWorker>, env: object): Promise<string[]> {
  return ((await rpc(worker, env, "tools/list")).result["tools"] as { name: string }[]).map((t) => t.name);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("toolServices() in createWorker", () => {
  it("reads a changed catalogue after its TTL, serves the new tools and announces the change on the old server", async () => {
    const weather = service([forecast]);
    const env = { WEATHER: weather } as McpEnv;
    const services = toolServices([{ binding: "WEATHER" }], { catalogTtlMs: 0 });
    const worker = createWorker(SERVER, { services });
    expect(await names(worker, env)).toEqual(["ping", "weather_forecast"]);
    // The session and task objects' endpoint runs on the same server.
    const before = (await workerEndpoints(SERVER, { services }, {})("default", env)).server;
    const announced = vi.spyOn(before.changes, "toolsListChanged");
    weather.tools = [forecast, alerts];
    expect(await names(worker, env)).toEqual(["ping", "weather_forecast", "weather_alerts"]);
    expect(announced).toHaveBeenCalledTimes(1);
    const after = (await workerEndpoints(SERVER, { services }, {})("default", env)).server;
    expect(after).not.toBe(before);
    expect(after.tools.get("weather_alerts")).toBeDefined();
    // An unchanged catalogue keeps the server.
    expect(await names(worker, env)).toEqual(["ping", "weather_forecast", "weather_alerts"]);
    expect((await workerEndpoints(SERVER, { services }, {})("default", env)).server).toBe(after);
    expect((await rpc(worker, env, "tools/call", { name: "weather_alerts", arguments: {} })).result).toMatchObject({ content: [{ text: "ran alerts" }] });
  });

  it("keeps the Worker's own tools working when a service cannot describe itself, and names the module in its calls", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const env = { WEATHER: { describe: () => Promise.reject(new Error("down")), callTool: () => Promise.reject(new Error("down")) } };
    const worker = createWorker(SERVER, { services: toolServices([{ binding: "WEATHER", prefix: "wx" }]) });
    expect(await names(worker, env)).toEqual(["ping"]);
    expect((await rpc(worker, env, "tools/call", { name: "ping", arguments: {} })).result).toMatchObject({ content: [{ text: "pong" }] });
    const call = (await rpc(worker, env, "tools/call", { name: "wx_forecast", arguments: {} })).result;
    expect(call).toMatchObject({ isError: true });
    expect(JSON.stringify(call)).toMatch(/module wx is unavailable: module wx: describe\(\) failed/);
  });

  it("gives session and task objects the same tools as the Worker", async () => {
    const env = { WEATHER: service([forecast]) } as McpEnv;
    const endpoints = workerEndpoints(SERVER, { services: toolServices([{ binding: "WEATHER" }]) }, {});
    const endpoint = await endpoints("default", env);
    expect(endpoint.server).toBe((await endpoints("default", env)).server);
    expect(endpoint.server.tools.get("weather_forecast")).toBeDefined();
  });

  it("leaves out a service's tool whose schema needs the full JSON Schema validator, and serves it when the server adds fullJsonSchema()", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const book: ServiceTool = {
      name: "book",
      inputSchema: {
        type: "object",
        properties: { by: { enum: ["phone", "email"] } },
        if: { properties: { by: { const: "phone" } } },
        then: { required: ["phone"] },
      },
    };
    const env = { WEATHER: service([forecast, book]) } as McpEnv;
    const plain = createWorker(SERVER, { services: toolServices([{ binding: "WEATHER" }]) });
    expect(await names(plain, env)).toEqual(["ping", "weather_forecast"]);
    expect(log.mock.calls.map((call) => String(call[0]))).toContain(
      "edge-mcp: module weather: tool weather_book is left out: tool weather_book inputSchema: (root): if, then are outside the core JSON Schema validator; add fullJsonSchema() from edge-mcp/json-schema to the features (see docs/json-schema.md)",
    );
    const full = createWorker({ ...SERVER, features: [fullJsonSchema()] }, { services: toolServices([{ binding: "WEATHER" }]) });
    expect(await names(full, env)).toEqual(["ping", "weather_forecast", "weather_book"]);
    const refused = (await rpc(full, env, "tools/call", { name: "weather_book", arguments: { by: "phone" } })).result;
    expect(refused["isError"]).toBe(true);
    expect(JSON.stringify(refused["content"])).toContain('required property \\"phone\\"');
    expect((await rpc(full, env, "tools/call", { name: "weather_book", arguments: { by: "email" } })).result["isError"]).toBeUndefined();
  });
});
