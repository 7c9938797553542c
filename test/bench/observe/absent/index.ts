// The demo-like Worker without observability(): the baseline of the observe runs.
import { createWorker } from "edge-mcp/workers";
import { server } from "../server.ts";

// tasks: false: the report tool runs in its request (no MCP_TASKS here), as in observed/index.ts.
export default createWorker(server, { tasks: false });
