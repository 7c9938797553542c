/**
 * Other MCP servers as modules of a single-tenant Worker: `createWorker({ info, tools }, { services:
 * remoteServers([{ url: "https://mcp.example.com/mcp", prefix: "example" }]) })`. An opt-in import:
 * Workers without it bundle no MCP client.
 */

import { sha256Hex } from "../core/bytes.ts";
import { requestHost } from "../core/host.ts";
import { DefinitionError } from "../core/definition-error.ts";
import type { RemoteModule } from "../modules/remote/remote-module.ts";
import { collectRemoteModule } from "../modules/remote/remote-parts.ts";
import { createServer, type McpServer, type ServerOptions } from "../server/server.ts";
import type { UnavailableModule } from "../server/tools/tool-registry.ts";
import type { ToolDefinition } from "../server/tools/tool.ts";
import { servicesServersOf } from "./services-servers.ts";
import { parseRemote, type RemoteRef } from "../tenancy/remote-section.ts";
import { envFlag } from "./env.ts";
import { remoteModuleOf } from "./remote-module-of.ts";
import type { ToolServices } from "./tool-services.ts";

/** One upstream MCP server: the `remote` settings of a tenant's module, with its prefix and timeout. */
export interface RemoteServer extends RemoteRef {
  /** Listed names are `<prefix>_<tool>`; also the module's name in errors. */
  prefix: string;
  /** How long a request to it may take, in ms (default 10000). */
  timeoutMs?: number;
}

export interface RemoteServersOptions {
  /** Allows plain http to loopback upstreams (default: the MCP_DEV var). */
  development?: boolean;
  fetch?: typeof fetch;
}

const PREFIX = /^[A-Za-z0-9.-][A-Za-z0-9_.-]{0,31}$/;
const DEFAULT_TIMEOUT_MS = 10_000;
/** Hosts the Worker was reached at that are remembered (the most recent), so a client's Host header cannot grow the set. */
const MAX_OWN_HOSTS = 16;
/** A server whose remote lists went stale is built again at most this often (ms). */
const MIN_REFRESH_MS = 1_000;

function checked(servers: readonly RemoteServer[]): { prefix: string; timeoutMs: number; remote: RemoteRef }[] {
  const list: unknown = servers;
  if (!Array.isArray(list) || list.length === 0)
    throw new DefinitionError('remoteServers() needs a list such as [{ url: "https://mcp.example.com/mcp", prefix: "example" }]');
  const prefixes = new Set<string>();
  return servers.map((entry, index) => {
    const fail = (field: string, problem: string): never => {
      throw new DefinitionError(`remoteServers() ${field} ${problem}`);
    };
    const { prefix, timeoutMs = DEFAULT_TIMEOUT_MS, ...rest } = entry;
    if (typeof prefix !== "string" || !PREFIX.test(prefix)) fail(`[${index}].prefix`, "must be 1-32 characters of A-Z a-z 0-9 _ - . (not starting with _)");
    if (prefixes.has(prefix)) fail(`[${index}].prefix`, `${prefix} is used twice; give each server its own`);
    prefixes.add(prefix);
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) fail(`[${index}].timeoutMs`, "must be a positive integer (ms)");
    return { prefix, timeoutMs, remote: parseRemote(rest, `[${index}]`, fail) };
  });
}

/**
 * Tools of other MCP servers, for `createWorker`'s `services` option: each server's tools are
 * listed as `<prefix>_<tool>` and admitted, scoped and validated like the Worker's own; an upstream
 * that fails, hangs or is down makes only its own calls fail. See docs/remote-servers.md.
 *
 * @example
 * export default createWorker({ info, tools }, { services: remoteServers([{ url: "https://mcp.example.com/mcp", prefix: "example" }]) });
 */
export function remoteServers(servers: readonly RemoteServer[], options: RemoteServersOptions = {}): ToolServices {
  const entries = checked(servers);
  type Changed = Parameters<ToolServices["server"]>[2];
  interface State {
    modules: RemoteModule[];
    built: Promise<{ server: McpServer; digest: string; stale: () => boolean; base: ServerOptions }> | undefined;
    builtAt: number;
    /** Set when a call read a changed list: the next server() builds at once. */
    forced: boolean;
    /** The options and announcer of the latest server() call. */
    latest?: { base: ServerOptions; changed: Changed };
  }
  const perEnv = new WeakMap<object, State>();
  const compiledFrom = new WeakMap<McpServer, ServerOptions>();
  // The hosts this Worker was reached at (the most recent few): a server may not be one of them.
  const ownHosts = new Set<string>();
  const noteHost = (request: Request) => {
    const host = requestHost(request).toLowerCase();
    if (ownHosts.delete(host) || ownHosts.size < MAX_OWN_HOSTS) ownHosts.add(host);
    else {
      const oldest = ownHosts.values().next().value;
      if (oldest !== undefined) ownHosts.delete(oldest);
      ownHosts.add(host);
    }
  };
  const refuse = (url: URL) => (ownHosts.has(url.host.toLowerCase()) ? "its url points at this Worker itself, which a remote module may not" : undefined);

  const server: ToolServices["server"] = async (base, env, changed) => {
    let state = perEnv.get(env);
    if (!state) {
      const bindings = env as Record<string, unknown>;
      const development = options.development ?? envFlag(bindings["MCP_DEV"] as string | undefined, false);
      const modules = entries.map((entry) =>
        remoteModuleOf(bindings, entry.remote, {
          name: entry.prefix,
          prefix: entry.prefix,
          timeoutMs: entry.timeoutMs,
          development,
          where: `module ${entry.prefix}`,
          refuse,
          fetch: options.fetch,
        }),
      );
      const created: State = { modules, built: undefined, builtAt: 0, forced: false };
      // A call that reads a changed list builds the server again before it returns, so its change is announced at once
      // (over the options and to the announcer of the latest request: combinedServices() passes its own).
      for (const module of modules) {
        module.onListChanged(async (waitUntil) => {
          created.forced = true;
          const latest = created.latest as { base: ServerOptions; changed: Changed };
          await server(latest.base, env, (previous) => latest.changed(previous, waitUntil));
        });
      }
      state = created;
      perEnv.set(env, state);
    }
    state.latest = { base, changed };
    return (await build(state, base, changed)).server;
  };

  const build = async (current: State, base: Parameters<ToolServices["server"]>[0], changed: Changed) => {
    const now = Date.now();
    if (current.built && !current.forced) {
      const last = await current.built;
      if (last.base === base && !(now - current.builtAt >= MIN_REFRESH_MS && last.stale())) return last;
    }
    const previous = current.built;
    current.forced = false;
    current.builtAt = now;
    current.built = (async () => {
      const tools: ToolDefinition[] = [...(base.tools ?? [])];
      const unavailable: UnavailableModule[] = [...(base.unavailableModules ?? [])];
      const taken = new Set(tools.map((tool) => tool.name));
      const validator = base.features?.find((feature) => feature.jsonSchema)?.jsonSchema;
      const catalogs: unknown[] = [];
      const stale: (() => boolean)[] = [];
      const resources = [...(base.resources ?? [])];
      const templates = [...(base.resourceTemplates ?? [])];
      const prompts = [...(base.prompts ?? [])];
      for (const module of current.modules) {
        const parts = await collectRemoteModule(module, taken, "", validator);
        catalogs.push(parts.catalog);
        stale.push(parts.stale);
        if (parts.unavailable) unavailable.push(parts.unavailable);
        tools.push(...parts.tools);
        resources.push(...parts.resources);
        templates.push(...parts.templates);
        prompts.push(...parts.prompts);
      }
      const digest = await sha256Hex(JSON.stringify(catalogs));
      const isStale = () => stale.some((one) => one());
      const last = previous ? await previous.catch(() => undefined) : undefined;
      if (last && last.digest === digest && last.base === base) return { ...last, stale: isStale };
      const compiled = { ...base, tools, resources, resourceTemplates: templates, prompts, unavailableModules: unavailable };
      const built = { server: createServer(compiled), digest, stale: isStale, base };
      compiledFrom.set(built.server, compiled);
      if (last) changed(last.server);
      return built;
    })();
    const building = current.built;
    building.catch(() => (current.built = undefined));
    return building;
  };

  return {
    kind: "edge-mcp/tool-services",
    server,
    serversOf: (base, worker) => servicesServersOf(server, base, worker, noteHost),
    optionsOf: (built) => compiledFrom.get(built),
    noteRequest: noteHost,
  };
}
