// ctx.handles on the McpHandleObject Durable Object: the notebook tools, eviction, expiry, scopes.
import { env } from "cloudflare:workers";
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { durableHandleStore, handleObjectId, type McpHandleObject } from "../../src/workers/state/handle-object.ts";
import { post, postModern, rpc } from "./post.ts";

const handles = (env as unknown as { MCP_HANDLES: DurableObjectNamespace<McpHandleObject> }).MCP_HANDLES;
const stubOf = (handle: string) => handles.get(handleObjectId(handles, handle) as DurableObjectId);

async function call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  return (await rpc(await postModern("tools/call", { name, arguments: args }))).result as Record<string, unknown>;
}

async function open(title: string): Promise<string> {
  const result = await call("notebook_open", { title });
  return (result["structuredContent"] as { handle: string }).handle;
}

function text(result: Record<string, unknown>): string {
  return (result["content"] as { text: string }[])[0]?.text ?? "";
}

describe("notebook tools (handles)", () => {
  it("keeps state between stateless calls under an opaque handle", async () => {
    const handle = await open("groceries");
    expect(handle).toMatch(/^h_[0-9a-f]{64}\.[A-Za-z0-9_-]{32}$/);
    expect(text(await call("notebook_append", { handle, text: "milk" }))).toBe('"groceries" now has 1 line(s)');
    expect(text(await call("notebook_append", { handle, text: "eggs" }))).toBe('"groceries" now has 2 line(s)');
    expect((await call("notebook_read", { handle }))["structuredContent"]).toEqual({ title: "groceries", entries: ["milk", "eggs"] });
  });

  it("serves 2025-11-25 clients the same handles", async () => {
    const handle = await open("shared");
    const reply = await rpc(
      await post({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "notebook_append", arguments: { handle, text: "from 2025" } } }),
    );
    expect(text(reply.result as Record<string, unknown>)).toBe('"shared" now has 1 line(s)');
  });

  it("survives the Durable Object being evicted", async () => {
    const handle = await open("durable");
    await call("notebook_append", { handle, text: "before" });
    await evictDurableObject(stubOf(handle));
    expect((await call("notebook_read", { handle }))["structuredContent"]).toEqual({ title: "durable", entries: ["before"] });
  });

  it.each(["h_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", `h_${"0".repeat(64)}.${"A".repeat(32)}`, "not-a-handle", ""])(
    "answers the forged handle %j with an isError result",
    async (handle) => {
      const result = await call("notebook_append", { handle, text: "x" });
      expect(result["isError"]).toBe(true);
      expect(text(result)).toMatch(/unknown, has expired, or was not created for you/);
    },
  );
});

describe("durableHandleStore", () => {
  const store = durableHandleStore(handles);
  const handle = () => (store.mint as () => string)();

  it("refuses a handle to any other scope", async () => {
    const h = handle();
    await store.create("tenant-a:alice", h, { n: 1 }, Date.now() + 60_000);
    expect(await store.read("tenant-a:bob", h)).toBeUndefined();
    expect(await store.read("tenant-b:alice", h)).toBeUndefined();
    expect(await store.write("tenant-b:alice", h, { n: 2 })).toBe(false);
    expect(await store.remove("tenant-b:alice", h)).toBe(false);
    expect(await store.read("tenant-a:alice", h)).toEqual({ n: 1 });
  });

  it("expires: reads after the deadline see nothing, and the alarm deletes the storage", async () => {
    const h = handle();
    await store.create("s", h, { n: 1 }, Date.now() + 30);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await store.read("s", h)).toBeUndefined();
    const storedKeys = (h: string) => runInDurableObject(stubOf(h), async (_instance, state) => [...(await state.storage.list()).keys()].sort());
    const h2 = handle();
    await store.create("s", h2, { n: 2 }, Date.now() + 60_000);
    // An alarm that fires early (or late) keeps a live handle and re-arms itself.
    expect(await runDurableObjectAlarm(stubOf(h2))).toBe(true);
    expect(await storedKeys(h2)).toEqual(["expiresAt", "handle", "scope", "state"]);
    const h3 = handle();
    await store.create("s", h3, { n: 3 }, Date.now() + 30);
    await new Promise((resolve) => setTimeout(resolve, 60));
    await runDurableObjectAlarm(stubOf(h3)); // unless it already ran on its own
    expect(await storedKeys(h3)).toEqual([]);
  });

  it("deletes on request, after which the handle is gone", async () => {
    const h = handle();
    await store.create("s", h, "x", Date.now() + 60_000);
    expect(await store.remove("s", h)).toBe(true);
    expect(await store.read("s", h)).toBeUndefined();
    expect(await store.remove("s", h)).toBe(false);
  });
});
