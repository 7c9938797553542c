/** The upstream MCP server of the remote-forwarding bench: add(a, b) over Streamable HTTP, in a workerd of its own. */
import { createWorker } from "edge-mcp/workers";
import { add } from "../add.ts";

export default createWorker({ info: { name: "bench-upstream", version: "1.0.0" }, tools: [add] });
