/**
 * The weather tools, as a plain object that implements the ToolService contract: the Worker entry
 * (index.ts) serves it over RPC, and tests call it directly.
 */

import type { CallToolResult, ServiceCallContext, ServiceCatalog, ToolService } from "edge-mcp";

const FORECASTS = new Map([
  ["paris", "Sunny, 21 °C"],
  ["oslo", "Snow, -3 °C"],
  ["lima", "Cloudy, 18 °C"],
]);

export const weatherService: ToolService = {
  async describe(): Promise<ServiceCatalog> {
    return {
      tools: [
        {
          name: "forecast",
          title: "Weather forecast",
          description: "Today's forecast for a city (Paris, Oslo or Lima).",
          inputSchema: { type: "object", properties: { city: { type: "string", maxLength: 100 } }, required: ["city"], additionalProperties: false },
          annotations: { readOnlyHint: true },
        },
      ],
    };
  },

  // The runtime has checked the arguments against the listed inputSchema before it calls.
  async callTool(name: string, args: Record<string, unknown>, context: ServiceCallContext): Promise<CallToolResult> {
    if (name !== "forecast") throw new Error(`unknown tool ${name}`);
    const city = String(args["city"]);
    const forecast = FORECASTS.get(city.toLowerCase());
    if (!forecast) return { content: [{ type: "text", text: `No forecast for ${city}; try Paris, Oslo or Lima` }], isError: true };
    return { content: [{ type: "text", text: `${city}: ${forecast} (for tenant ${context.tenant})` }] };
  },
};
