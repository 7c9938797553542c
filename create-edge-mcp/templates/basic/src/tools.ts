/** The server's tools. Each is written once and serves every protocol revision. */

import { defineTool } from "edge-mcp";

/** A tool with a JSON Schema: the handler's arguments are typed from the schema. */
export const greet = defineTool({
  name: "greet",
  title: "Greet",
  description: "Greets someone by name.",
  inputSchema: {
    type: "object",
    properties: { name: { type: "string", description: "Who to greet.", maxLength: 100 } },
    required: ["name"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: ({ name }) => `Hello, ${name}!`,
});

/**
 * A tool with structured output. `from` is typed "celsius" | "fahrenheit" from its `enum`. A zod (or
 * other Standard Schema) object works here too, at a cost in bundle size: see README.md.
 */
export const convertTemperature = defineTool({
  name: "convert_temperature",
  title: "Convert a temperature",
  description: "Converts a temperature from Celsius to Fahrenheit or back.",
  inputSchema: {
    type: "object",
    properties: {
      value: { type: "number", description: "The temperature to convert." },
      from: { type: "string", enum: ["celsius", "fahrenheit"], description: "The unit of value." },
    },
    required: ["value", "from"],
    additionalProperties: false,
  },
  outputSchema: { type: "object", properties: { value: { type: "number" }, unit: { type: "string" } }, required: ["value", "unit"] },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: ({ value, from }) => {
    const unit = from === "celsius" ? "fahrenheit" : "celsius";
    const converted = Math.round((from === "celsius" ? (value * 9) / 5 + 32 : ((value - 32) * 5) / 9) * 10) / 10;
    return {
      content: [{ type: "text", text: `${value} °${from === "celsius" ? "C" : "F"} is ${converted} °${unit === "celsius" ? "C" : "F"}` }],
      structuredContent: { value: converted, unit },
    };
  },
});

/**
 * A tool that keeps data in the Worker's own KV namespace (NOTES in wrangler.toml) through `ctx.env`,
 * typed in src/env.ts. The notes are shared by every caller: with auth on, key them by `ctx.principal`.
 */
export const note = defineTool({
  name: "note",
  title: "Keep a note",
  description: "Saves a short note under a name, or reads it back when no text is given.",
  inputSchema: {
    type: "object",
    properties: {
      name: { type: "string", description: "The note's name.", minLength: 1, maxLength: 100 },
      text: { type: "string", description: "The text to save; leave it out to read the note.", maxLength: 2000 },
    },
    required: ["name"],
    additionalProperties: false,
  },
  annotations: { openWorldHint: false },
  handler: async ({ name, text }, ctx) => {
    if (text === undefined) return (await ctx.env.NOTES.get(`note:${name}`)) ?? `There is no note named ${name}.`;
    await ctx.env.NOTES.put(`note:${name}`, text);
    return `Saved the note ${name}.`;
  },
});
