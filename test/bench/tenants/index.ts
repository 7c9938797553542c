// The Worker of `npm run bench:tenants`: one bundled module, tenants one KV key each, at most 100 held per isolate.
import { defineTool } from "edge-mcp";
import { createMultiTenantWorker, keyedTenants } from "edge-mcp/workers";

const hello = defineTool({
  name: "hello",
  description: "Says hello from the tenant.",
  inputSchema: { type: "object" },
  handler: (_args, ctx) => `hi from ${ctx.tenant}`,
});

export default createMultiTenantWorker({ modules: { greetings: { tools: [hello] } }, tenantStore: keyedTenants({ maxTenants: 100 }) });
