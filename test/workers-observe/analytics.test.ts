// The MCP_USAGE Analytics Engine binding (miniflare's) receives one data point per admitted request,
// in the columns docs/observability.md documents and its SQL reads.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WITH_TASKS, bearer, modern, resultOf, send } from "../workers-admission/fixture.ts";

const dataset = (env as unknown as { MCP_USAGE: AnalyticsEngineDataset }).MCP_USAGE;
const MODERN = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
let nextId = 1;

function call(tenant: string, name: string, args: object, authorization?: string) {
  return send(tenant, {
    body: { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: args, _meta: MODERN } },
    headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name, ...(authorization ? { authorization } : {}) },
  });
}

/** The data points written for a tenant since the spy was set, once `count` have arrived (they are written after the answer). */
async function pointsOf(write: { mock: { calls: unknown[][] } }, tenant: string, count: number): Promise<AnalyticsEngineDataPoint[]> {
  return vi.waitFor(
    () => {
      const points = write.mock.calls.map((args) => args[0] as AnalyticsEngineDataPoint).filter((point) => point.indexes?.[0] === tenant);
      if (points.length < count) throw new Error(`${points.length} data points so far`);
      return points;
    },
    { timeout: 10_000, interval: 20 },
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("Analytics Engine receives the usage records", () => {
  it("is a real binding of the Worker (miniflare's), not a stand-in", () => {
    expect(typeof dataset.writeDataPoint).toBe("function");
  });

  it("writes one data point per admitted call: index1 tenant, blob1..blob8 and double1..double5 as documented", async () => {
    const write = vi.spyOn(dataset, "writeDataPoint");
    const token = await bearer({ tenant: "globex", sub: `ae-${crypto.randomUUID().slice(0, 8)}` });
    expect((await resultOf(await call("globex", "add", { a: 2, b: 2 }, token))).result?.content[0]?.text).toBe("4");
    await (await call("globex", "add", { a: "x" }, token)).text(); // a tool error
    expect((await call("globex", "invoice_total", {}, token)).status).toBe(403); // refused: no data point
    const points = await pointsOf(write, "globex", 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(write.mock.calls.filter((args) => (args[0] as AnalyticsEngineDataPoint).indexes?.[0] === "globex")).toHaveLength(2);
    const [ok, failed] = points as [AnalyticsEngineDataPoint, AnalyticsEngineDataPoint];
    const caller = ok.blobs?.[1];
    expect(caller).toMatch(/^[0-9a-f]{16}$/);
    // blob1 tenant, blob2 caller, blob3 method, blob4 tool, blob5 outcome, blob6 era, blob7 session, blob8 direct or code_mode.
    expect(ok.blobs).toEqual(["globex", caller, "tools/call", "add", "ok", "modern", "stateless", "direct"]);
    expect(failed.blobs).toEqual(["globex", caller, "tools/call", "add", "tool_error", "modern", "stateless", "direct"]);
    // double1 the call, double2 duration ms, double3 bytes in, double4 bytes out, double5 the JSON-RPC error code.
    const [one, duration, bytesIn, bytesOut, code] = ok.doubles as number[];
    expect(one).toBe(1);
    expect(duration).toBeGreaterThanOrEqual(0);
    expect(bytesIn).toBeGreaterThan(100);
    expect(bytesOut).toBeGreaterThan(20);
    expect(code).toBe(0);
    expect(ok.indexes).toEqual(["globex"]);
  });

  it("records the JSON-RPC code of an admitted request that fails in blob5 and double5", async () => {
    const write = vi.spyOn(dataset, "writeDataPoint");
    const token = await bearer({ tenant: "globex", sub: `ae-${crypto.randomUUID().slice(0, 8)}` });
    // An unknown task: admitted (tasks are on), then refused by the method itself.
    const { error } = await resultOf(await modern("globex", "tasks/get", { taskId: "no-such-task" }, token, WITH_TASKS));
    expect(error?.code).toBeLessThan(0);
    const [point] = await pointsOf(write, "globex", 1);
    expect(point?.blobs?.slice(2, 5)).toEqual(["tasks/get", "", String(error?.code)]);
    expect(point?.doubles?.[4]).toBe(error?.code);
  });
});
