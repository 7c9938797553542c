// A newcomer's first real feature, scripted: the basic template made by create-edge-mcp, plus a tool
// that keeps a counter in a Durable Object of the project's own, reached through ctx.env as
// docs/store-data.md shows, beside the template's KV-backed note tool. It type-checks with the
// template's strict tsconfig and answers both official clients under wrangler dev.
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { connectLegacyClient, connectModernClient } from "../e2e/clients.ts";
import { startWranglerDev } from "../e2e/wrangler-dev.ts";
import { run } from "./run.ts";

const NPM_OFFLINE = ["--offline", "--no-audit", "--no-fund"];

const COUNTER = `import { DurableObject } from "cloudflare:workers";

/** One counter per name, kept in the object's storage. */
export class Counter extends DurableObject {
  async increment(by: number): Promise<number> {
    const value = ((await this.ctx.storage.get<number>("value")) ?? 0) + by;
    await this.ctx.storage.put("value", value);
    return value;
  }
}
`;

const COUNT_TOOL = `
/** Adds one to a counter held by the project's own Durable Object (COUNTERS in wrangler.toml). */
export const count = defineTool({
  name: "count",
  description: "Adds one to the named counter and returns its value.",
  inputSchema: { type: "object", properties: { name: { type: "string", maxLength: 100 } }, required: ["name"], additionalProperties: false },
  handler: async ({ name }, ctx) => \`\${name}: \${await ctx.env.COUNTERS.getByName(name).increment(1)}\`,
});
`;

const DURABLE_OBJECT_TOML = `
[[durable_objects.bindings]]
name = "COUNTERS"
class_name = "Counter"

[[migrations]]
tag = "counter-v1"
new_sqlite_classes = ["Counter"]
`;

/** Replaces `from` in a file, failing loudly when the template no longer has it. */
function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, "utf8");
  if (!text.includes(from)) throw new Error(`${file} no longer holds ${JSON.stringify(from)}: update this walk to the template`);
  writeFileSync(file, text.replace(from, to));
}

describe("a first feature on the basic template: KV and a Durable Object of its own through ctx.env", () => {
  let project: string;
  let server: Awaited<ReturnType<typeof startWranglerDev>> | undefined;

  beforeAll(async () => {
    const work = mkdtempSync(join(inject("packDir"), "first-feature-"));
    await run("npm", ["exec", ...NPM_OFFLINE, "--yes", `--package=${inject("createTarball")}`, "--", "create-edge-mcp", "notes", "--template", "basic"], {
      cwd: work,
    });
    project = join(work, "notes");
    await run("npm", ["install", ...NPM_OFFLINE, inject("edgeMcpTarball")], { cwd: project });

    writeFileSync(join(project, "src/counter.ts"), COUNTER);
    appendFileSync(join(project, "src/tools.ts"), COUNT_TOOL);
    edit(join(project, "src/env.ts"), "  NOTES: KVNamespace;", '  NOTES: KVNamespace;\n  COUNTERS: DurableObjectNamespace<import("./counter").Counter>;');
    edit(join(project, "src/index.ts"), "import { convertTemperature, greet, note }", "import { convertTemperature, count, greet, note }");
    edit(join(project, "src/index.ts"), "tools: [greet, convertTemperature, note],", "tools: [greet, convertTemperature, note, count],");
    appendFileSync(join(project, "src/index.ts"), 'export { Counter } from "./counter";\n');
    edit(join(project, "wrangler.toml"), "\n[dev]", `${DURABLE_OBJECT_TOML}\n[dev]`);
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("type-checks with the template's strict tsconfig: ctx.env.COUNTERS is typed, its RPC method too", async () => {
    await run("npx", ["tsc", "--noEmit"], { cwd: project, timeoutMs: 120_000 });
  }, 150_000);

  it("serves both official clients: the note in KV and the counter in the Durable Object, each kept between calls", async () => {
    server = await startWranglerDev({ name: "first-feature", cwd: project, configPath: ["wrangler.toml"] });
    const url = `${server.baseUrl}/mcp`;
    const texts: string[] = [];
    for (const connect of [connectLegacyClient, connectModernClient]) {
      const client = await connect(url, {});
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("count");
        for (const [name, args] of [
          ["count", { name: "cups" }],
          ["note", { name: "walk", text: `written by ${connect.name}` }],
          ["note", { name: "walk" }],
        ] as const) {
          const result = (await client.callTool({ name, arguments: args })) as { content: { text?: string }[]; isError?: boolean };
          expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
          texts.push(result.content[0]?.text ?? "");
        }
      } finally {
        await client.close();
      }
    }
    expect(texts).toEqual([
      "cups: 1",
      "Saved the note walk.",
      `written by ${connectLegacyClient.name}`,
      "cups: 2",
      "Saved the note walk.",
      `written by ${connectModernClient.name}`,
    ]);
  }, 180_000);
});
