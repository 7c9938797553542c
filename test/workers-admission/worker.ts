// The Worker under test in the workers-admission project: two tenants that exercise every admission path
// (auth with two issuers and an API key, sessions, handles, quotas, rate limits, a short body deadline).
import { z } from "zod";
import { defineModule, defineTool } from "../../src/index.ts";
import { createMultiTenantSessionObject, createMultiTenantWorker, type MultiTenantWorkerOptions } from "../../src/workers/index.ts";

const lines = { type: "object", properties: { lines: { type: "array", items: { type: "number" } } }, required: ["lines"], additionalProperties: false } as const;

const accounting = defineModule({
  tools: [
    defineTool({ name: "invoice_total", description: "Adds up invoice lines.", inputSchema: lines, handler: (args) => `Total: ${(args["lines"] as number[]).reduce((a, b) => a + b, 0)}` }),
    defineTool({
      name: "invoice_total_zod",
      description: "Adds up invoice lines (zod schema).",
      inputSchema: z.strictObject({ lines: z.array(z.number()), memo: z.string().max(100).optional(), tags: z.record(z.string(), z.number()).optional() }),
      handler: ({ lines: values }) => `Total: ${values.reduce((a, b) => a + b, 0)}`,
    }),
  ],
});

const identity = defineModule({
  tools: [
    defineTool({
      name: "whoami",
      description: "Says who is calling.",
      inputSchema: { type: "object" },
      handler: (_args, ctx) => JSON.stringify({ tenant: ctx.tenant, issuer: ctx.principal?.issuer ?? null, subject: ctx.principal?.subject ?? null, scopes: ctx.principal?.scopes ?? [] }),
    }),
    defineTool({
      name: "confirm",
      description: "Asks the user to confirm (elicitation).",
      inputSchema: { type: "object" },
      handler: async (_args, ctx) => (await ctx.elicit({ message: "Sure?", requestedSchema: { type: "object", properties: {} } }, { key: "sure" })).action,
    }),
    defineTool({
      name: "wait",
      description: "Waits ms milliseconds unless cancelled.",
      inputSchema: { type: "object", properties: { ms: { type: "number" } }, required: ["ms"] },
      handler: async (args, ctx) => {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, args["ms"] as number);
          ctx.signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
        });
        return ctx.signal.aborted ? "aborted" : "done";
      },
    }),
  ],
});

const notes = defineModule({
  tools: [
    defineTool({
      name: "note_save",
      description: "Keeps a note under a new handle.",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      handler: async (args, ctx) => ctx.handles.create({ text: args["text"] }),
    }),
    defineTool({
      name: "note_read",
      description: "Reads a note.",
      inputSchema: { type: "object", properties: { handle: { type: "string" } }, required: ["handle"] },
      handler: async (args, ctx) => (await ctx.handles.get<{ text: string }>(args["handle"])).text,
    }),
    defineTool({
      name: "note_delete",
      description: "Deletes a note.",
      inputSchema: { type: "object", properties: { handle: { type: "string" } }, required: ["handle"] },
      handler: async (args, ctx) => {
        await ctx.handles.delete(args["handle"]);
        return "deleted";
      },
    }),
  ],
});

/** A fixed catalogue for tool search: ranking, detail levels, exposure modes. */
const catalog = defineModule({
  tools: [
    defineTool({ name: "invoice_total", description: "Adds up the lines of an invoice.", inputSchema: lines, handler: (args) => `Total: ${(args["lines"] as number[]).reduce((a, b) => a + b, 0)}` }),
    defineTool({ name: "report_export", title: "Export report", description: "Exports a report that quotes invoice_total: invoice total, invoice total.", inputSchema: { type: "object" }, handler: () => "exported" }),
    defineTool({
      name: "crm_contact_update",
      title: "Update contact",
      description: "Updates a contact in the CRM. Only the first sentence is a summary.",
      inputSchema: { type: "object", properties: { email: { type: "string", description: "The contact's email address." } }, required: ["email"] },
      handler: (args) => `updated ${String(args["email"])}`,
    }),
    defineTool({ name: "crm_contact_get", title: "Get contact", description: "Reads a contact from the CRM.", inputSchema: { type: "object" }, handler: () => "contact" }),
    defineTool({ name: "twin_b", description: "Identical words for a tie.", inputSchema: { type: "object" }, handler: () => "b" }),
    defineTool({ name: "twin_a", description: "Identical words for a tie.", inputSchema: { type: "object" }, handler: () => "a" }),
    defineTool({ name: "weather_now", description: "Current weather for a city.", inputSchema: { type: "object" }, _meta: { "anthropic/searchHint": "rain temperature" }, handler: () => "sunny" }),
  ],
});

const options: MultiTenantWorkerOptions = { info: { name: "admission-under-test", version: "1.0.0" }, modules: { accounting, identity, notes, catalog } };

export default createMultiTenantWorker(options);
export const McpSessionObject = createMultiTenantSessionObject(options);
export { McpHandleObject, McpNotificationHub, McpQuotaObject } from "../../src/workers/index.ts";
