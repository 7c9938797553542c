// Under `wrangler dev` with MCP_DEV, a typo'd schema does not stop the server: every request is
// answered with the error (HTTP 500, JSON-RPC error) until the file is fixed and saved, and the next
// call succeeds without a restart. The Worker also exports the session and task classes made from
// it, which load (and answer the same error) rather than stop workerd.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWranglerDev, type WranglerDev } from "./wrangler-dev.ts";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

function worker(type: string): string {
  return [
    'import { defineTool } from "edge-mcp";',
    'import { createSessionObject, createTaskObject, createWorker } from "edge-mcp/workers";',
    `const greet = defineTool({ name: "greet", description: "Greets.", inputSchema: { type: ${JSON.stringify(type)} } as never, handler: () => "hello" });`,
    'const worker = createWorker({ info: { name: "dev-errors", version: "1.0.0" }, tools: [greet] });',
    "export default worker;",
    "export const McpSessionObject = createSessionObject(worker);",
    "export const McpTaskObject = createTaskObject(worker);",
    'export { McpQuotaObject } from "edge-mcp/workers";',
    "",
  ].join("\n");
}

async function call(baseUrl: string, method: string, params: Record<string, unknown> = {}) {
  const response = await fetch(`${baseUrl}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body: { result?: unknown; error?: { code: number; message: string } } = await response.json();
  return { status: response.status, body };
}

let dir: string;
let dev: WranglerDev;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "edge-mcp-dev-errors-"));
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src/index.ts"), worker("objcet"));
  writeFileSync(
    join(dir, "wrangler.toml"),
    [
      'name = "dev-errors"',
      'main = "src/index.ts"',
      'compatibility_date = "2026-04-01"',
      "minify = true",
      ...["MCP_SESSIONS:McpSessionObject", "MCP_TASKS:McpTaskObject", "MCP_QUOTAS:McpQuotaObject"].flatMap((pair) => {
        const [binding, className] = pair.split(":");
        return ["[[durable_objects.bindings]]", `name = "${binding}"`, `class_name = "${className}"`];
      }),
      "[[migrations]]",
      'tag = "v1"',
      'new_sqlite_classes = ["McpSessionObject", "McpTaskObject", "McpQuotaObject"]',
      "[alias]",
      `"edge-mcp" = ${JSON.stringify(join(SRC, "index.ts"))}`,
      `"edge-mcp/workers" = ${JSON.stringify(join(SRC, "workers/index.ts"))}`,
      "",
    ].join("\n"),
  );
  dev = await startWranglerDev({ name: "dev-errors", configPath: join(dir, "wrangler.toml"), vars: { MCP_DEV: "true" }, args: ["--no-minify"] });
}, 90_000);

afterAll(async () => {
  await dev?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("a definition error under wrangler dev", () => {
  it("answers every request with the error while wrangler dev keeps running, then serves the fixed file without a restart", async () => {
    for (const method of ["initialize", "tools/list", "tools/call"]) {
      const answer = await call(dev.baseUrl, method, method === "tools/call" ? { name: "greet", arguments: {} } : {});
      expect(answer.status, dev.output()).toBe(500);
      expect(answer.body.error?.code).toBe(-32603);
      expect(answer.body.error?.message).toContain('tool greet inputSchema: type: "objcet" is not a JSON Schema type');
    }
    expect(dev.output()).toContain("edge-mcp: the Worker's definitions are wrong");

    writeFileSync(join(dir, "src/index.ts"), worker("object"));
    let fixed: Awaited<ReturnType<typeof call>> | undefined;
    for (let attempt = 0; attempt < 60 && fixed?.status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      fixed = await call(dev.baseUrl, "tools/call", { name: "greet", arguments: {} }).catch(() => undefined);
    }
    expect(fixed?.status, dev.output()).toBe(200);
    expect(fixed?.body.result).toMatchObject({ content: [{ type: "text", text: "hello" }] });
  }, 60_000);
});
