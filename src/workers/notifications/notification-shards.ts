/** How many hub objects a single-tenant Worker spreads its change notifications over (option or var). */

import { DefinitionError } from "../../core/definition-error.ts";
import { MAX_RELAY_SHARDS } from "../../server/notifications/change-relay.ts";

/**
 * The shard count of a single-tenant Worker and its session objects: the option, else
 * MCP_NOTIFICATION_SHARDS (a var); 1 when neither is set. Throws a DefinitionError naming the bad value.
 */
export function notificationShardsOf(env: { MCP_NOTIFICATION_SHARDS?: string }, option: number | undefined): number {
  // The option wins over the var; the var sets what the code leaves unset.
  const text = option === undefined ? env.MCP_NOTIFICATION_SHARDS?.trim() : undefined;
  const value = text === undefined || text === "" ? (option ?? 1) : /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_RELAY_SHARDS) {
    const given = text === undefined || text === "" ? `notificationShards ${String(option)}` : `MCP_NOTIFICATION_SHARDS "${text}"`;
    throw new DefinitionError(`the notification hub shard count must be an integer from 1 to ${MAX_RELAY_SHARDS}; got ${given}`);
  }
  return value;
}
