/**
 * The change relay on Workers: publishes go to every hub shard of the tenant; listeners of an
 * isolate share one subscription to the shard their isolate hashes to.
 */

import { MAX_RELAY_SHARDS, type ChangeRelay } from "../../server/notifications/change-relay.ts";
import type { ChangeSink } from "../../server/notifications/change-hub.ts";
import { crossRequestWakeSupported } from "../../server/notifications/doorbell.ts";
import { publishWithRetries } from "../../server/notifications/publish-retry.ts";
import { SharedSubscription, type HubPosition } from "../../server/notifications/shared-subscription.ts";
import type { SubscriptionFilter } from "../../server/notifications/subscription-filter.ts";
import type { DurableObject } from "cloudflare:workers";
import type { TraceCarrier } from "../../core/admission.ts";
import type { JsonObject } from "../../core/types.ts";

export { notificationShardsOf } from "./notification-shards.ts";

/** The hub's RPC the relay calls: McpNotificationHub's (createNotificationHub brings the relay, so the hub is not imported here). */
interface NotificationHubRpc extends DurableObject {
  publish(method: string, params: JsonObject, trace?: TraceCarrier): void;
}

export interface DurableChangeRelayOptions {
  /**
   * Hub objects the tenant's notifications are spread over (1 to 64, default 1). Every publish
   * goes to each of them; each isolate's listeners read one. A function when the count comes from
   * configuration loaded asynchronously (a session object's tenant). Publishers and listeners of a
   * tenant must agree on it.
   */
  shards?: number | (() => Promise<number>);
  /** What this isolate's shard is hashed from (default: random per relay, so per isolate). */
  isolateKey?: string;
  /**
   * Share one hub subscription among this relay's listeners (default: when the runtime wakes a
   * request's continuation in that request, see `crossRequestWakeSupported`). Off: each listener
   * reads the hub itself.
   */
  share?: boolean;
}

/** The object name of a tenant's hub shard: shard 0 keeps the tenant's name (one hub, as before sharding). */
export function hubName(tenant: string, shard: number): string {
  return shard === 0 ? tenant : `${tenant}#${shard}`;
}

/** The shard (0 to shards - 1) that an isolate key hashes to (FNV-1a, 32 bits). */
export function hubShard(isolateKey: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < isolateKey.length; i++) hash = Math.imul(hash ^ isolateKey.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % shards;
}

function checkShards(shards: number): number {
  if (!Number.isSafeInteger(shards) || shards < 1 || shards > MAX_RELAY_SHARDS) {
    throw new Error(`the notification hub shard count must be an integer from 1 to ${MAX_RELAY_SHARDS}; got ${shards}`);
  }
  return shards;
}

/**
 * A {@link ChangeRelay} over the McpNotificationHub objects of one tenant. Build one per isolate
 * and tenant (the Worker entries do): its listeners then share one hub subscription.
 */
export function durableChangeRelay<Hub extends NotificationHubRpc>(
  namespace: DurableObjectNamespace<Hub>,
  tenant: string,
  options: DurableChangeRelayOptions = {},
): ChangeRelay {
  const given = options.shards ?? 1;
  const shardCount =
    typeof given === "number"
      ? (
          (n) => () =>
            Promise.resolve(n)
        )(checkShards(given))
      : async () => checkShards(await given());
  const isolateKey = options.isolateKey ?? crypto.randomUUID();
  const share = options.share ?? crossRequestWakeSupported();
  const hub = (shard: number) => namespace.get(namespace.idFromName(hubName(tenant, shard)));
  const opener = (shard: number) => async (after: HubPosition | undefined, signal: AbortSignal) => {
    const query = after ? `?epoch=${encodeURIComponent(after.epoch)}&after=${after.seq}` : "";
    const response = await hub(shard).fetch(`https://hub.edge-mcp.internal/subscribe${query}`, { signal });
    if (!response.ok || !response.body) throw new Error(`the notification hub answered ${response.status}`);
    return response.body;
  };
  const pools = new Map<number, SharedSubscription>();
  const source = (shards: number) => {
    const shard = hubShard(isolateKey, shards);
    if (!share) return new SharedSubscription(opener(shard));
    let pool = pools.get(shard);
    if (!pool) {
      pool = new SharedSubscription(opener(shard));
      pools.set(shard, pool);
    }
    return pool;
  };
  const fixed = typeof given === "number" ? given : undefined;
  return {
    async publish(method, params, trace) {
      const shards = await shardCount();
      // A hub being reset or redeployed refuses the call: each shard is retried with a fresh stub.
      await Promise.all(
        Array.from({ length: shards }, (_, shard) =>
          publishWithRetries(`${method} (hub ${hubName(tenant, shard)})`, () => hub(shard).publish(method, params, trace)),
        ),
      );
    },
    subscribe(filter: SubscriptionFilter, sink: ChangeSink) {
      if (fixed !== undefined) return source(fixed).subscribe(filter, sink);
      // The count is loaded first; the continuation still runs in the subscriber's request.
      let stop: (() => void) | undefined;
      let stopped = false;
      shardCount().then(
        (shards) => {
          if (!stopped) stop = source(shards).subscribe(filter, sink);
        },
        (error: unknown) => sink.end?.(`the notification hub shard count is unavailable: ${error instanceof Error ? error.message : String(error)}`),
      );
      return () => {
        stopped = true;
        stop?.();
      };
    },
  };
}
