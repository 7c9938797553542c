/** The demo Worker: `npm run dev` serves it at http://127.0.0.1:8787/mcp. */

import { apps, createServer } from "edge-mcp";
import { createTaskObject, createWorker, observability, staticAssets } from "edge-mcp/workers";
import { notebookAppend, notebookOpen, notebookRead } from "./notebook.ts";
import { notebookWorkflow } from "./skills.ts";
import { report } from "./report.ts";
import { tally } from "./tally.ts";
import { add, countdown, echo } from "./tools.ts";

// The Durable Object classes behind ctx.handles and its quotas (MCP_HANDLES, MCP_QUOTAS in wrangler.toml).
export { McpHandleObject, McpQuotaObject } from "edge-mcp/workers";

const server = createServer({
  info: { name: "edge-mcp-demo", title: "edge-mcp demo", version: "0.1.0" },
  instructions:
    "Demo tools: echo returns text, add sums two numbers, countdown streams progress, notebook_* keep notes under a handle " +
    "(the skill skill://notebook-workflow/SKILL.md says how), report writes a slow report (a task for clients that support tasks), show_tally shows a tally app.",
  tools: [echo, add, countdown, notebookOpen, notebookAppend, notebookRead, report],
  // Agent Skills (skills/list, skill:// resources): a procedure for the notebook tools.
  skills: [notebookWorkflow],
  // MCP Apps (io.modelcontextprotocol/ui): show_tally opens the tally app, whose HTML is a static asset (ASSETS).
  features: [apps([tally], { assets: staticAssets() })],
});

// Traces (OTEL_EXPORTER_OTLP_ENDPOINT, or a registered OpenTelemetry provider) and usage metering
// (MCP_USAGE, MCP_USAGE_ROLLUPS): configured by the env alone; remove this option to bundle none of it.
const worker = createWorker(server, { observe: observability() });
export default worker;
// Each task (the report tool, for clients with the tasks extension) runs in its own Durable Object
// (MCP_TASKS), on the Worker's server and options.
export const McpTaskObject = createTaskObject(worker);
