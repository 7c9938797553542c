// The demo as issue 19 sized it, for bundle size: handles, a skill and a task tool; no MCP App, no observability().
import { createServer } from "edge-mcp";
import { createTaskObject, createWorker } from "edge-mcp/workers";
import { notebookAppend, notebookOpen, notebookRead } from "../../../examples/hello/src/notebook.ts";
import { report } from "../../../examples/hello/src/report.ts";
import { notebookWorkflow } from "../../../examples/hello/src/skills.ts";
import { add, countdown, echo } from "../../../examples/hello/src/tools.ts";

export { McpHandleObject, McpQuotaObject } from "edge-mcp/workers";

const worker = createWorker(
  createServer({
    info: { name: "edge-mcp-demo-core", version: "0.1.0" },
    tools: [echo, add, countdown, notebookOpen, notebookAppend, notebookRead, report],
    skills: [notebookWorkflow],
  }),
);
export default worker;
export const McpTaskObject = createTaskObject(worker);
