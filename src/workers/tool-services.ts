/**
 * Tools from other Workers in a single-tenant Worker: `createWorker(server, { services:
 * toolServices([{ binding: "WEATHER", prefix: "weather" }]) })`. An opt-in import: Workers without
 * services do not bundle the service-module code.
 */

import { missingBindings } from "../core/missing-bindings.ts";
import { sha256Hex } from "../core/bytes.ts";
import { DefinitionError } from "../core/definition-error.ts";
import type { ToolService } from "../modules/service-contract.ts";
import { collectServiceModule } from "../modules/service-parts.ts";
import type { Skill } from "../server/skills/skill.ts";
import { createServer, type McpServer, type ServerOptions } from "../server/server.ts";
import type { UnavailableModule } from "../server/tools/tool-registry.ts";
import type { ToolDefinition } from "../server/tools/tool.ts";
import { servicesServersOf, type ServicesServer } from "./services-servers.ts";
import type { McpEnv } from "./env.ts";

/** One tool service bound to the Worker (`[[services]]` in wrangler.toml). */
export interface ToolServiceBinding {
  /** The binding's name in wrangler.toml: `binding = "WEATHER"`. */
  binding: string;
  /** Listed names are `<prefix>_<tool>` (default: the binding in lower case). */
  prefix?: string;
  /** How long a call, `describe()` or a file read may take, in ms (default 10000). Calls run as tasks have no timeout. */
  timeoutMs?: number;
}

export interface ToolServicesOptions {
  /** How long a service's catalogue is used before it is read again, in ms (default 5 minutes). */
  catalogTtlMs?: number;
}

/** What `toolServices()` makes: the value of `createWorker`'s `services` option. */
export interface ToolServices {
  readonly kind: "edge-mcp/tool-services";
  /**
   * The server of an env: the Worker's own definitions plus each service's tools and skills.
   * Catalogues are read again after their TTL; when one changed, a new server is built and
   * `changed(previous)` is called to announce it (with the `waitUntil` of the request that found
   * the change, when it is not the one that asked for the server).
   */
  server: ServicesServer;
  /** The options a server of {@link ToolServices.server} was compiled from (for `combinedServices()`, which builds on them). */
  optionsOf?(server: McpServer): ServerOptions | undefined;
  /** Sees each request the Worker serves (remoteServers() notes the hosts it is reached at). */
  noteRequest?(request: Request): void;
  /**
   * The server of each env for a Worker made with these services (`createWorker` and the Durable
   * Object classes made from it): {@link ToolServices.server}, a changed catalogue announced as
   * `tools/list_changed` through the notification hub when MCP_NOTIFICATIONS is bound.
   */
  serversOf(
    server: McpServer | ServerOptions,
    worker: { tenant?: string | undefined; notificationShards?: number | undefined },
  ): (env: McpEnv, waitUntil?: (promise: Promise<unknown>) => void, request?: Request) => Promise<McpServer>;
}

const BINDING = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PREFIX = /^[A-Za-z0-9.-][A-Za-z0-9_.-]{0,63}$/;
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_CATALOG_TTL_MS = 300_000;

interface Built {
  server: McpServer;
  digest: string;
  /** The options it was built over: another base (combinedServices()) builds again. */
  base: ServerOptions;
}

function checked(bindings: readonly ToolServiceBinding[]): Required<ToolServiceBinding>[] {
  const list: unknown = bindings;
  if (!Array.isArray(list) || list.length === 0) throw new DefinitionError('toolServices() needs a list such as [{ binding: "WEATHER", prefix: "weather" }]');
  const prefixes = new Set<string>();
  return bindings.map((entry, index) => {
    const where = `toolServices() entry ${index}`;
    if (typeof entry !== "object" || entry === null || typeof entry.binding !== "string" || !BINDING.test(entry.binding)) {
      throw new DefinitionError(`${where}: binding must be the name of a [[services]] binding, such as "WEATHER"`);
    }
    const prefix = entry.prefix ?? entry.binding.toLowerCase();
    if (typeof prefix !== "string" || !PREFIX.test(prefix))
      throw new DefinitionError(`${where}: prefix must be 1-64 characters of A-Z a-z 0-9 _ - . (not starting with _)`);
    if (prefixes.has(prefix)) throw new DefinitionError(`${where}: prefix ${prefix} is used twice; give each service its own`);
    prefixes.add(prefix);
    const timeoutMs = entry.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) throw new DefinitionError(`${where}: timeoutMs must be a positive integer (ms)`);
    return { binding: entry.binding, prefix, timeoutMs };
  });
}

/** The service bound under a name, or a DefinitionError saying what to add to wrangler.toml. */
function boundService(env: object, binding: string): ToolService {
  const value = (env as Record<string, unknown>)[binding];
  if (value === undefined) throw missingBindings([{ kind: "service", binding, because: "toolServices() names it" }]);
  if (typeof (value as { describe?: unknown }).describe !== "function" || typeof (value as { callTool?: unknown }).callTool !== "function") {
    throw new DefinitionError(
      `toolServices(): ${binding} is not a tool service binding: bind a WorkerEntrypoint with describe() and callTool() (see docs/tool-services.md)`,
    );
  }
  return value as ToolService;
}

/**
 * Tools (and skills) of other Workers, for `createWorker`'s `services` option. Each binding's tools
 * are listed as `<prefix>_<tool>`, admitted, scoped and validated like the Worker's own tools; a
 * service that fails, hangs or is down makes only its own calls fail. A binding missing from
 * wrangler.toml is an error naming it, on the first request.
 *
 * @example
 * export default createWorker({ info, tools }, { services: toolServices([{ binding: "WEATHER", prefix: "weather" }]) });
 */
export function toolServices(bindings: readonly ToolServiceBinding[], options: ToolServicesOptions = {}): ToolServices {
  const services = checked(bindings);
  const ttl = options.catalogTtlMs ?? DEFAULT_CATALOG_TTL_MS;
  if (!Number.isSafeInteger(ttl) || ttl < 0) throw new DefinitionError("toolServices() option catalogTtlMs must be an integer from 0 (ms)");
  const byEnv = new WeakMap<object, { built: Promise<Built>; builtAt: number; base: ServerOptions }>();
  const last = new WeakMap<object, Built>();
  const compiledFrom = new WeakMap<McpServer, ServerOptions>();

  const build = async (base: ServerOptions, env: object, changed: (previous: McpServer) => void): Promise<Built> => {
    const tools: ToolDefinition[] = [...(base.tools ?? [])];
    const skills: Skill[] = [...(base.skills ?? [])];
    const unavailable: UnavailableModule[] = [...(base.unavailableModules ?? [])];
    const taken = { tools: new Set(tools.map((tool) => tool.name)), skills: new Set(skills.map((skill) => skill.root.slice("skill://".length))) };
    const catalogs: unknown[] = [];
    // Every missing binding at once, with the lines to add.
    const absent = services.filter((entry) => (env as Record<string, unknown>)[entry.binding] === undefined);
    if (absent.length > 0) throw missingBindings(absent.map((entry) => ({ kind: "service", binding: entry.binding, because: "toolServices() names it" })));
    for (const entry of services) {
      const module = { name: entry.prefix, prefix: entry.prefix, timeoutMs: entry.timeoutMs, binding: entry.binding };
      const validator = base.features?.find((feature) => feature.jsonSchema)?.jsonSchema;
      const parts = await collectServiceModule(boundService(env, entry.binding), module, taken, "", undefined, validator);
      if (parts.catalog?.apps?.length)
        console.error(`edge-mcp: module ${entry.prefix}: the apps of a tool service are served by createMultiTenantWorker only; they are left out`);
      catalogs.push(parts.catalog);
      if (parts.unavailable) unavailable.push(parts.unavailable);
      tools.push(...parts.tools);
      skills.push(...parts.skills);
    }
    const digest = await sha256Hex(JSON.stringify(catalogs));
    const previous = last.get(env);
    if (previous && previous.digest === digest && previous.base === base) return previous;
    const compiled = { ...base, tools, skills, unavailableModules: unavailable };
    const built = { server: createServer(compiled), digest, base };
    compiledFrom.set(built.server, compiled);
    last.set(env, built);
    if (previous) changed(previous.server);
    return built;
  };

  const server: ToolServices["server"] = (base, env, changed) => {
    const now = Date.now();
    const cached = byEnv.get(env);
    if (cached && cached.base === base && now - cached.builtAt < ttl) return cached.built.then((b) => b.server);
    const built = build(base, env, changed);
    byEnv.set(env, { built, builtAt: now, base });
    // A build that fails (a missing binding) is tried again on the next request rather than cached.
    built.catch(() => byEnv.delete(env));
    return built.then((b) => b.server);
  };

  return {
    kind: "edge-mcp/tool-services",
    server,
    serversOf: (base, worker) => servicesServersOf(server, base, worker),
    optionsOf: (built) => compiledFrom.get(built),
  };
}
