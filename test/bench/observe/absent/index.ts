// The demo-like Worker without observability(): the baseline of the observe runs.
import { createWorker } from "edge-mcp/workers";
import { server } from "../server.ts";

export default createWorker(server);
