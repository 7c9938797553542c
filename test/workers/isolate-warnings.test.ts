// Features that would switch off silently warn once per isolate, naming the fix.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createServer } from "../../src/server/server.ts";
import { defineTool } from "../../src/server/tools/tool.ts";
import { createMultiTenantWorker, createWorker } from "../../src/workers/index.ts";
import { requestSignalWarning, unboundTasksWarning } from "../../src/workers/isolate-warnings.ts";

const report = defineTool({ name: "report", description: "Writes a report.", inputSchema: { type: "object" }, task: "optional", handler: () => "done" });
const plain = defineTool({ name: "plain", description: "Answers.", inputSchema: { type: "object" }, handler: () => "ok" });
const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;

function list(worker: { fetch: (request: never, env: never, ctx: ExecutionContext) => unknown }, path = "/mcp", env: object = {}) {
  const request = new Request(`http://127.0.0.1:8787${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  return Promise.resolve(worker.fetch(request as never, env as never, ctx));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a tool declaring task without the MCP_TASKS binding", () => {
  it("warns once per isolate, naming the tool and the binding to add", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const worker = createWorker(createServer({ info: { name: "t", version: "1" }, tools: [report, plain] }), { tenant: "warn-once" });
    await list(worker);
    await list(worker, "/mcp", {});
    await list(worker, "/mcp", {});
    const lines = warn.mock.calls.map(([line]) => String(line)).filter((line) => line.includes("declares task"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^edge-mcp: tenant warn-once: tool report declares task, but the MCP_TASKS Durable Object binding is missing/);
    expect(lines[0]).toContain("Bind the class from createTaskObject() as MCP_TASKS");
  });

  it("names the tenant in a multi-tenant Worker", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const worker = createMultiTenantWorker({
      modules: { reports: { tools: [report] } },
      tenants: { tenants: [{ id: "warned", pathPrefix: "/t/warned", modules: [{ name: "reports" }] }] },
    });
    vi.spyOn(console, "log").mockImplementation(() => {});
    await list(worker, "/t/warned/mcp");
    expect(warn.mock.calls.map(([line]) => String(line))).toContainEqual(expect.stringMatching(/^edge-mcp: tenant warned: tool report declares task/));
  });

  it("says nothing when no tool declares task, tasks are bound, or turned off on purpose", () => {
    const server = createServer({ info: { name: "t", version: "1" }, tools: [report] });
    expect(unboundTasksWarning(createServer({ info: { name: "t", version: "1" }, tools: [plain] }), false, undefined)).toBeUndefined();
    expect(unboundTasksWarning(server, true, undefined)).toBeUndefined();
    expect(unboundTasksWarning(server, false, false)).toBeUndefined();
    expect(unboundTasksWarning(server, false, { ttlMs: 1000 })).toMatch(/tool report declares task/);
  });
});

describe("a Worker without the enable_request_signal compatibility flag", () => {
  it("is told by workerd's Cloudflare.compatibilityFlags (on in this Worker's wrangler.toml)", () => {
    const flags = (globalThis as unknown as { Cloudflare: { compatibilityFlags: Record<string, boolean> } }).Cloudflare.compatibilityFlags;
    expect(flags["enable_request_signal"]).toBe(true);
    expect(requestSignalWarning(flags)).toBeUndefined();
  });

  it("gets a warning naming the flag to add when it is off, and none when the flags cannot be read", () => {
    expect(requestSignalWarning({ enable_request_signal: false })).toMatch(/Add compatibility_flags = \["enable_request_signal"\] to wrangler.toml/);
    expect(requestSignalWarning(undefined)).toBeUndefined();
  });
});
