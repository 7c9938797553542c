/** The MCP server: `npm run dev` serves it at http://127.0.0.1:8787/mcp. */

import { apps } from "edge-mcp";
import { createWorker, staticAssets } from "edge-mcp/workers";
import { counter } from "./counter";

export default createWorker({
  info: { name: "{{name}}", version: "0.1.0" },
  instructions: "show_counter shows a counter the user clicks up, in hosts that render MCP Apps.",
  // MCP Apps (io.modelcontextprotocol/ui): the counter's HTML is read from the ASSETS binding.
  features: [apps([counter], { assets: staticAssets() })],
});
