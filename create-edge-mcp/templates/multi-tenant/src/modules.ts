/** The bundled modules: a tenant enables each by its name in the tenants document. */

import { defineModule, defineTool } from "edge-mcp";

export const greetings = defineModule({
  tools: [
    defineTool({
      name: "hello",
      description: "Greets someone, saying which tenant answered.",
      inputSchema: { type: "object", properties: { name: { type: "string", maxLength: 100 } }, required: ["name"], additionalProperties: false },
      annotations: { readOnlyHint: true, openWorldHint: false },
      handler: ({ name }, ctx) => `Hello ${name}, from tenant ${ctx.tenant ?? "?"}`,
    }),
  ],
});
