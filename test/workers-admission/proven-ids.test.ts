// Task ids and handles prove themselves before any object is touched; listen's task ids each count against the rate limits.
import { env } from "cloudflare:workers";
import { listDurableObjectIds } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sseReader } from "../workers-conformance/sse-reader.ts";
import { durableHandleStore, type McpHandleObject } from "../../src/workers/state/handle-object.ts";
import { WITH_TASKS, modern, resultOf, send } from "./fixture.ts";

const tasksNamespace = (env as unknown as { MCP_TASKS: DurableObjectNamespace }).MCP_TASKS;
const handlesNamespace = (env as unknown as { MCP_HANDLES: DurableObjectNamespace<McpHandleObject> }).MCP_HANDLES;
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": WITH_TASKS };

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
let seed = 21;
/** Deterministic pseudo-random text (a linear congruential generator): the same ids on every run. */
function made(length: number, alphabet: string): string {
  let text = "";
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    text += alphabet[seed % alphabet.length];
  }
  return text;
}

/** Made-up ids of every shape a task id had or has: 192-bit base64url, and `<64 hex>.<secret>`. */
function madeUpIds(count: number): string[] {
  return Array.from({ length: count }, (_, i) => (i % 2 === 0 ? made(32, B64) : `${made(64, "0123456789abcdef")}.${made(32, B64)}`));
}

async function taskObjects(): Promise<number> {
  return (await listDurableObjectIds(tasksNamespace)).length;
}

describe("task ids prove themselves", () => {
  it("answers made-up ids in tasks/get, tasks/update and tasks/cancel like unknown tasks, without creating a task object", async () => {
    const before = await taskObjects();
    for (const taskId of madeUpIds(8)) {
      for (const [method, extra] of [
        ["tasks/get", {}],
        ["tasks/update", { inputResponses: { x: { action: "accept", content: {} } } }],
        ["tasks/cancel", {}],
      ] as const) {
        const answer = await resultOf(await modern("open", method, { taskId, ...extra }, undefined, WITH_TASKS));
        expect(answer.error, `${method} ${taskId}`).toMatchObject({ code: -32602 });
      }
    }
    expect(await taskObjects()).toBe(before);
  }, 30_000);

  it("agrees to none of 100 made-up taskIds in subscriptions/listen, without creating a task object", async () => {
    const before = await taskObjects();
    const response = await modern("open", "subscriptions/listen", { notifications: { taskIds: madeUpIds(100) } }, undefined, WITH_TASKS);
    const stream = sseReader(response);
    const ack = (await stream.next())?.data as { method: string; params: { notifications: { taskIds?: string[] } } };
    expect(ack.method).toBe("notifications/subscriptions/acknowledged");
    expect(ack.params.notifications.taskIds ?? []).toEqual([]);
    await stream.cancel();
    expect(await taskObjects()).toBe(before);
  });

  it("still finds a real task, and refuses its object id with another secret as unknown", async () => {
    const created = await resultOf(await modern("open", "tools/call", { name: "report", arguments: { steps: 0 } }, undefined, WITH_TASKS));
    const taskId = (created.result as unknown as { taskId: string }).taskId;
    expect((await resultOf(await modern("open", "tasks/get", { taskId }, undefined, WITH_TASKS))).result).toMatchObject({ taskId });
    const forged = `${taskId.slice(0, 65)}${made(32, B64)}`;
    expect((await resultOf(await modern("open", "tasks/get", { taskId: forged }, undefined, WITH_TASKS))).error).toMatchObject({ code: -32602 });
  });

  it("counts each task id of a listen request against the caller's rate limit (5 a minute): 20 ids are refused with 429", async () => {
    const response = await send("busy", {
      body: { jsonrpc: "2.0", id: 7, method: "subscriptions/listen", params: { notifications: { taskIds: madeUpIds(20) }, _meta: META } },
      headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "subscriptions/listen", "cf-connecting-ip": "203.0.113.121" },
    });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("60");
    expect(await response.json()).toMatchObject({ id: 7, error: { code: -31429 } });
  });
});

/** Made-up handles of every shape a handle had or has: `h_` + 192-bit base64url, and `h_<64 hex>.<secret>`. */
function madeUpHandles(count: number): string[] {
  return Array.from({ length: count }, (_, i) => (i % 2 === 0 ? `h_${made(32, B64)}` : `h_${made(64, "0123456789abcdef")}.${made(32, B64)}`));
}

const handleObjects = async (): Promise<number> => (await listDurableObjectIds(handlesNamespace)).length;
const noteCall = (name: string, args: Record<string, unknown>) => modern("plain", "tools/call", { name, arguments: args }).then(resultOf);

describe("handles prove themselves", () => {
  it("reads, writes and removes 10,000 made-up handles as absent without waking a handle object", async () => {
    const store = durableHandleStore(handlesNamespace);
    const before = await handleObjects();
    const handles = madeUpHandles(10_000);
    for (let i = 0; i < handles.length; i += 500) {
      const batch = handles.slice(i, i + 500);
      const read = await Promise.all(batch.map((handle) => store.read("plain\nanyone", handle)));
      expect(read.every((state) => state === undefined)).toBe(true);
    }
    for (const handle of handles.slice(0, 200)) {
      expect(await store.write("plain\nanyone", handle, { x: 1 })).toBe(false);
      expect(await store.remove("plain\nanyone", handle)).toBe(false);
    }
    expect(await handleObjects()).toBe(before);
  }, 60_000);

  it("answers made-up handles in tool calls as unknown, without waking a handle object", async () => {
    const before = await handleObjects();
    for (const handle of madeUpHandles(6)) {
      for (const tool of ["note_read", "note_delete"]) {
        const reply = await noteCall(tool, { handle });
        expect(reply.result?.isError, `${tool} ${handle}`).toBe(true);
        expect(reply.result?.content[0]?.text).toMatch(/is unknown, has expired, or was not created for you/);
      }
    }
    expect(await handleObjects()).toBe(before);
  });

  it("still finds a real handle, and refuses its object id with another secret as unknown", async () => {
    const handle = (await noteCall("note_save", { text: "kept" })).result?.content[0]?.text as string;
    expect(handle).toMatch(/^h_[0-9a-f]{64}\.[A-Za-z0-9_-]{32}$/);
    expect((await noteCall("note_read", { handle })).result?.content[0]?.text).toBe("kept");
    const forged = `${handle.slice(0, 67)}${made(32, B64)}`;
    expect((await noteCall("note_read", { handle: forged })).result?.isError).toBe(true);
    expect((await noteCall("note_delete", { handle })).result?.content[0]?.text).toBe("deleted");
  });
});
