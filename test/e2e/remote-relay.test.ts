// What a remote module relays besides a call's result, under `wrangler dev` with both official clients and two
// servers of the official Python SDK: one spoken to in 2025-11-25 (a session), one in 2026-07-28 with a short ttlMs.
// An upstream's tools/list_changed reaches our clients' streams, and a call cancelled by a 2025-11-25 client is cancelled upstream.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectLegacyClient, connectModernClient } from "./clients.ts";
import { freePorts } from "./free-ports.ts";
import { startWranglerDev, type WranglerDev } from "./wrangler-dev.ts";

const PYTHON = ".cache/py-mcp/bin/python";
const python = spawnSync("python3", ["--version"]).status === 0 && existsSync(PYTHON);

let worker: WranglerDev;
const upstreams: ChildProcess[] = [];

function startPython(args: string[]): Promise<void> {
  const child = spawn(PYTHON, ["test/e2e/fixtures/python-upstream.py", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  upstreams.push(child);
  let log = "";
  return new Promise((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      log += chunk.toString();
      if (/Uvicorn running/.test(log)) resolve();
    };
    child.stdout?.on("data", seen);
    child.stderr?.on("data", seen);
    child.once("exit", (code) => reject(new Error(`the Python upstream exited (${code}) before it was ready:\n${log}`)));
  });
}

/** Resolves once `seen()` is true, or fails after `ms`. */
async function eventually(seen: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!seen()) {
    if (Date.now() > end) throw new Error("it did not happen in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function text(result: unknown): string {
  return ((result as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? "").join("");
}

beforeAll(async () => {
  if (!python) return;
  const [legacyPort, modernPort] = await freePorts(2);
  await startPython([String(legacyPort)]);
  await startPython([String(modernPort), "500"]);
  const tenant = {
    id: "relay",
    pathPrefix: "/t/relay",
    legacySessions: true,
    modules: [
      { name: "old", remote: { url: `http://127.0.0.1:${legacyPort}/mcp`, protocol: "2025-11-25" } },
      { name: "new", remote: { url: `http://127.0.0.1:${modernPort}/mcp`, protocol: "2026-07-28", allow: ["multiply", "grow_quietly", "late*"] } },
    ],
  };
  worker = await startWranglerDev({
    name: "multi-tenant relaying remote modules",
    configPath: ["examples/multi-tenant/wrangler.toml", "examples/tool-service/wrangler.toml"],
    vars: { MCP_DEV: "true", MCP_TENANTS: JSON.stringify({ tenants: [tenant] }) },
  });
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  for (const child of upstreams) child.kill();
});

describe.skipIf(!python)("an upstream's tools/list_changed", () => {
  it("said on a 2025-11-25 call's stream reaches a 2025-11-25 client's GET stream before the call returns", async () => {
    const client = await connectLegacyClient(`${worker.baseUrl}/t/relay/mcp`);
    try {
      let changes = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("old_divide");
      expect(text(await client.callTool({ name: "old_grow", arguments: { name: "divide" } }))).toBe("added divide");
      await eventually(() => changes > 0);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("old_divide");
      expect(text(await client.callTool({ name: "old_divide", arguments: {} }))).toBe("grown divide");
    } finally {
      await client.close();
    }
  });

  it("reaches a 2026-07-28 client's subscriptions/listen stream", async () => {
    const client = await connectModernClient(`${worker.baseUrl}/t/relay/mcp`);
    try {
      let changes = 0;
      client.setNotificationHandler("notifications/tools/list_changed", () => void changes++);
      const subscription = await client.listen({ toolsListChanged: true });
      expect(text(await client.callTool({ name: "old_grow", arguments: { name: "subtract" } }))).toBe("added subtract");
      await eventually(() => changes > 0);
      expect((await client.listTools({}, { cacheMode: "bypass" } as never)).tools.map((tool) => tool.name)).toContain("old_subtract");
      await subscription.close();
    } finally {
      await client.close();
    }
  });

  it("of a 2026-07-28 upstream is learned when its list's ttlMs passed, and announced when the list differs", async () => {
    const client = await connectModernClient(`${worker.baseUrl}/t/relay/mcp`);
    try {
      let changes = 0;
      client.setNotificationHandler("notifications/tools/list_changed", () => void changes++);
      const subscription = await client.listen({ toolsListChanged: true });
      expect(text(await client.callTool({ name: "new_grow_quietly", arguments: { name: "late_one" } }))).toBe("added late_one");
      // The list is read again on the first request after its ttlMs (500 ms) and at most once a second.
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect(text(await client.callTool({ name: "new_multiply", arguments: { a: 2, b: 3 } }))).toBe("2 x 3 = 6");
      await eventually(() => changes > 0);
      expect((await client.listTools({}, { cacheMode: "bypass" } as never)).tools.map((tool) => tool.name)).toContain("new_late_one");
      await subscription.close();
    } finally {
      await client.close();
    }
  });
});

describe.skipIf(!python)("a cancelled call", () => {
  const cancellations = async () => {
    const client = await connectModernClient(`${worker.baseUrl}/t/relay/mcp`);
    try {
      return Number(text(await client.callTool({ name: "old_cancellations", arguments: {} })));
    } finally {
      await client.close();
    }
  };

  it("of a 2025-11-25 client (notifications/cancelled) is cancelled at a 2025-11-25 upstream", async () => {
    const before = await cancellations();
    const client = await connectLegacyClient(`${worker.baseUrl}/t/relay/mcp`);
    try {
      const abort = new AbortController();
      const call = client.callTool({ name: "old_wait_for_cancel", arguments: {} }, undefined, { signal: abort.signal, timeout: 20_000 });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      abort.abort("changed my mind");
      await expect(call).rejects.toThrow();
      // The client sends notifications/cancelled after it gave up on the call: closing it at once would cut that off.
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      await client.close();
    }
    const end = Date.now() + 5000;
    while ((await cancellations()) === before && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await cancellations()).toBe(before + 1);
  });
});
