/** The counter app: `show_counter` opens it in the host; its +1 button calls `counter_add`, which only the app may call. */

import { defineApp, defineTool } from "edge-mcp";

/** The tool the model calls. Hosts that render apps show the counter; others get its text. */
const showCounter = defineTool({
  name: "show_counter",
  title: "Show a counter",
  description: "Shows a counter the user can click up.",
  inputSchema: {
    type: "object",
    properties: { label: { type: "string", maxLength: 60, description: "What is counted." }, start: { type: "integer", minimum: 0, maximum: 1000000 } },
    required: ["label"],
    additionalProperties: false,
  },
  outputSchema: { type: "object", properties: { label: { type: "string" }, count: { type: "integer" } }, required: ["label", "count"] },
  handler: ({ label, start }) => {
    const count = start ?? 0;
    return { content: [{ type: "text", text: `Counter "${label}" is at ${count}.` }], structuredContent: { label, count } };
  },
});

/** The tool the app calls through the host (visibility ["app"]: never offered to a model). */
const counterAdd = defineTool({
  name: "counter_add",
  title: "Add one",
  description: "Adds one to a count (called by the counter app).",
  inputSchema: { type: "object", properties: { count: { type: "integer", minimum: 0, maximum: 1000000 } }, required: ["count"], additionalProperties: false },
  handler: ({ count }) => ({ content: [{ type: "text", text: String(count + 1) }], structuredContent: { count: count + 1 } }),
});

/** The app: its page is app/counter.html + app/counter.ts, built into public/apps/counter.html. */
export const counter = defineApp({
  uri: "ui://counter/app.html",
  name: "counter",
  title: "Counter",
  description: "A counter the user clicks up.",
  html: { asset: "/apps/counter.html" },
  csp: { connectDomains: [], resourceDomains: [] },
  prefersBorder: true,
  tools: [showCounter],
  appTools: [counterAdd],
});
