// The Worker under test in the workers-admission project: tenants that exercise every admission path
// (auth with two issuers and an API key, sessions, handles, tasks, quotas, rate limits, a short body deadline).
import { WorkerEntrypoint } from "cloudflare:workers";
import { z } from "zod";
import { defineApp, defineModule, defineTool, type CallToolResult, type ServiceCallContext, type ServiceCatalog, type ToolService } from "../../src/index.ts";
import {
  createToolService,
  createMultiTenantSessionObject,
  createNotificationHub,
  createMultiTenantTaskObject,
  createMultiTenantWorker,
  tenantCodeMode,
  type MultiTenantWorkerOptions,
} from "../../src/workers/index.ts";

const lines = {
  type: "object",
  properties: { lines: { type: "array", items: { type: "number" } } },
  required: ["lines"],
  additionalProperties: false,
} as const;

const accounting = defineModule({
  tools: [
    defineTool({
      name: "invoice_total",
      description: "Adds up invoice lines.",
      inputSchema: lines,
      handler: (args) => `Total: ${args["lines"].reduce((a, b) => a + b, 0)}`,
    }),
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
      handler: (_args, ctx) =>
        JSON.stringify({
          tenant: ctx.tenant,
          issuer: ctx.principal?.issuer ?? null,
          subject: ctx.principal?.subject ?? null,
          scopes: ctx.principal?.scopes ?? [],
        }),
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
          const timer = setTimeout(resolve, args["ms"]);
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

/** Waits `ms` unless the signal aborts first; says which happened. */
function pause(ms: number, signal: AbortSignal): Promise<"done" | "aborted"> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve("aborted");
    const timer = setTimeout(() => resolve("done"), ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve("aborted")), { once: true });
  });
}

/** Tools that run as tasks (the tasks extension). */
const jobs = defineModule({
  tools: [
    defineTool({
      name: "report",
      description: "Builds a report in steps, reporting each step (a task when the client supports tasks).",
      inputSchema: { type: "object", properties: { steps: { type: "integer" }, ms: { type: "integer" } }, required: ["steps"] },
      task: "optional",
      handler: async (args, ctx) => {
        const steps = args["steps"];
        for (let step = 1; step <= steps; step++) {
          ctx.progress(step, steps, `step ${step} of ${steps}`);
          if ((await pause(args["ms"] ?? 10, ctx.signal)) === "aborted") return "stopped";
        }
        return `report of ${steps} steps for ${ctx.principal?.subject ?? "anonymous"} in task ${ctx.taskId ?? "none"}`;
      },
    }),
    defineTool({
      name: "approve",
      description: "Asks the user to approve, from inside a task (task required).",
      inputSchema: { type: "object" },
      task: "required",
      handler: async (_args, ctx) =>
        (await ctx.elicit({ message: "Approve?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } }, { key: "approval" })).action,
    }),
  ],
});

/** A tool service bound to this same Worker (REMOTE_JOBS): its tools run as tasks too, through the binding. */
export class RemoteJobs extends WorkerEntrypoint implements ToolService {
  async describe(): Promise<ServiceCatalog> {
    return {
      tools: [
        {
          name: "crunch",
          description: "Crunches numbers remotely.",
          inputSchema: { type: "object", properties: { ms: { type: "integer" } } },
          task: "optional",
        },
      ],
    };
  }

  async callTool(_name: string, args: Record<string, unknown>, context: ServiceCallContext) {
    await new Promise((resolve) => setTimeout(resolve, (args["ms"] as number | undefined) ?? 10));
    return { content: [{ type: "text" as const, text: `crunched for ${context.subject ?? "anonymous"} of ${context.tenant}` }] };
  }
}

/** A fixed catalogue for tool search: ranking, detail levels, exposure modes. */
const catalog = defineModule({
  tools: [
    defineTool({
      name: "invoice_total",
      description: "Adds up the lines of an invoice.",
      inputSchema: lines,
      handler: (args) => `Total: ${args["lines"].reduce((a, b) => a + b, 0)}`,
    }),
    defineTool({
      name: "report_export",
      title: "Export report",
      description: "Exports a report that quotes invoice_total: invoice total, invoice total.",
      inputSchema: { type: "object" },
      handler: () => "exported",
    }),
    defineTool({
      name: "crm_contact_update",
      title: "Update contact",
      description: "Updates a contact in the CRM. Only the first sentence is a summary.",
      inputSchema: { type: "object", properties: { email: { type: "string", description: "The contact's email address." } }, required: ["email"] },
      handler: (args) => `updated ${String(args["email"])}`,
    }),
    defineTool({
      name: "crm_contact_get",
      title: "Get contact",
      description: "Reads a contact from the CRM.",
      inputSchema: { type: "object" },
      handler: () => "contact",
    }),
    defineTool({ name: "twin_b", description: "Identical words for a tie.", inputSchema: { type: "object" }, handler: () => "b" }),
    defineTool({ name: "twin_a", description: "Identical words for a tie.", inputSchema: { type: "object" }, handler: () => "a" }),
    defineTool({
      name: "weather_now",
      description: "Current weather for a city.",
      inputSchema: { type: "object" },
      _meta: { "anthropic/searchHint": "rain temperature" },
      handler: () => "sunny",
    }),
  ],
});

/** A bundled module with an MCP App: a cart shown by cart_show, updated by the app-only cart_update (which needs cart:write). */
const gallery = defineModule({
  apps: [
    defineApp({
      uri: "ui://cart/app.html",
      name: "cart",
      html: "<!doctype html><html><head><title>Cart</title></head><body>cart</body></html>",
      csp: { connectDomains: ["https://api.shop.test"] },
      tools: [defineTool({ name: "cart_show", description: "Shows the cart.", inputSchema: { type: "object" }, handler: () => "The cart is empty." })],
      appTools: [
        defineTool({
          name: "cart_update",
          description: "Updates the cart (from the app).",
          inputSchema: { type: "object", properties: { items: { type: "integer" } }, required: ["items"] },
          handler: ({ items }) => `The cart has ${String(items)} items.`,
        }),
      ],
    }),
  ],
});

/** A tool service with an app (PICTURES): the gallery tenant binds it under two prefixes, whose apps must not collide. */
export class Pictures extends WorkerEntrypoint implements ToolService {
  async describe(): Promise<ServiceCatalog> {
    return {
      tools: [
        { name: "show", description: "Shows a picture.", inputSchema: { type: "object" } },
        { name: "zoom", description: "Zooms (from the app).", inputSchema: { type: "object" } },
      ],
      apps: [
        { uri: "ui://viewer/app.html", name: "viewer", prefersBorder: false, tools: ["show"], appTools: ["zoom"] },
        { uri: "ui://broken/app.html", name: "broken", csp: { connectDomains: ["not an origin"] }, tools: [] },
      ],
    };
  }
  async callTool(name: string): Promise<CallToolResult> {
    return { content: [{ type: "text", text: `picture tool ${name}` }] };
  }
  async readApp(uri: string, context: ServiceCallContext): Promise<string> {
    return `<!doctype html><title>${uri}</title><p>for ${context.tenant}</p>`;
  }
}

/** A tool service written with createToolService (TYPED): describe() and callTool() derived from defineTool definitions. */
export const TypedTools = createToolService({
  tools: [
    defineTool({
      name: "forecast",
      description: "Forecast for a city.",
      inputSchema: {
        type: "object",
        properties: { city: { type: "string" }, days: { type: "integer", minimum: 1 } },
        required: ["city"],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true },
      handler: (args, ctx) => `${args.city.toUpperCase()} for ${args.days ?? 1} day(s), asked by ${ctx.principal?.subject ?? "anonymous"} of ${ctx.tenant}`,
    }),
    defineTool({
      name: "double",
      description: "Doubles n (a zod schema with a default).",
      inputSchema: z.object({ n: z.number().default(21) }),
      handler: ({ n }) => ({ structuredContent: { doubled: n * 2 } }),
      outputSchema: { type: "object", properties: { doubled: { type: "number" } }, required: ["doubled"] },
    }),
    defineTool({
      name: "ask",
      description: "Tries to elicit, which a tool service cannot.",
      inputSchema: { type: "object" },
      handler: async (_args, ctx) => (await ctx.elicit({ message: "Sure?", requestedSchema: { type: "object", properties: {} } })).action,
    }),
  ],
});

const options: MultiTenantWorkerOptions = {
  info: { name: "admission-under-test", version: "1.0.0" },
  modules: { accounting, identity, notes, jobs, catalog, gallery },
  codeMode: tenantCodeMode(),
};

const worker = createMultiTenantWorker(options);
export default worker;
export const McpSessionObject = createMultiTenantSessionObject(worker);
export const McpTaskObject = createMultiTenantTaskObject(worker);
export const McpNotificationHub = createNotificationHub(worker);
export { McpHandleObject, McpQuotaObject } from "../../src/workers/index.ts";
