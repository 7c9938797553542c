/**
 * The tool service Worker: the MCP Worker binds its `WeatherTools` entrypoint ([[services]] in
 * ../../wrangler.toml) and calls it over RPC. It receives the verified caller, never a token.
 */

import { WorkerEntrypoint } from "cloudflare:workers";
import type { CallToolResult, ServiceCallContext, ServiceCatalog, ToolService } from "edge-mcp";
import { weatherService } from "./weather";

export class WeatherTools extends WorkerEntrypoint implements ToolService {
  async describe(): Promise<ServiceCatalog> {
    return weatherService.describe();
  }

  async callTool(name: string, args: Record<string, unknown>, context: ServiceCallContext): Promise<CallToolResult> {
    return weatherService.callTool(name, args, context);
  }
}

export default {
  fetch(): Response {
    return new Response('This Worker serves tools over RPC: bind it with [[services]] and entrypoint = "WeatherTools"', { status: 404 });
  },
};
