/** Bundled modules of the multi-tenant example: tenants enable them by name. */

import { defineModule, defineTool } from "edge-mcp";

export const greetings = defineModule({
  tools: [
    defineTool({
      name: "hello",
      description: "Greets someone, saying which tenant answered.",
      inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"], additionalProperties: false },
      handler: (args, ctx) => `Hello ${String(args["name"])}, from tenant ${ctx.tenant ?? "?"}`,
    }),
  ],
});

export const accounting = defineModule({
  tools: [
    defineTool({
      name: "invoice_total",
      description: "Adds up invoice lines.",
      inputSchema: { type: "object", properties: { lines: { type: "array", items: { type: "number" } } }, required: ["lines"], additionalProperties: false },
      handler: (args) => `Total: ${args["lines"].reduce((sum, n) => sum + n, 0)}`,
    }),
  ],
});

export const whoami = defineModule({
  tools: [
    defineTool({
      name: "whoami",
      description: "Says who the server thinks is calling (tenant, subject, scopes).",
      inputSchema: { type: "object" },
      handler: (_args, ctx) => JSON.stringify({ tenant: ctx.tenant, subject: ctx.principal?.subject, scopes: ctx.principal?.scopes ?? [] }),
    }),
  ],
});

export const statuspage = defineModule({
  tools: [
    defineTool({
      name: "status",
      description: "Says whether the service is up (public: callable without a token).",
      inputSchema: { type: "object" },
      handler: (_args, ctx) => JSON.stringify({ tenant: ctx.tenant, status: "ok", caller: ctx.principal?.subject ?? "anonymous" }),
    }),
  ],
});
