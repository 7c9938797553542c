// The Durable Object wiring rides with the classes, in a bundle as wrangler builds it (esbuild, with the
// package's `sideEffects: false`): a Worker exporting the classes keeps their registrations, one without drops the code.
import { join } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

/** An entry module (its source) bundled unminified as wrangler would, from src/. */
async function bundle(contents: string): Promise<string> {
  const result = await build({
    stdin: { contents, resolveDir: ROOT, sourcefile: "worker.ts", loader: "ts" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["browser", "module", "main"],
    alias: { "edge-mcp": join(ROOT, "src/index.ts"), "edge-mcp/workers": join(ROOT, "src/workers/index.ts") },
    external: ["cloudflare:*", "node:*"],
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}

const SERVER = `const worker = createWorker(createServer({ info: { name: "w", version: "1" }, tools: [] }));\nexport default worker;\n`;

describe("the Durable Object wiring in a bundle", () => {
  it("is kept with the classes: createTaskObject, createSessionObject and the McpNotificationHub export register theirs", async () => {
    const code = await bundle(
      `import { createServer } from "edge-mcp";\nimport { createSessionObject, createTaskObject, createWorker } from "edge-mcp/workers";\n${SERVER}` +
        `export const McpTaskObject = createTaskObject(worker);\nexport const McpSessionObject = createSessionObject(worker);\nexport { McpNotificationHub } from "edge-mcp/workers";\n`,
    );
    expect(code).toContain("durableWiring.tasks = durableTaskGateway");
    expect(code).toContain("durableWiring.sessions = durableSessionGateway");
    expect(code).toContain("durableWiring.relay = durableChangeRelay");
  }, 60_000);

  it("is left out of a Worker without them", async () => {
    const code = await bundle(`import { createServer } from "edge-mcp";\nimport { createWorker } from "edge-mcp/workers";\n${SERVER}`);
    expect(code).toContain("durableWiring");
    for (const name of ["durableTaskGateway", "durableSessionGateway", "durableChangeRelay", "SharedSubscription"]) expect(code).not.toContain(name);
  }, 60_000);
});
