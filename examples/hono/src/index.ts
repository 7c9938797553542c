/** A Hono app with its own routes and middleware, and an MCP endpoint mounted beside them at /mcp. */

import { Hono } from "hono";
import { cors } from "hono/cors";
import { logger } from "hono/logger";
import { requestId } from "hono/request-id";
import { createServer, defineTool } from "edge-mcp";
import { mcp } from "edge-mcp/hono";
import { principalOf, signIn, type AppEnv } from "./users.ts";

const whoami = defineTool({
  name: "whoami",
  description: "Says which user of the app is calling.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  annotations: { readOnlyHint: true },
  handler: (_args, ctx) => `You are ${ctx.principal?.subject ?? "nobody"}.`,
});

const echo = defineTool({
  name: "echo",
  description: "Returns the text it is given, unchanged.",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false },
  annotations: { readOnlyHint: true },
  handler: (args) => args.text,
});

const server = createServer({ info: { name: "hono-example", version: "1.0.0" }, tools: [whoami, echo] });

const app = new Hono<AppEnv>();
// The app's middleware for every route, the MCP endpoint included.
app.use(logger());
app.use(requestId());

app.get("/", (c) => c.text("A Hono app with an MCP endpoint at /mcp."));
app.get("/health", (c) => c.json({ ok: true }));

// Browsers: cors() answers the preflight before sign-in (a preflight carries no credentials).
// The endpoint still checks every request's Origin against its own allowlist (localhost names here), and
// exposes its own headers (Mcp-Session-Id, WWW-Authenticate, Retry-After) as cors() sets no exposeHeaders.
app.use("/mcp", cors({ origin: ["http://localhost:5173"] }));
app.use("/mcp", signIn());
app.all("/mcp", mcp<AppEnv>(server, { principal: (c) => principalOf(c.var.user), toolScopes: { echo: ["admin"] } }));

export default app;
