/**
 * The MCP server, with auth: every request needs a token from your identity provider or an API
 * key. `npm run dev` serves it at http://127.0.0.1:8787/mcp.
 */

import { createServer } from "edge-mcp";
import { createWorker, type McpEnv, type McpWorker } from "edge-mcp/workers";
import { authorizer, type AuthEnv } from "./auth";
import { listOrders, whoami } from "./tools";

type Env = McpEnv & AuthEnv;

// Compiled once per isolate; the Worker around it is built on the first request of each env.
const server = createServer({ info: { name: "{{name}}", version: "0.1.0" }, tools: [whoami, listOrders] });
const workers = new WeakMap<Env, McpWorker<Env>>();

export default {
  fetch(request, env, ctx) {
    let worker = workers.get(env);
    if (!worker) {
      worker = createWorker<Env>(server, { authorizer: authorizer(env) });
      workers.set(env, worker);
    }
    return worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
