/** An MCP App of the demo: `show_tally` opens a tally in the host, whose +1 button calls the app-only tool `tally_bump`. */

import { defineApp, defineTool } from "edge-mcp";

const showTally = defineTool({
  name: "show_tally",
  title: "Show a tally",
  description: "Shows a tally counter the user can click up. Hosts that render MCP Apps show it; others get the text.",
  inputSchema: {
    type: "object",
    properties: { label: { type: "string", maxLength: 60 }, start: { type: "integer", minimum: 0, maximum: 1000000 } },
    required: ["label"],
    additionalProperties: false,
  },
  outputSchema: { type: "object", properties: { label: { type: "string" }, count: { type: "integer" } }, required: ["label", "count"] },
  handler: ({ label, start }) => {
    const count = start ?? 0;
    return { content: [{ type: "text", text: `Tally "${label}" is at ${count}.` }], structuredContent: { label, count } };
  },
});

const tallyBump = defineTool({
  name: "tally_bump",
  title: "Bump a tally",
  description: "Adds one to a tally (called by the tally app).",
  inputSchema: { type: "object", properties: { count: { type: "integer", minimum: 0, maximum: 1000000 } }, required: ["count"], additionalProperties: false },
  handler: ({ count }) => ({ content: [{ type: "text", text: String(count + 1) }], structuredContent: { count: count + 1 } }),
});

/** The tally app: its HTML is a static asset (examples/hello/public/apps/tally.html, built by `npm run build:apps`). */
export const tally = defineApp({
  uri: "ui://tally/app.html",
  name: "tally",
  title: "Tally",
  description: "A counter the user clicks up.",
  html: { asset: "/apps/tally.html" },
  csp: { connectDomains: [], resourceDomains: [] },
  prefersBorder: true,
  tools: [showTally],
  appTools: [tallyBump],
});
