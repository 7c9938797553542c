// A tool service's catalogue changes: the tenant's list and search index are rebuilt, and listeners on the
// tenant's notification hub (every isolate) hear tools/list_changed.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CallToolResult } from "../../src/core/types.ts";
import type { ServiceTool, ToolService } from "../../src/modules/service-contract.ts";
import {
  createMultiTenantSessionObject,
  createMultiTenantTaskObject,
  createMultiTenantWorker,
  createNotificationHub,
  type MultiTenantEnv,
} from "../../src/workers/index.ts";

const forecast: ServiceTool = { name: "forecast", description: "Weather forecast for a city.", inputSchema: { type: "object" } };
const alerts: ServiceTool = { name: "alerts", description: "Storm alerts for a region.", inputSchema: { type: "object" } };

const catalogue: { tools: ServiceTool[] } = { tools: [forecast] };
const service: ToolService = {
  describe: async () => ({ tools: catalogue.tools }),
  callTool: async (name: string): Promise<CallToolResult> => ({ content: [{ type: "text", text: `ran ${name}` }] }),
};

const options = {
  modules: {},
  tenants: { tenants: [{ id: "refresh", pathPrefix: "/t/refresh", modules: [{ name: "weather", service: "CATALOG" }], toolSearch: {} }] },
  catalogTtlMs: 0, // every request reads the catalogue again
};
const worker = createMultiTenantWorker(options);
// As in a Worker module, the classes of the objects the env binds (MCP_TASKS, MCP_SESSIONS, MCP_NOTIFICATIONS) are
// made from the Worker too: they hand it its way to them.
createMultiTenantTaskObject(worker);
createMultiTenantSessionObject(worker);
createNotificationHub(worker);
const workerEnv = { ...(env as unknown as MultiTenantEnv), CATALOG: service } as MultiTenantEnv;
const pending: Promise<unknown>[] = [];
const ctx = { waitUntil: (promise: Promise<unknown>) => void pending.push(promise), passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

let id = 1;
async function modern(method: string, params: Record<string, unknown> = {}): Promise<Response> {
  const name = typeof params["name"] === "string" ? { "mcp-name": params["name"] } : {};
  return await worker.fetch(
    new Request("http://127.0.0.1/t/refresh/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
        ...name,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: id++, method, params: { ...params, _meta: META } }),
    }),
    workerEnv,
    ctx,
  );
}

async function toolNames(): Promise<string[]> {
  const body = await (await modern("tools/list")).json<{ result: { tools: { name: string }[] } }>();
  return body.result.tools.map((t) => t.name);
}

describe("a service catalogue that changes", () => {
  it("rebuilds the tenant's list and search, and announces tools/list_changed through the hub", async () => {
    expect(await toolNames()).toEqual(["search_tools", "describe_tools", "call_tool", "weather_forecast"]);
    const listen = await modern("subscriptions/listen", { notifications: { toolsListChanged: true } });
    const reader = (listen.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    const until = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${pattern}`);
        text += decoder.decode(value, { stream: true });
      }
    };
    await until(/acknowledged/);

    catalogue.tools = [forecast, alerts];
    expect(await toolNames()).toEqual(["search_tools", "describe_tools", "call_tool", "weather_forecast", "weather_alerts"]);
    await Promise.all(pending);
    await until(/tools\/list_changed/);
    expect(text).toMatch(/"method":"notifications\/tools\/list_changed"/);
    await reader.cancel();

    const found = await (
      await modern("tools/call", { name: "search_tools", arguments: { query: "storm", detail: "names" } })
    ).json<{ result: { structuredContent: unknown } }>();
    expect(found.result.structuredContent).toMatchObject({ matched: 1, tools: [{ name: "weather_alerts" }] });
    const called = await (
      await modern("tools/call", { name: "call_tool", arguments: { name: "weather_alerts" } })
    ).json<{ result: { content: { text: string }[] } }>();
    expect(called.result.content[0]?.text).toBe("ran alerts");
  });
});
