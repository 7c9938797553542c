// The demo's server without its app (which needs static assets): the Worker the observe runs measure.
import { createServer } from "edge-mcp";
import { notebookAppend, notebookOpen, notebookRead } from "../../../examples/hello/src/notebook.ts";
import { report } from "../../../examples/hello/src/report.ts";
import { notebookWorkflow } from "../../../examples/hello/src/skills.ts";
import { add, countdown, echo } from "../../../examples/hello/src/tools.ts";

export const server = createServer({
  info: { name: "edge-mcp-demo", title: "edge-mcp demo", version: "0.1.0" },
  tools: [echo, add, countdown, notebookOpen, notebookAppend, notebookRead, report],
  skills: [notebookWorkflow],
});
