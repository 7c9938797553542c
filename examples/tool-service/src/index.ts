/**
 * A tool service: a separate Worker that provides tools to edge-mcp tenants over the RPC
 * contract (`describe()` and `callTool()`), bound by the MCP Worker with `[[services]]`.
 * It receives the verified caller (tenant, subject, scopes), never a token. It also ships an
 * Agent Skill: `describe()` lists it, `readSkillFile()` serves its supporting files on demand.
 *
 * `boom` and `stall` exist to show fault isolation: one throws, one never answers.
 */

import { WorkerEntrypoint } from "cloudflare:workers";
import { createSkillCatalog, defineSkill, type CallToolResult, type ServiceCallContext, type ServiceCatalog, type ToolService } from "edge-mcp";

const FORECASTS: Record<string, string> = { paris: "Sunny, 21 °C", oslo: "Snow, -3 °C", lima: "Cloudy, 18 °C" };

// Served by each tenant under the module's prefix: skill://weather/forecast-guide/SKILL.md.
const skills = createSkillCatalog([
  defineSkill({
    name: "forecast-guide",
    files: {
      "SKILL.md": `---
name: forecast-guide
description: Answer weather questions with the forecast tool, and say when a city is not covered.
---
# Forecast guide

Call the forecast tool with the city's name. It knows the cities in [cities.md](cities.md);
for any other city, say so instead of guessing.
`,
      "cities.md": "# Cities\n\n- Paris\n- Oslo\n- Lima\n",
    },
  }),
]);

export class WeatherTools extends WorkerEntrypoint implements ToolService {
  async describe(): Promise<ServiceCatalog> {
    return {
      tools: [
        {
          name: "forecast",
          title: "Weather forecast",
          description: "Today's forecast for a city (Paris, Oslo or Lima).",
          inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
          annotations: { readOnlyHint: true },
        },
        { name: "boom", description: "Always fails (shows that one failing tool leaves the others working).", inputSchema: { type: "object" } },
        { name: "stall", description: "Never answers (shows the per-module timeout).", inputSchema: { type: "object" } },
      ],
      skills: await skills.describe(),
    };
  }

  async readSkillFile(skill: string, path: string): Promise<string | Uint8Array> {
    return skills.read(skill, path);
  }

  async callTool(name: string, args: Record<string, unknown>, context: ServiceCallContext): Promise<CallToolResult> {
    switch (name) {
      case "forecast": {
        const city = String(args["city"]);
        const forecast = FORECASTS[city.toLowerCase()];
        if (!forecast) return { content: [{ type: "text", text: `No forecast for ${city}; try Paris, Oslo or Lima` }], isError: true };
        return { content: [{ type: "text", text: `${city}: ${forecast} (for tenant ${context.tenant})` }] };
      }
      case "boom":
        throw new Error("the weather station is on fire");
      case "stall":
        // Answers only after a minute: longer than any sensible module timeout.
        await new Promise((resolve) => setTimeout(resolve, 60_000));
        return { content: [{ type: "text", text: "too late" }] };
      default:
        throw new Error(`unknown tool ${name}`);
    }
  }
}

export default {
  fetch(): Response {
    return new Response('edge-mcp tool service: bind it with [[services]] and entrypoint = "WeatherTools"', { status: 404 });
  },
};
