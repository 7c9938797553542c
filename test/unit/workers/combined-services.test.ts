// combinedServices(): toolServices() and remoteServers() together as createWorker's services.
import { describe, expect, it } from "vitest";
import { createMcpApp } from "../../../src/http/mcp-app.ts";
import type { ToolService } from "../../../src/modules/service-contract.ts";
import { defineTool } from "../../../src/server/tools/tool.ts";
import { combinedServices } from "../../../src/workers/combined-services.ts";
import { remoteServers } from "../../../src/workers/remote-servers.ts";
import { toolServices } from "../../../src/workers/tool-services.ts";
import { modern } from "../app-client.ts";

const hello = defineTool({ name: "hello", description: "Says hello.", inputSchema: { type: "object" }, handler: () => "hi" });
const base = { info: { name: "t", version: "1" }, tools: [hello] };

/** A 2026-07-28 upstream with one tool, echo; `tools` may grow. */
function upstream(tools: { name: string; inputSchema: object }[]): typeof fetch {
  return async (_url: string | URL | Request, init?: RequestInit) => {
    const message = JSON.parse(init?.body as string) as { id: number; method: string };
    const result = (value: Record<string, unknown>) => Response.json({ jsonrpc: "2.0", id: message.id, result: value });
    if (message.method === "server/discover") return result({ supportedVersions: ["2026-07-28"], capabilities: { tools: {} } });
    if (message.method === "tools/list") return result({ tools, ttlMs: 60_000 });
    return result({ content: [{ type: "text", text: "echoed" }] });
  };
}

const weather: ToolService = {
  describe: () => Promise.resolve({ tools: [{ name: "forecast", description: "Forecast.", inputSchema: { type: "object" } }] }),
  callTool: () => Promise.resolve({ content: [{ type: "text", text: "sunny" }] }),
};

const names = async (server: Awaited<ReturnType<ReturnType<typeof combinedServices>["server"]>>) =>
  ((await modern(createMcpApp({ server, allow: { hosts: ["localhost"] } }), "tools/list")).body["result"] as { tools: { name: string }[] }).tools.map(
    (tool) => tool.name,
  );

describe("combinedServices", () => {
  it("serves the Worker's own tools, a tool service's and a remote server's, each callable", async () => {
    const services = combinedServices(
      toolServices([{ binding: "WEATHER", prefix: "weather" }]),
      remoteServers([{ url: "https://up.example/mcp", prefix: "up" }], { fetch: upstream([{ name: "echo", inputSchema: { type: "object" } }]) }),
    );
    const env = { WEATHER: weather };
    const server = await services.server(base, env, () => {});
    expect(await names(server)).toEqual(["hello", "weather_forecast", "up_echo"]);
    const app = createMcpApp({ server, allow: { hosts: ["localhost"] } });
    expect((await modern(app, "tools/call", { name: "weather_forecast", arguments: {} })).body["result"]).toMatchObject({ content: [{ text: "sunny" }] });
    expect((await modern(app, "tools/call", { name: "up_echo", arguments: {} })).body["result"]).toMatchObject({ content: [{ text: "echoed" }] });
    // Nothing changed: the same server, nothing announced.
    const announced: unknown[] = [];
    expect(await services.server(base, env, (previous) => announced.push(previous))).toBe(server);
    expect(announced).toEqual([]);
  });

  it("builds again and announces once when the first one's catalogue changed", async () => {
    let tools = [{ name: "forecast", description: "Forecast.", inputSchema: { type: "object" } }];
    const changing: ToolService = { describe: () => Promise.resolve({ tools }), callTool: () => Promise.resolve({ content: [] }) };
    const services = combinedServices(
      toolServices([{ binding: "WEATHER", prefix: "weather" }], { catalogTtlMs: 0 }),
      remoteServers([{ url: "https://up.example/mcp", prefix: "up" }], { fetch: upstream([{ name: "echo", inputSchema: { type: "object" } }]) }),
    );
    const env = { WEATHER: changing };
    const announced: unknown[] = [];
    const first = await services.server(base, env, (previous) => announced.push(previous));
    tools = [...tools, { name: "radar", description: "Radar.", inputSchema: { type: "object" } }];
    const second = await services.server(base, env, (previous) => announced.push(previous));
    expect(await names(second)).toEqual(["hello", "weather_forecast", "weather_radar", "up_echo"]);
    expect(announced).toEqual([first]);
  });

  it("takes two or more services", () => {
    expect(() => combinedServices(toolServices([{ binding: "A", prefix: "a" }]))).toThrow(/two or more of toolServices/);
    expect(() => combinedServices(toolServices([{ binding: "A", prefix: "a" }]), {} as never)).toThrow(/two or more of toolServices/);
  });
});
