// The demo-like Worker with observability(): configured by the env alone (nothing, OTEL_*, MCP_USAGE).
import { createWorker, observability } from "edge-mcp/workers";
import { server } from "../server.ts";

export default createWorker(server, { tasks: false, observe: observability() });
