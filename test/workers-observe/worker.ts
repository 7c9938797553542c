// The Worker under test in the workers-observe project: two tenants (auth, scopes, a rate limit, a tool
// service that opens its own span under the trace context it receives) and an open one with sessions and
// code mode (initech), with observability() on and every object bound (the hops traced as child spans).
import { WorkerEntrypoint } from "cloudflare:workers";
import { ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { defineModule, defineTool, type ServiceCallContext, type ServiceCatalog, type ToolService } from "../../src/index.ts";
import {
  createMultiTenantSessionObject,
  createNotificationHub,
  createMultiTenantTaskObject,
  createMultiTenantWorker,
  tenantCodeMode,
  observability,
  type MultiTenantWorkerOptions,
} from "../../src/workers/index.ts";
import tenants from "./tenants.json";

const tools = defineModule({
  tools: [
    defineTool({
      name: "add",
      description: "Adds two numbers.",
      inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
      handler: (args) => String(args["a"] + args["b"]),
    }),
    defineTool({
      name: "touch",
      description: "Announces that a resource changed (a publish to the notifications hub).",
      inputSchema: { type: "object" },
      handler: (_args, ctx) => {
        ctx.changes.resourceUpdated("memo://touched");
        return "touched";
      },
    }),
    defineTool({
      name: "pause",
      description: "Answers after ms milliseconds.",
      inputSchema: { type: "object", properties: { ms: { type: "number" } }, required: ["ms"] },
      handler: async (args) => {
        await new Promise((resolve) => setTimeout(resolve, args["ms"]));
        return "paused";
      },
    }),
    defineTool({
      name: "slow_report",
      description: "A task when the client supports tasks.",
      inputSchema: { type: "object" },
      task: "optional",
      handler: () => "report",
    }),
    defineTool({
      name: "invoice_total",
      description: "Needs the invoices:read scope.",
      inputSchema: { type: "object" },
      handler: () => "0",
    }),
  ],
});

/** A tool service that opens a span under the caller's traceparent: the trace must go through the RPC. */
export class TracedService extends WorkerEntrypoint implements ToolService {
  async describe(): Promise<ServiceCatalog> {
    return { tools: [{ name: "crunch", description: "Crunches remotely.", inputSchema: { type: "object" } }] };
  }

  async callTool(_name: string, _args: Record<string, unknown>, context: ServiceCallContext) {
    const parent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-/.exec(context.traceparent ?? "");
    const parentContext = parent
      ? trace.setSpanContext(ROOT_CONTEXT, { traceId: parent[1] as string, spanId: parent[2] as string, traceFlags: 1, isRemote: true })
      : ROOT_CONTEXT;
    trace.getTracer("traced-service").startSpan("crunch in the service", {}, parentContext).end();
    return { content: [{ type: "text" as const, text: `traceparent ${context.traceparent ?? "none"}` }] };
  }
}

const options: MultiTenantWorkerOptions = {
  info: { name: "observe-under-test", version: "1.0.0" },
  modules: { tools },
  tenants,
  observe: observability(),
  codeMode: tenantCodeMode(),
};

const worker = createMultiTenantWorker(options);
export default worker;
export const McpSessionObject = createMultiTenantSessionObject(worker);
export const McpTaskObject = createMultiTenantTaskObject(worker);
export const McpNotificationHub = createNotificationHub(worker);
export { McpQuotaObject, McpUsageObject } from "../../src/workers/index.ts";
