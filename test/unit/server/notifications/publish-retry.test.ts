// A change published while its hub restarts: retried with a fresh stub, and reported when it is lost after every try.
import { describe, expect, it, vi } from "vitest";
import { relayedChangeFeed } from "../../../../src/server/notifications/change-relay.ts";
import { PublishFailure, publishWithRetries } from "../../../../src/server/notifications/publish-retry.ts";
import { durableChangeRelay } from "../../../../src/workers/notifications/durable-change-relay.ts";

/** A namespace of hub stubs whose `publish` fails `failures` times in a row (as a hub being reset does), counting stubs. */
function restartingHubs(failures: number) {
  const state = { stubs: 0, calls: 0, published: [] as string[] };
  const namespace = {
    idFromName: (name: string) => name,
    get: () => {
      state.stubs++;
      return {
        publish: async (method: string) => {
          state.calls++;
          if (state.calls <= failures) throw Object.assign(new Error("Durable Object reset because its code was updated."), { retryable: true });
          state.published.push(method);
        },
      };
    },
  };
  return { namespace: namespace as unknown as Parameters<typeof durableChangeRelay>[0], state };
}

describe("publishing through a hub that restarts", () => {
  it("retries a publish the hub refused while it was reset, with a fresh stub each time", async () => {
    const { namespace, state } = restartingHubs(2);
    await durableChangeRelay(namespace, "acme", { share: false }).publish("notifications/tools/list_changed", {});
    expect(state.published).toEqual(["notifications/tools/list_changed"]);
    expect(state.calls).toBe(3);
    expect(state.stubs).toBe(3);
  }, 5_000);

  it("gives up after three tries and says what was lost, which the change feed logs", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const { namespace, state } = restartingHubs(99);
    const relay = durableChangeRelay(namespace, "acme", { share: false });
    await expect(relay.publish("notifications/tools/list_changed", {})).rejects.toThrow(
      /^notifications\/tools\/list_changed \(hub acme\) was not published after 3 tries: Durable Object reset/,
    );
    expect(state.calls).toBe(3);
    const waited: Promise<unknown>[] = [];
    relayedChangeFeed(relay, (promise) => waited.push(promise)).toolsListChanged();
    await Promise.all(waited);
    expect(errors.mock.calls.map((call) => call.join(" ")).join("\n")).toMatch(/a change notification could not be relayed: .*was not published after 3 tries/);
    vi.restoreAllMocks();
  }, 10_000);

  it("does not retry an overloaded hub", async () => {
    let calls = 0;
    const overloaded = () => {
      calls++;
      return Promise.reject(Object.assign(new Error("Durable Object is overloaded."), { overloaded: true }));
    };
    await expect(publishWithRetries("x", overloaded, [1, 1])).rejects.toBeInstanceOf(PublishFailure);
    expect(calls).toBe(1);
  });
});
