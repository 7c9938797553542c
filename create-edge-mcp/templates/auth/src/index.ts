/**
 * The MCP server, with auth: every request needs a token from your identity provider or an API
 * key. `npm run dev` serves it at http://127.0.0.1:8787/mcp.
 */

import { createServer } from "edge-mcp";
import { createWorker } from "edge-mcp/workers";
import { authorizer } from "./auth";
import { listOrders, whoami } from "./tools";

// Compiled once per isolate. The authorizer is built from the vars on the first request of each env.
const server = createServer({ info: { name: "{{name}}", version: "0.1.0" }, tools: [whoami, listOrders] });

export default createWorker(server, { authorizer });
