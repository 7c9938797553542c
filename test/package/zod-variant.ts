// The basic template with convert_temperature's input schema in zod: what choosing zod costs in bundle size.

/** The row of the size table (docs/templates.md) that gives this variant's size. */
export const ZOD_VARIANT_ROW = "`basic`, `convert_temperature` in zod";

export const ZOD_VARIANT = {
  /** Installed (offline, from the cache `npm ci` of the repository filled) without saving. */
  dependency: "zod@4.6.7",
  /** The Worker, written to zod-variant/index.ts of the basic project: its tools, one of them in zod. */
  source: `import { defineTool } from "edge-mcp";
import { createWorker } from "edge-mcp/workers";
import { z } from "zod";
import { greet } from "../src/tools";

const convertTemperature = defineTool({
  name: "convert_temperature",
  title: "Convert a temperature",
  description: "Converts a temperature from Celsius to Fahrenheit or back.",
  inputSchema: z.object({
    value: z.number().describe("The temperature to convert."),
    from: z.enum(["celsius", "fahrenheit"]).describe("The unit of value."),
  }),
  outputSchema: { type: "object", properties: { value: { type: "number" }, unit: { type: "string" } }, required: ["value", "unit"] },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: ({ value, from }) => {
    const unit = from === "celsius" ? "fahrenheit" : "celsius";
    const converted = Math.round((from === "celsius" ? (value * 9) / 5 + 32 : ((value - 32) * 5) / 9) * 10) / 10;
    return { content: [{ type: "text", text: \`\${value} is \${converted}\` }], structuredContent: { value: converted, unit } };
  },
});

export default createWorker({ info: { name: "zod-variant", version: "0.1.0" }, tools: [greet, convertTemperature] });
`,
};
