/** The gateway that reaches add(a, b) of another MCP server (UPSTREAM_URL) as up_add: remoteServers(). */
import { createWorker, remoteServers } from "edge-mcp/workers";

export default createWorker(
  { info: { name: "bench-gateway-remote", version: "1.0.0" }, tools: [] },
  { services: remoteServers([{ urlVar: "UPSTREAM_URL", prefix: "up", protocol: "2026-07-28" }]) },
);
