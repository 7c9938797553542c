/** The Worker entry: builds the MCP app once per isolate from the server and the env vars. */

import { DefinitionError } from "../core/definition-error.ts";
import { createEndpointApp, type McpApp } from "../http/app.ts";
import { createEndpoint, type Endpoint, type McpAppOptions, type ResponseMode } from "../http/endpoint.ts";
import type { TaskSettings } from "../http/tasks/task-gateway.ts";
import { createServer, type McpServer, type ServerOptions } from "../server/server.ts";
import { checkOptions } from "../core/option-checks.ts";
import type { Authorizer } from "../http/admission/authorizer.ts";
import type { RateLimiter } from "../http/admission/rate-limiter.ts";
import type { TenantRateLimits } from "../tenancy/tenant-config.ts";
import { tenantRateLimiter } from "./tenant-rate-limiter.ts";
import { authorizerFor } from "./authorizer-of-env.ts";
import { envFlag, envList, type McpEnv, type McpWorker } from "./env.ts";
import { warnAboutSetup } from "./isolate-warnings.ts";
import { loadOrAnswer } from "./definition-failure.ts";
import { SERVICES_RULE, WORKER_OPTION_RULES } from "./worker-option-rules.ts";
import { durableHandleStore } from "./state/handle-object.ts";
import { notificationShardsOf } from "./notifications/notification-shards.ts";
import { holdWiring, type DurableWiring } from "./durable-wiring.ts";
import { durableQuotaCounter } from "./state/quota-object.ts";
import type { Observability } from "./observe/observability.ts";
import type { ToolServices } from "./tool-services.ts";
import { errorResponse } from "../http/responses.ts";
import { misconfigured, missingBindings, type MissingBinding } from "../core/missing-bindings.ts";

/**
 * Options of {@link createWorker}. An option given here wins over the var that can also set it
 * (`responseMode` over MCP_RESPONSE_MODE, `debug` over MCP_DEBUG, `legacySessions` over
 * MCP_LEGACY_SESSIONS, `notificationShards` over MCP_NOTIFICATION_SHARDS); a var sets what the code
 * leaves unset. Host and origin lists are the union of both.
 */
export interface WorkerOptions<E = McpEnv> extends Omit<
  McpAppOptions,
  "server" | "env" | "sessions" | "sessionRoutes" | "handleStore" | "quotaCounter" | "relay" | "tasks" | "authorizer" | "observer"
> {
  /**
   * OAuth resource server (see `createAuthorizer`): an authorizer, or a function that builds one
   * from `env` (called once per env object, in each isolate), for settings kept in vars and secrets.
   */
  authorizer?: Authorizer | ((env: E) => Authorizer);
  /** Traces, usage metering and the usage view: `observability()` (an opt-in import; see docs/observability.md). */
  observe?: Observability;
  /** Keep 2025-era clients in sessions (Durable Objects bound as MCP_SESSIONS). Also MCP_LEGACY_SESSIONS = "true". */
  legacySessions?: boolean;
  /**
   * Tasks (tools declaring `task`), on by default when MCP_TASKS is bound: `false` turns them off,
   * an object sets their TTL and polling interval.
   */
  tasks?: boolean | TaskSettings;
  /**
   * Hub objects (MCP_NOTIFICATIONS) the change notifications are spread over, 1 to 64 (default 1).
   * Also MCP_NOTIFICATION_SHARDS. The session and task objects read the same options.
   */
  notificationShards?: number;
  /**
   * Per-caller and per-tool rate limits on Workers Rate Limiting bindings (`[[ratelimits]]`), the
   * shape of a tenant's `rateLimits`: `{ principal: "CALLS", tool: "TOOL_CALLS" }` names the bindings
   * applied per caller, and per caller and tool (`tenant`: per Worker). Only tool calls are counted,
   * never `initialize` or `tools/list`. A refused call gets 429 with `Retry-After: retryAfterSeconds`
   * (default 60). Not with `rateLimiter`.
   */
  rateLimits?: TenantRateLimits;
  /**
   * Tools from other Workers bound with `[[services]]`: `toolServices([{ binding: "WEATHER", prefix:
   * "weather" }])` (an opt-in import; see docs/tool-services.md). Needs the server as options, not compiled.
   */
  services?: ToolServices;
}

const RESPONSE_MODES: ReadonlySet<string> = new Set(["auto", "json", "sse"]);

/** The response mode: the option, else MCP_RESPONSE_MODE, else "auto"; refuses an unknown value. */
export function responseModeOf(env: McpEnv, option: ResponseMode | undefined): ResponseMode {
  const mode = option ?? (env.MCP_RESPONSE_MODE?.trim() || "auto");
  if (!RESPONSE_MODES.has(mode)) throw new DefinitionError(`MCP_RESPONSE_MODE must be "auto", "json" or "sse"; got "${mode}"`);
  return mode as ResponseMode;
}

/**
 * The Durable Object bindings every endpoint of this env shares: handles, sessions, quotas and the
 * notification hub of a tenant. Handles and sessions outlive requests, so they are counted
 * (MCP_QUOTAS): without it they are refused at load rather than left uncounted.
 */
export function durableBindings(
  env: McpEnv,
  tenant: string,
  sessionsOn: boolean,
  tasks: boolean | TaskSettings = true,
  shards = 1,
  wiring: DurableWiring,
): Pick<McpAppOptions, "handleStore" | "sessions" | "sessionRoutes" | "tasks" | "quotaCounter" | "relay" | "stateSecret"> {
  const tasksOn = tasks !== false && env.MCP_TASKS !== undefined;
  const absent: MissingBinding[] = [];
  if (sessionsOn && !env.MCP_SESSIONS) absent.push({ kind: "object", binding: "MCP_SESSIONS", because: "legacy sessions are on" });
  if ((env.MCP_HANDLES || sessionsOn || tasksOn) && !env.MCP_QUOTAS) {
    const counted = [env.MCP_HANDLES ? "handles" : "", sessionsOn ? "sessions" : "", tasksOn ? "tasks" : ""].filter(Boolean).join(", ");
    absent.push({ kind: "object", binding: "MCP_QUOTAS", because: `${counted} are counted against quotas (see docs/quotas.md)` });
  }
  if (absent.length > 0) throw missingBindings(absent);
  // The gateways and the relay come with the classes made from this Worker (durable-wiring.ts).
  const { relay, sessions, sessionRoutes, tasks: taskGateway } = wiring;
  const missing = (binding: string, fix: string): never => {
    throw new DefinitionError(`${binding} is bound but this Worker does not export its class, which brings the Worker's wiring to it: ${fix}`);
  };
  return {
    ...(env.MCP_HANDLES ? { handleStore: durableHandleStore(env.MCP_HANDLES) } : {}),
    ...(sessionsOn && env.MCP_SESSIONS
      ? {
          sessions: (
            sessions ??
            missing("MCP_SESSIONS", "export const McpSessionObject = createSessionObject(worker) (createMultiTenantSessionObject(worker) with many tenants)")
          )(env.MCP_SESSIONS),
          ...(sessionRoutes ? { sessionRoutes } : {}),
        }
      : {}),
    ...(tasksOn && env.MCP_TASKS
      ? {
          tasks: (
            taskGateway ?? missing("MCP_TASKS", "export const McpTaskObject = createTaskObject(worker) (createMultiTenantTaskObject(worker) with many tenants)")
          )(env.MCP_TASKS, typeof tasks === "object" ? tasks : undefined),
        }
      : {}),
    ...(env.MCP_QUOTAS ? { quotaCounter: durableQuotaCounter(env.MCP_QUOTAS) } : {}),
    ...(env.MCP_NOTIFICATIONS
      ? {
          relay: (relay ?? missing("MCP_NOTIFICATIONS", "export const McpNotificationHub = createNotificationHub(worker)"))(env.MCP_NOTIFICATIONS, tenant, {
            shards,
          }),
        }
      : {}),
    ...(env.MCP_STATE_SECRET ? { stateSecret: env.MCP_STATE_SECRET } : {}),
  };
}

/** The rate limiter of `rateLimits` (tool calls only); a binding it names that env lacks is a missing binding. */
function limiterOf(env: object, limits: TenantRateLimits): { rateLimiter?: RateLimiter } {
  const bindings = env as Record<string, unknown>;
  const names = [limits.tenant, limits.principal, limits.tool].filter((name): name is string => name !== undefined);
  const absent = names.filter((name) => bindings[name] === undefined);
  if (absent.length > 0) throw missingBindings(absent.map((binding) => ({ kind: "ratelimit", binding, because: "rateLimits names it" })));
  const limiter = tenantRateLimiter(bindings, limits, true);
  return limiter ? { rateLimiter: limiter } : {};
}

/** The endpoint of a single-tenant Worker, from its options and env: the Worker and its session objects build the same. */
export function workerEndpoint<E extends object>(server: McpServer, options: WorkerOptions<E>, env: E & McpEnv, wiring: DurableWiring): Endpoint {
  const { legacySessions, tasks, notificationShards, authorizer, observe, rateLimits, ...rest } = options;
  const sessionsOn = legacySessions ?? envFlag(env.MCP_LEGACY_SESSIONS, false);
  const auth = authorizerFor(authorizer, env);
  warnAboutSetup(server, options.tenant ?? "default", env.MCP_TASKS !== undefined, tasks);
  return createEndpoint({
    ...rest,
    server,
    env,
    ...(auth ? { authorizer: auth } : {}),
    ...(rateLimits ? limiterOf(env, rateLimits) : {}),
    ...durableBindings(env, options.tenant ?? "default", sessionsOn, tasks, notificationShardsOf(env, notificationShards), wiring),
    responseMode: responseModeOf(env, options.responseMode),
    debug: options.debug ?? envFlag(env.MCP_DEBUG, false),
    development: options.development ?? envFlag(env.MCP_DEV, false),
    ...(observe ? { observer: observe.observer(env) } : {}),
    allow: {
      hosts: [...(options.allow?.hosts ?? []), ...envList(env.ALLOWED_HOSTS)],
      origins: [...(options.allow?.origins ?? []), ...envList(env.ALLOWED_ORIGINS)],
    },
  });
}

/**
 * The endpoint of a single-tenant Worker by env, built once per env (and per server, when tool
 * services rebuild it): what its session and task objects run their requests on (the same
 * settings as the Worker's own endpoint).
 */
export function workerEndpoints<E extends object>(
  server: McpServer | ServerOptions,
  options: WorkerOptions<E>,
  wiring: DurableWiring,
): (tenant: string, env: McpEnv) => Promise<Endpoint> {
  const serverOf = workerServers(server, options);
  const endpoints = perEnvAndServer<Endpoint>();
  return async (_tenant, env) => {
    const mcp = await serverOf(env as E & McpEnv);
    return endpoints(env, mcp, () => workerEndpoint(mcp, options, env as E & McpEnv, wiring));
  };
}

/**
 * The server of each env: the one compiled at load, or with `services`, what the services make of
 * that server's options (the opt-in brings that code).
 */
function workerServers<E extends object>(
  server: McpServer | ServerOptions,
  options: WorkerOptions<E>,
): (env: E & McpEnv, waitUntil?: (promise: Promise<unknown>) => void, request?: Request) => McpServer | Promise<McpServer> {
  const mcp = compiled(server);
  const services = options.services;
  if (!services) return () => mcp;
  // Options of createWorker are checked when it is called; those of a Durable Object class made
  // without a Worker are checked here.
  checkOptions({ services }, { services: SERVICES_RULE }, "createWorker");
  return services.serversOf(server, options);
}

/** A cache by env, then by server (rebuilt when a tool service's catalogue changes). */
function perEnvAndServer<T>(): (env: object, server: McpServer, make: () => T) => T {
  const byEnv = new WeakMap<object, WeakMap<McpServer, T>>();
  return (env, server, make) => {
    let byServer = byEnv.get(env);
    if (!byServer) {
      byServer = new WeakMap();
      byEnv.set(env, byServer);
    }
    let value = byServer.get(server);
    if (value === undefined) {
      value = make();
      byServer.set(server, value);
    }
    return value;
  };
}

/**
 * The answer to a request of a Worker whose deployment is wrong (a binding missing from wrangler.toml,
 * with the lines to add): said as it is, to the client and the log. Anything else is thrown on.
 */
function brokenDeployment(error: unknown): Response {
  if (!(error instanceof DefinitionError)) throw error;
  return errorResponse(misconfigured(error));
}

/** What a Worker from {@link createWorker} was made of: its Durable Object classes are built from the same. */
interface WorkerMaking {
  server: McpServer | ServerOptions;
  options: WorkerOptions<never>;
}

const MADE_OF = Symbol("edge-mcp: the server and options of a Worker");

/** The server and options a Worker was made with, or undefined for anything else. */
export function makingOf(value: unknown): WorkerMaking | undefined {
  return typeof value === "object" && value !== null && MADE_OF in value ? (value as { [MADE_OF]: WorkerMaking })[MADE_OF] : undefined;
}

/** Compiles a server given as options; a compiled one is used as it is. */
export function compiled(server: McpServer | ServerOptions): McpServer {
  return "handle" in server ? server : createServer(server);
}

/**
 * Makes a Worker (`export default createWorker(...)`) that serves the MCP endpoint. The server is
 * compiled at module load; the app is built on the first request of each isolate.
 *
 * Its Durable Object classes are made from it, so options are written once:
 * `createTaskObject(worker)`, `createSessionObject(worker)`.
 *
 * @example
 * const worker = createWorker({ info: { name: "demo", version: "1.0.0" }, tools: [echo] });
 * export default worker;
 * export const McpTaskObject = createTaskObject(worker);
 */
export function createWorker<E extends object = McpEnv>(server: McpServer | ServerOptions, options: WorkerOptions<E> = {}): McpWorker<E> {
  // Under development a definition error is answered to every request rather than stopping wrangler dev.
  return loadOrAnswer(() => wiredWorker(server, options, {}), typeof options.development === "boolean" ? options.development : undefined);
}

/** A Worker on `wiring`: its own (createWorker), or the one of the Worker it is mounted from (edge-mcp/hono). */
export function wiredWorker<E extends object>(server: McpServer | ServerOptions, options: WorkerOptions<E>, wiring: DurableWiring): McpWorker<E> {
  checkOptions(options, WORKER_OPTION_RULES, "createWorker");
  if (options.rateLimits && options.rateLimiter) throw new DefinitionError("createWorker: give rateLimits or rateLimiter, not both");
  // Compiled once here unless tool services rebuild it per env (they need its options).
  const source = options.services ? server : compiled(server);
  const serverOf = workerServers(source, options);
  const apps = perEnvAndServer<McpApp>();
  const appOf = (mcp: McpServer, env: E): McpApp => apps(env, mcp, () => createEndpointApp(workerEndpoint(mcp, options, env as E & McpEnv, wiring)));
  const worker: McpWorker<E> = {
    fetch(request, env, ctx) {
      const admin = options.observe?.adminRoute(request, env);
      if (admin) return admin;
      const mcp = serverOf(env, (promise) => ctx.waitUntil(promise), request);
      if (!(mcp instanceof Promise)) {
        let app: McpApp;
        try {
          app = appOf(mcp, env);
        } catch (error) {
          return brokenDeployment(error);
        }
        return app.fetch(request, env, ctx);
      }
      return mcp.then((served) => {
        let app: McpApp;
        try {
          app = appOf(served, env);
        } catch (error) {
          return brokenDeployment(error);
        }
        return app.fetch(request, env, ctx);
      }, brokenDeployment);
    },
  };
  // Hidden (not enumerable): createSessionObject(worker) and createTaskObject(worker) read it.
  Object.defineProperty(worker, MADE_OF, { value: { server: source, options } satisfies WorkerMaking });
  return holdWiring(worker, wiring);
}
