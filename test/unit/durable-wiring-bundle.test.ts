// The Durable Object wiring rides with the classes, in a bundle as wrangler builds it (esbuild, with the
// package's `sideEffects: false`): a Worker exporting the classes hands their gateways to itself, one without drops the code.
import { describe, expect, it } from "vitest";
import { bundleAsWrangler } from "./wrangler-bundle.ts";

/** An entry module (its source) bundled as wrangler would. */
const bundle = (contents: string): Promise<string> => bundleAsWrangler({ contents });

const SERVER = `const worker = createWorker(createServer({ info: { name: "w", version: "1" }, tools: [] }));\nexport default worker;\n`;

describe("the Durable Object wiring in a bundle", () => {
  it("is kept with the classes: createTaskObject, createSessionObject and createNotificationHub hand theirs to the Worker", async () => {
    const code = await bundle(
      `import { createServer } from "edge-mcp";\nimport { createNotificationHub, createSessionObject, createTaskObject, createWorker } from "edge-mcp/workers";\n${SERVER}` +
        `export const McpTaskObject = createTaskObject(worker);\nexport const McpSessionObject = createSessionObject(worker);\nexport const McpNotificationHub = createNotificationHub(worker);\n`,
    );
    expect(code).toContain("wiring.tasks = durableTaskGateway");
    expect(code).toContain("wiring.sessions = durableSessionGateway");
    // The session object hands the session routes (the initialize quota place, forwarding) to the Worker's endpoints by value.
    expect(code).toContain("wiring.sessionRoutes = sessionRoutes");
    expect(code).toContain("wiring.relay = durableChangeRelay");
    // The task gateway serves tasks: it hands the tasks feature and the listen agreement to its endpoint by value.
    expect(code).toContain("serving: taskServing");
    expect(code).toContain("function callAsTask");
  }, 60_000);

  it("is left out of a Worker without them", async () => {
    const code = await bundle(`import { createServer } from "edge-mcp";\nimport { createWorker } from "edge-mcp/workers";\n${SERVER}`);
    expect(code).toContain("holdWiring");
    for (const name of [
      "durableTaskGateway",
      "durableSessionGateway",
      "durableChangeRelay",
      "SharedSubscription",
      "tasksFeature",
      "callAsTask",
      "var sessionRoutes =",
    ])
      expect(code).not.toContain(name);
  }, 60_000);
});
