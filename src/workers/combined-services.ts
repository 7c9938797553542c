/**
 * More than one kind of services for `createWorker`: `combinedServices(toolServices([...]),
 * remoteServers([...]))`. Each builds on the options the one before compiled, so the Worker serves
 * its own tools, then each one's, under their prefixes (a name taken is left out, as within one).
 */

import { DefinitionError } from "../core/definition-error.ts";
import type { McpServer, ServerOptions } from "../server/server.ts";
import { servicesServersOf, type ServicesServer } from "./services-servers.ts";
import type { ToolServices } from "./tool-services.ts";

/**
 * The value of `createWorker`'s `services` option made of several: `toolServices()` and
 * `remoteServers()`, in order. A change of any one is announced once, as the last builds again. An
 * upstream's `list_changed` read during a call is announced before the call returns when
 * `remoteServers()` comes last, else on the next request.
 *
 * @example
 * createWorker({ info, tools }, { services: combinedServices(toolServices([{ binding: "WEATHER", prefix: "weather" }]), remoteServers([{ url, prefix: "docs" }])) });
 */
export function combinedServices(...list: readonly ToolServices[]): ToolServices {
  if (list.length < 2 || list.some((services) => services?.kind !== "edge-mcp/tool-services" || typeof services.optionsOf !== "function"))
    throw new DefinitionError("combinedServices() takes two or more of toolServices([...]) and remoteServers([...]) from edge-mcp/workers");
  const last = list[list.length - 1] as ToolServices;
  const server: ServicesServer = async (base, env, changed) => {
    let options: ServerOptions = base;
    for (const services of list.slice(0, -1)) {
      // Only the last one's change is announced: any change before it gives it new options, so it builds again.
      const built: McpServer = await services.server(options, env, () => {});
      options = services.optionsOf?.(built) ?? options;
    }
    return last.server(options, env, changed);
  };
  const noteRequest = (request: Request) => {
    for (const services of list) services.noteRequest?.(request);
  };
  return {
    kind: "edge-mcp/tool-services",
    server,
    serversOf: (base, worker) => servicesServersOf(server, base, worker, noteRequest),
    optionsOf: (built) => last.optionsOf?.(built),
    noteRequest,
  };
}
