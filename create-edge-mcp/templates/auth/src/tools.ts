/** The server's tools. Handlers see the verified caller as ctx.principal, never the token. */

import { defineTool } from "edge-mcp";

/** Any authenticated caller may call it. */
export const whoami = defineTool({
  name: "whoami",
  description: "Says who the server thinks is calling: issuer, subject and scopes.",
  inputSchema: { type: "object", additionalProperties: false },
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: (_args, ctx) => JSON.stringify({ issuer: ctx.principal?.issuer, subject: ctx.principal?.subject, scopes: ctx.principal?.scopes ?? [] }),
});

const ORDERS = [
  { id: "A-1001", total: 42.5 },
  { id: "A-1002", total: 17 },
];

/** Needs the scope orders:read (toolScopes in src/auth.ts): other callers get 403. */
export const listOrders = defineTool({
  name: "list_orders",
  description: "Lists the caller's recent orders.",
  inputSchema: { type: "object", properties: { limit: { type: "integer", minimum: 1, maximum: 50 } }, additionalProperties: false },
  outputSchema: { type: "object", properties: { orders: { type: "array" } }, required: ["orders"] },
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: ({ limit = 10 }) => ({ structuredContent: { orders: ORDERS.slice(0, limit) } }),
});
