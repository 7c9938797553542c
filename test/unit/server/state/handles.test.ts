// ctx.handles over the memory store: scope binding, expiry, forged handles, and what happens without a store.
import { describe, expect, it } from "vitest";
import { HandleError, createHandles, createMemoryHandleStore } from "../../../../src/server/state/handles.ts";
import { admission, principal } from "../../../admission.ts";

describe("createHandles", () => {
  it("stores a copy of the state under a fresh handle and refuses it to another scope", async () => {
    const store = createMemoryHandleStore();
    const alice = createHandles(store, admission("acme", principal("alice")));
    const state = { entries: ["a"] };
    const handle = await alice.create(state);
    state.entries.push("mutated after create");
    expect(handle).toMatch(/^h_[A-Za-z0-9_-]{32}$/);
    expect(await alice.get(handle)).toEqual({ entries: ["a"] });
    await alice.update(handle, { entries: ["a", "b"] });
    expect(await alice.get(handle)).toEqual({ entries: ["a", "b"] });
    const bob = createHandles(store, admission("acme", principal("bob")));
    await expect(bob.get(handle)).rejects.toBeInstanceOf(HandleError);
    await expect(bob.update(handle, {})).rejects.toBeInstanceOf(HandleError);
    await alice.delete(handle);
    await expect(alice.get(handle)).rejects.toThrow(/unknown, has expired, or was not created for you/);
  });

  it("expires handles after their lifetime", async () => {
    let now = 0;
    const handles = createHandles(
      createMemoryHandleStore(() => now),
      admission("s"),
      undefined,
      () => now,
    );
    const handle = await handles.create("x", { ttlMs: 100 });
    now = 99;
    expect(await handles.get(handle)).toBe("x");
    now = 100;
    await expect(handles.get(handle)).rejects.toBeInstanceOf(HandleError);
  });

  it.each([undefined, 42, "", "h_short", `h_${"!".repeat(32)}`])("refuses the malformed handle %j without touching the store", async (handle) => {
    const store = {
      create: async () => {},
      read: async () => {
        throw new Error("must not be read");
      },
      write: async () => false,
      remove: async () => false,
    };
    await expect(createHandles(store, admission("s")).get(handle)).rejects.toBeInstanceOf(HandleError);
  });

  it("explains what to bind when there is no store", async () => {
    await expect(createHandles(undefined, admission("s")).create({})).rejects.toThrow(/MCP_HANDLES/);
  });
});
