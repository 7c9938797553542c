/**
 * A tool service: a separate Worker that provides tools to edge-mcp servers over the RPC
 * contract (`describe()` and `callTool()`), bound by the MCP Worker with `[[services]]`.
 * `createToolService` derives both from `defineTool` definitions, so each handler keeps its typed
 * arguments. It receives the verified caller (tenant, subject, scopes), never a token. It also
 * ships an Agent Skill: `describe()` lists it, `readSkillFile()` serves its files on demand.
 *
 * `boom` and `stall` exist to show fault isolation: one throws, one never answers.
 */

import { createSkillCatalog, defineSkill, defineTool } from "edge-mcp";
import { createToolService } from "edge-mcp/workers";

const FORECASTS: Record<string, string> = { paris: "Sunny, 21 °C", oslo: "Snow, -3 °C", lima: "Cloudy, 18 °C" };

const forecast = defineTool({
  name: "forecast",
  title: "Weather forecast",
  description: "Today's forecast for a city (Paris, Oslo or Lima).",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
  annotations: { readOnlyHint: true },
  // args.city is a string: the calling Worker has checked the arguments against this schema.
  handler: ({ city }, ctx) => {
    const found = FORECASTS[city.toLowerCase()];
    if (!found) return { content: [{ type: "text", text: `No forecast for ${city}; try Paris, Oslo or Lima` }], isError: true };
    return `${city}: ${found} (for tenant ${ctx.tenant})`;
  },
});

const boom = defineTool({
  name: "boom",
  description: "Always fails (shows that one failing tool leaves the others working).",
  inputSchema: { type: "object" },
  handler: () => {
    throw new Error("the weather station is on fire");
  },
});

const stall = defineTool({
  name: "stall",
  description: "Never answers (shows the per-module timeout).",
  inputSchema: { type: "object" },
  // Answers only after a minute: longer than any sensible module timeout.
  handler: async () => {
    await new Promise((resolve) => setTimeout(resolve, 60_000));
    return "too late";
  },
});

// Served under the module's prefix: skill://weather/forecast-guide/SKILL.md.
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

/** The entrypoint the MCP Worker binds: `entrypoint = "WeatherTools"`. */
export const WeatherTools = createToolService({ tools: [forecast, boom, stall], skills });

export default {
  fetch(): Response {
    return new Response('edge-mcp tool service: bind it with [[services]] and entrypoint = "WeatherTools"', { status: 404 });
  },
};
