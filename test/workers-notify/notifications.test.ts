// Change notifications through the hub on workerd: sharing, release, the slow-listener limit, hub resets, shards, isolates.
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { ChangeSink } from "../../src/server/notifications/change-hub.ts";
import type { SubscriptionFilter } from "../../src/server/notifications/subscription-filter.ts";
import { durableChangeRelay, hubShard } from "../../src/workers/notifications/durable-change-relay.ts";
import { auxiliary, call, hubSubscribers, legacyPost, listen, openStreams, resetHub, runner, sseMessages, type Listener } from "./client.ts";

const TOOLS_CHANGED = "notifications/tools/list_changed";
const WAIT = { timeout: 5000, interval: 20 };
// A hub object learns that a subscription was cancelled at its next write (a heartbeat every 5 s).
const HUB_WAIT = { timeout: 12_000, interval: 50 };

const completeFor = (listener: Listener) => ({
  jsonrpc: "2.0",
  id: listener.id,
  result: { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": listener.id } },
});

async function acknowledged(listener: Listener): Promise<void> {
  expect((await listener.next())?.["method"]).toBe("notifications/subscriptions/acknowledged");
}

/** Subscribes a sink directly to a relay: another isolate than the fixture's. Resolves once it is live. */
async function subscribeDirectly(relay: ReturnType<typeof durableChangeRelay>, filter: SubscriptionFilter) {
  const received: string[] = [];
  let stop: () => void = () => {};
  await new Promise<void>((ready, fail) => {
    const sink: ChangeSink = {
      send: (method, params) => received.push(typeof params["uri"] === "string" ? `${method} ${params["uri"]}` : method),
      ready: () => ready(),
      end: (reason) => fail(new Error(reason)),
    };
    stop = relay.subscribe(filter, sink);
  });
  return { received, stop };
}

describe("listen streams through the hub (workerd defaults)", () => {
  it("shares one hub subscription among an isolate's listeners, keeps delivering when its holder leaves, and releases everything when the clients close", async () => {
    const first = await listen(auxiliary, "solo", { toolsListChanged: true });
    const second = await listen(auxiliary, "solo", { toolsListChanged: true });
    await acknowledged(first);
    await acknowledged(second);
    expect(await hubSubscribers(auxiliary, "solo")).toBe(1);
    expect(await openStreams(auxiliary)).toBe(2);
    await first.close(); // the holder: the second listener takes the hub subscription over
    await call(auxiliary, "solo", "announce_tools");
    expect((await second.next())?.["method"]).toBe(TOOLS_CHANGED);
    await second.close();
    await vi.waitFor(async () => expect([await openStreams(auxiliary), await hubSubscribers(auxiliary, "solo")]).toEqual([0, 0]), HUB_WAIT);
  }, 20_000);

  it("ends a listener that reads too slowly with the listen result, instead of queueing without bound", async () => {
    const slow = await listen(auxiliary, "slow", { resourceSubscriptions: ["test://slow"] });
    await acknowledged(slow);
    // The client reads nothing while 300 updates of ~300 bytes arrive (the tenant's limit is 4 KiB).
    await call(auxiliary, "slow", "announce_updates", { prefix: `test://slow/${"x".repeat(200)}`, count: 300 });
    const messages: Record<string, unknown>[] = [];
    for (let message = await slow.next(); message; message = await slow.next()) messages.push(message);
    expect(messages.at(-1)).toEqual(completeFor(slow));
    expect(messages.length).toBeLessThan(300);
    await vi.waitFor(async () => expect(await hubSubscribers(auxiliary, "slow")).toBe(0), HUB_WAIT);
  }, 20_000);

  it("ends every listen stream gracefully when the hub is reset; a client that listens again is told to refresh, then gets the next change", async () => {
    const listeners = [await listen(auxiliary, "solo", { toolsListChanged: true }), await listen(auxiliary, "solo", { toolsListChanged: true })];
    for (const listener of listeners) await acknowledged(listener);
    await resetHub(auxiliary, "solo");
    for (const listener of listeners) {
      expect(await listener.next()).toEqual(completeFor(listener));
      // Clients are told to come back after a spread delay (1 to 5 s).
      expect(Number(/^retry: (\d+)$/m.exec(listener.text)?.[1])).toBeGreaterThanOrEqual(1000);
      expect(await listener.next()).toBeUndefined();
    }
    // A change announced while the clients are away is not lost to them: a client that listens
    // again soon is told to list again, before anything else is published.
    await call(auxiliary, "solo", "announce_tools");
    const again = await listen(auxiliary, "solo", { toolsListChanged: true, resourceSubscriptions: ["test://held"] });
    await acknowledged(again);
    expect(await again.next()).toMatchObject({ method: TOOLS_CHANGED, params: { _meta: { "io.modelcontextprotocol/subscriptionId": again.id } } });
    expect(await again.next()).toMatchObject({ method: "notifications/resources/updated", params: { uri: "test://held" } });
    await call(auxiliary, "solo", "announce_tools");
    expect((await again.next())?.["method"]).toBe(TOOLS_CHANGED);
    await again.close();
  });

  it("brings a change published in one isolate to listeners in another, both ways", async () => {
    const listener = await listen(auxiliary, "solo", { toolsListChanged: true });
    await acknowledged(listener);
    // This test's own isolate: a relay of its own over the fixture's hub.
    const here = durableChangeRelay(env.NOTIFY_HUB, "solo");
    await here.publish(TOOLS_CHANGED, {});
    expect((await listener.next())?.["method"]).toBe(TOOLS_CHANGED);
    const remote = await subscribeDirectly(here, { resourceSubscriptions: ["test://cross"] });
    expect(await hubSubscribers(auxiliary, "solo")).toBe(2);
    await call(auxiliary, "solo", "announce_updates", { prefix: "test://cross", count: 1 });
    await vi.waitFor(() => expect(remote.received).toEqual(["notifications/resources/updated test://cross/0"]), WAIT);
    remote.stop();
    await listener.close();
  });

  it("delivers a change to the isolates on each of a tenant's two hub shards", async () => {
    const keyFor = (shard: number) => {
      for (let i = 0; ; i++) if (hubShard(`isolate-${i}`, 2) === shard) return `isolate-${i}`;
    };
    const isolates = await Promise.all(
      [0, 1].map((shard) => subscribeDirectly(durableChangeRelay(env.NOTIFY_HUB, "duo", { shards: 2, isolateKey: keyFor(shard) }), { toolsListChanged: true })),
    );
    const listener = await listen(auxiliary, "duo", { toolsListChanged: true }); // the fixture's isolate, on one of the two
    await acknowledged(listener);
    expect((await hubSubscribers(auxiliary, "duo")) + (await hubSubscribers(auxiliary, "duo#1"))).toBe(3);
    expect(Math.min(await hubSubscribers(auxiliary, "duo"), await hubSubscribers(auxiliary, "duo#1"))).toBeGreaterThanOrEqual(1);
    // Published by the fixture, whose relay for "duo" fans the publish out to both shards.
    await call(auxiliary, "duo", "announce_tools");
    expect((await listener.next())?.["method"]).toBe(TOOLS_CHANGED);
    await vi.waitFor(() => expect(isolates.map((i) => i.received)).toEqual([[TOOLS_CHANGED], [TOOLS_CHANGED]]), WAIT);
    for (const isolate of isolates) isolate.stop();
    await listener.close();
  });

  it("coalesces a burst of list changes in the hub: the first at once, one more when the window closes", async () => {
    const relay = durableChangeRelay(env.NOTIFY_HUB, "burst");
    const listener = await subscribeDirectly(relay, { toolsListChanged: true, promptsListChanged: true });
    const hub = env.NOTIFY_HUB.get(env.NOTIFY_HUB.idFromName("burst"));
    await Promise.all(Array.from({ length: 5 }, () => hub.publish(TOOLS_CHANGED, {})));
    await vi.waitFor(() => expect(listener.received).toEqual([TOOLS_CHANGED, TOOLS_CHANGED]), WAIT);
    await relay.publish("notifications/prompts/list_changed", {});
    await vi.waitFor(() => expect(listener.received).toHaveLength(3), WAIT);
    expect(listener.received).toEqual([TOOLS_CHANGED, TOOLS_CHANGED, "notifications/prompts/list_changed"]);
    listener.stop();
  });
});

describe("listen streams without cross-request wake-ups (the runner's flags, as before compatibility date 2024-10-14)", () => {
  it("has each listener read the hub itself, delivers to every one, and releases them when the clients close", async () => {
    const listeners = [await listen(runner, "solo", { toolsListChanged: true }), await listen(runner, "solo", { toolsListChanged: true })];
    for (const listener of listeners) await acknowledged(listener);
    expect(await hubSubscribers(runner, "solo")).toBe(2);
    await call(runner, "solo", "announce_tools");
    for (const listener of listeners) expect((await listener.next())?.["method"]).toBe(TOOLS_CHANGED);
    for (const listener of listeners) await listener.close();
    await vi.waitFor(async () => expect(await hubSubscribers(runner, "solo")).toBe(0), HUB_WAIT);
  }, 20_000);
});

describe("2025 session GET streams through the hub", () => {
  it("carry changes from the hub, and after a hub reset subscribe again and announce what may have been lost", async () => {
    const init = await legacyPost(auxiliary, undefined, "initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    });
    const sessionId = init.headers.get("mcp-session-id") as string;
    await init.text();
    const get = await auxiliary.fetch("http://localhost/t/legacy/mcp", {
      headers: { accept: "text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
    });
    const stream = sseMessages(get);
    await (await legacyPost(auxiliary, sessionId, "tools/call", { name: "announce_tools", arguments: {} })).text();
    expect(await stream.next()).toEqual({ jsonrpc: "2.0", method: TOOLS_CHANGED, params: {} });
    await resetHub(auxiliary, "legacy");
    // Within 1 to 5 s the session subscribes again and announces every list as changed.
    const resync = [await stream.next(), await stream.next(), await stream.next()].map((m) => m?.["method"]);
    expect(resync).toEqual([TOOLS_CHANGED, "notifications/prompts/list_changed", "notifications/resources/list_changed"]);
    await (await legacyPost(auxiliary, sessionId, "tools/call", { name: "announce_tools", arguments: {} })).text();
    expect(await stream.next()).toEqual({ jsonrpc: "2.0", method: TOOLS_CHANGED, params: {} });
    await stream.close();
    await (
      await auxiliary.fetch("http://localhost/t/legacy/mcp", {
        method: "DELETE",
        headers: { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
      })
    ).text();
  }, 15_000);
});
