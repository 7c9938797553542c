// Hub shards: the shard count of a single-tenant Worker (var or option, validated), names and isolate hashing.
import { describe, expect, it } from "vitest";
import { DefinitionError } from "../../../../src/core/definition-error.ts";
import { hubName, hubShard, notificationShardsOf } from "../../../../src/workers/notifications/durable-change-relay.ts";

describe("notificationShardsOf", () => {
  it("is 1 by default, the option when given (over MCP_NOTIFICATION_SHARDS), else the var", () => {
    expect(notificationShardsOf({}, undefined)).toBe(1);
    expect(notificationShardsOf({}, 4)).toBe(4);
    expect(notificationShardsOf({ MCP_NOTIFICATION_SHARDS: " 8 " }, 4)).toBe(4);
    expect(notificationShardsOf({ MCP_NOTIFICATION_SHARDS: " 8 " }, undefined)).toBe(8);
    expect(notificationShardsOf({ MCP_NOTIFICATION_SHARDS: "" }, 2)).toBe(2);
    expect(notificationShardsOf({ MCP_NOTIFICATION_SHARDS: "64" }, undefined)).toBe(64);
  });

  it.each([
    [{ MCP_NOTIFICATION_SHARDS: "0" }, undefined, /got MCP_NOTIFICATION_SHARDS "0"/],
    [{ MCP_NOTIFICATION_SHARDS: "65" }, undefined, /from 1 to 64; got MCP_NOTIFICATION_SHARDS "65"/],
    [{ MCP_NOTIFICATION_SHARDS: "two" }, undefined, /got MCP_NOTIFICATION_SHARDS "two"/],
    [{ MCP_NOTIFICATION_SHARDS: "1e1" }, undefined, /got MCP_NOTIFICATION_SHARDS "1e1"/],
    [{ MCP_NOTIFICATION_SHARDS: "-2" }, undefined, /got MCP_NOTIFICATION_SHARDS "-2"/],
    [{}, 0, /got notificationShards 0/],
    [{}, 1.5, /got notificationShards 1.5/],
    [{}, 100, /got notificationShards 100/],
    [{}, Number.NaN, /got notificationShards NaN/],
  ])("refuses %j with option %s, naming the value", (env, option, message) => {
    expect(() => notificationShardsOf(env, option)).toThrow(DefinitionError);
    expect(() => notificationShardsOf(env, option)).toThrow(message);
  });
});

describe("hub shards", () => {
  it("keeps the tenant's own name for shard 0 and numbers the others", () => {
    expect(hubName("acme", 0)).toBe("acme");
    expect(hubName("acme", 3)).toBe("acme#3");
  });

  it("hashes isolates onto every shard, always the same shard for the same key", () => {
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const shard = hubShard(`isolate-${i}`, 4);
      expect(shard).toBe(hubShard(`isolate-${i}`, 4));
      expect(shard).toBeGreaterThanOrEqual(0);
      expect(shard).toBeLessThan(4);
      seen.add(shard);
    }
    expect(seen.size).toBe(4);
    expect(hubShard("anything", 1)).toBe(0);
  });
});
