// The smallest useful Worker, for bundle size: one JSON Schema tool, createWorker, nothing else.
import { createServer, defineTool } from "edge-mcp";
import { createWorker } from "edge-mcp/workers";

const add = defineTool({
  name: "add",
  description: "Adds two numbers.",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  handler: ({ a, b }) => String(a + b),
});

export default createWorker(createServer({ info: { name: "one-tool", version: "1.0.0" }, tools: [add] }));
