/** The tool every Worker of the remote-forwarding bench serves or reaches: add(a, b). */
import { defineTool } from "edge-mcp";

export const add = defineTool({
  name: "add",
  description: "Adds two numbers.",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"], additionalProperties: false },
  handler: ({ a, b }) => String(a + b),
});
