/** The notification hub class of a Worker: the Worker reaches the hubs bound as MCP_NOTIFICATIONS through the relay it hands over. */

import { DefinitionError } from "../../core/definition-error.ts";
import { wiringOf } from "../durable-wiring.ts";
import type { McpWorker } from "../env.ts";
import { durableChangeRelay } from "./durable-change-relay.ts";
import { McpNotificationHub } from "./notification-hub.ts";

/**
 * Hands the relay over MCP_NOTIFICATIONS to the Worker and gives back the hub class to export
 * under the class name bound as MCP_NOTIFICATIONS in wrangler.toml. A Worker without it bundles
 * none of the relay's code.
 *
 * @example
 * const worker = createWorker(server);
 * export default worker;
 * export const McpNotificationHub = createNotificationHub(worker);
 */
export function createNotificationHub(worker: McpWorker<never>): typeof McpNotificationHub {
  const wiring = wiringOf(worker);
  if (!wiring) throw new DefinitionError("createNotificationHub(worker) takes the Worker from createWorker or createMultiTenantWorker");
  wiring.relay = durableChangeRelay;
  return McpNotificationHub;
}
