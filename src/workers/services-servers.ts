/** What `toolServices()` and `remoteServers()` share: the server of each env for a Worker, its changes announced. */

import { DefinitionError } from "../core/definition-error.ts";
import { relayedChangeFeed } from "../server/notifications/change-relay.ts";
import type { McpServer, ServerOptions } from "../server/server.ts";
import { durableChangeRelay, notificationShardsOf } from "./notifications/durable-change-relay.ts";
import type { McpEnv } from "./env.ts";

/** Builds the server of an env over the Worker's own options; `changed(previous)` announces that a new one replaced it. */
export type ServicesServer = (
  base: ServerOptions,
  env: object,
  changed: (previous: McpServer, waitUntil?: (promise: Promise<unknown>) => void) => void,
) => Promise<McpServer>;

/**
 * `serversOf` of a services opt-in: `server` over the Worker's own options for each env, a changed
 * catalogue announced as `tools/list_changed` through the notification hub when MCP_NOTIFICATIONS is
 * bound (else to the listeners of this isolate), with the `waitUntil` of the request that found it.
 * `onRequest` sees each request the Worker serves (remote servers note the hosts it is reached at).
 */
export function servicesServersOf(
  server: ServicesServer,
  base: McpServer | ServerOptions,
  worker: { tenant?: string | undefined; notificationShards?: number | undefined },
  onRequest?: (request: Request) => void,
): (env: McpEnv, waitUntil?: (promise: Promise<unknown>) => void, request?: Request) => Promise<McpServer> {
  if ("handle" in base) {
    throw new DefinitionError("createWorker option services needs the server as options (createWorker({ info, tools }, { services })), not a compiled server");
  }
  const tenant = worker.tenant ?? "default";
  return (env, waitUntil = () => {}, request) => {
    if (request && onRequest) onRequest(request);
    return server(base, env, (previous, callWaitUntil) => {
      const relay = env.MCP_NOTIFICATIONS
        ? durableChangeRelay(env.MCP_NOTIFICATIONS, tenant, { shards: notificationShardsOf(env, worker.notificationShards) })
        : undefined;
      (relay ? relayedChangeFeed(relay, callWaitUntil ?? waitUntil) : previous.changes).toolsListChanged();
    });
  };
}
