/** The Endpoint: every setting of one MCP endpoint, gathered once per app and passed by reference. */

import { DefinitionError } from "../core/definition-error.ts";
import { DEFAULT_QUOTAS, type CallLimits, type QuotaKind, type QuotaLimit, type Quotas } from "../core/admission.ts";
import type { ChangeRelay } from "../server/notifications/change-relay.ts";
import type { HandleStore } from "../server/state/handles.ts";
import type { QuotaCounter } from "../server/state/quotas.ts";
import { createStateSealer, type StateSealer } from "../server/state/request-state.ts";
import type { McpServer } from "../server/server.ts";
import type { EndpointServices } from "../server/context/transport.ts";
import type { Authorizer } from "./admission/authorizer.ts";
import { createHostPolicy, type HostPolicy, type HostPolicyOptions } from "./admission/host-policy.ts";
import type { ListenSettings } from "./listen/listen.ts";
import type { RequestObserver } from "./observer.ts";
import type { RateLimiter } from "./admission/rate-limiter.ts";
import type { SessionGateway } from "./sessions/session-gateway.ts";
import type { TaskGateway } from "./tasks/task-gateway.ts";
import type { AdmittedPost } from "./admission/admitted.ts";
import type { Admission } from "../core/admission.ts";
import type { RequestId } from "../core/jsonrpc.ts";
import type { WaitUntil } from "../core/names.ts";
import type { SessionOpening } from "./sessions/session-gateway.ts";

/** `auto`: JSON unless the handler sends notifications first; `sse`: always a stream; `json`: never. */
export type ResponseMode = "auto" | "json" | "sse";

/** Per-kind overrides of the default quotas. */
export type QuotaOptions = Partial<Record<QuotaKind, Partial<QuotaLimit>>>;

export interface McpAppOptions {
  server: McpServer;
  /** The bindings handlers read as `ctx.env` (a Worker's `env`; createWorker passes it). */
  env?: object;
  /** Path of the MCP endpoint (default `/mcp`). */
  path?: string;
  /** Host/Origin allowlist additions (localhost names are always allowed). */
  allow?: HostPolicyOptions;
  /** Largest accepted request body in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Deepest accepted JSON nesting (default 64). */
  maxJsonDepth?: number;
  /** Time allowed to receive a request body, in ms (default 10 s): slower uploads get 408. */
  bodyTimeoutMs?: number;
  responseMode?: ResponseMode;
  /**
   * While a call runs, its SSE answer gets a keep-alive comment after this many ms without a write
   * (default 10 s; 0 turns it off), and in `auto` mode a call whose handler reads `ctx.signal` and
   * is still running after this long is answered as SSE. Workers notice a client that went away
   * only when a write to it fails: this is what lets a disconnect abort `ctx.signal`.
   */
  keepAliveMs?: number;
  /** Log every JSON-RPC message in and out, credentials redacted. */
  debug?: boolean;
  /**
   * Development: the message of an error a tool handler throws reaches the client (otherwise only
   * "Tool X failed (id …)", and the message and stack go to the log).
   */
  development?: boolean;
  /**
   * HMAC secret for MRTR `requestState` (a Worker secret). Without one, a random key per isolate
   * is used: retries that reach another isolate are then refused.
   */
  stateSecret?: string;
  /** Where `ctx.handles` keeps state; on Workers, `createWorker` binds MCP_HANDLES here. */
  handleStore?: HandleStore;
  /** Legacy sessions for 2025-era clients; on Workers, the MCP_SESSIONS Durable Object namespace. */
  sessions?: SessionGateway;
  /**
   * The routes of 2025-era traffic to the sessions, handed over by value with the gateway by what
   * brings one (`createMcpApp` adds them; on Workers, the session object's module): an endpoint
   * without sessions bundles none of them.
   */
  sessionRoutes?: SessionRoutes;
  /** The tenant this app serves (default `default`): scopes cursors, requestState, handles and sessions. */
  tenant?: string;
  /**
   * OAuth resource server: every request must carry valid credentials. Build it with
   * `createAuthorizer(parseAuthConfig(...))`; kept out of this module so unauthenticated servers
   * do not bundle the token verifier.
   */
  authorizer?: Authorizer;
  rateLimiter?: RateLimiter;
  /** Where live handles and sessions are counted; on Workers, the MCP_QUOTAS Durable Object. */
  quotaCounter?: QuotaCounter;
  /** Live handles and sessions allowed per principal and per tenant (defaults: {@link DEFAULT_QUOTAS}). */
  quotas?: QuotaOptions;
  /** Revisions served (default: all). */
  revisions?: readonly string[];
  /** One structured JSON log line per request (default false). */
  accessLog?: boolean;
  /** Carries change notifications across isolates; on Workers, the MCP_NOTIFICATIONS hub. */
  relay?: ChangeRelay;
  /** `subscriptions/listen` streams: the slow-listener limit and the heartbeat. */
  listen?: ListenSettings;
  /** Limits on tool calls: a deadline and a result size. */
  limits?: CallLimits;
  /** Tool calls that outlive the request (tasks extension); on Workers, the MCP_TASKS Durable Object namespace. */
  tasks?: TaskGateway;
  /** Serves a Server Card at `<path>/server-card` (SEP-2127 draft): `serverCardRoute(options)`; off when absent. */
  serverCard?: ServerCardRoute;
  /** Traces and usage metering of each request (`observability()` from `edge-mcp/workers` on Workers). */
  observer?: RequestObserver;
}

/** The resolved settings of one endpoint: built once by {@link createEndpoint}, read by every request. */
export interface Endpoint extends EndpointServices {
  readonly server: McpServer;
  readonly path: string;
  readonly tenant: string;
  readonly policy: HostPolicy;
  readonly authorizer: Authorizer | undefined;
  readonly rateLimiter: RateLimiter | undefined;
  readonly quotaCounter: QuotaCounter | undefined;
  readonly quotas: Quotas;
  readonly limits: CallLimits;
  readonly revisions: ReadonlySet<string> | undefined;
  readonly sealer: StateSealer;
  readonly handleStore: HandleStore | undefined;
  readonly sessions: SessionGateway | undefined;
  /** The routes of 2025-era traffic to the sessions: set with `sessions`. */
  readonly sessionRoutes: SessionRoutes | undefined;
  readonly tasks: TaskGateway | undefined;
  readonly relay: ChangeRelay | undefined;
  readonly listen: ListenSettings | undefined;
  readonly maxBodyBytes: number;
  readonly maxJsonDepth: number;
  readonly bodyTimeoutMs: number;
  readonly responseMode: ResponseMode;
  readonly keepAliveMs: number;
  readonly debug: boolean;
  readonly accessLog: boolean;
  readonly serverCard: ServerCardRoute | undefined;
  readonly observer: RequestObserver | undefined;
}

/** The session routes of an endpoint whose `sessions` gateway is set (http/session-routes.ts). */
export interface SessionRoutes {
  /** Admission of an `initialize` that opens a session: mints its id and takes its quota place (429 when full). */
  open(endpoint: Endpoint, admission: Admission, id: RequestId): Promise<{ id: string; opening: SessionOpening }>;
  /** A 2025-era POST: `initialize` opens its session, anything else goes to the session it names. */
  post(request: Request, endpoint: Endpoint, admitted: AdmittedPost): Promise<Response>;
  /** An admitted GET (the session's stream, holding a streams quota place) or DELETE of the session `sessionId`. */
  stream(request: Request, endpoint: Endpoint, admission: Admission, sessionId: string, waitUntil: WaitUntil | undefined): Promise<Response>;
}

/** The Server Card route of an endpoint, built by `serverCardRoute` (so that endpoints without a card do not bundle it). */
export interface ServerCardRoute {
  serve(request: Request, endpoint: Endpoint): Promise<Response> | Response;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_MAX_JSON_DEPTH = 64;
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;
export const DEFAULT_TENANT = "default";
export const DEFAULT_KEEP_ALIVE_MS = 10_000;

/** Fills in the defaults of the quotas. */
export function resolveQuotas(options: QuotaOptions | undefined): Quotas {
  const merged = { ...DEFAULT_QUOTAS };
  for (const kind of Object.keys(DEFAULT_QUOTAS) as QuotaKind[]) merged[kind] = { ...DEFAULT_QUOTAS[kind], ...options?.[kind] };
  return merged;
}

/** Resolves the options of an app once; every request of the app reads the result. */
export function createEndpoint(options: McpAppOptions): Endpoint {
  // A gateway that serves tasks hands over the tasks feature by value; one of your own making without it needs tasks() in the server.
  const server = options.tasks?.serving ? options.tasks.serving.serverFor(options.server) : options.server;
  if (options.tasks && server.tools.taskCapable && !server.hasMethod("tasks/get", "modern")) {
    throw new DefinitionError(`${server.tools.taskTools.join(", ")} declare task but the server was compiled without tasks: add tasks() to its features`);
  }
  if (options.sessions && !options.sessionRoutes) {
    throw new DefinitionError("session routes missing: build the app with createMcpApp({ sessions })");
  }
  return {
    server,
    path: options.path ?? "/mcp",
    tenant: options.tenant ?? DEFAULT_TENANT,
    policy: createHostPolicy(options.allow),
    authorizer: options.authorizer,
    rateLimiter: options.rateLimiter,
    quotaCounter: options.quotaCounter,
    quotas: resolveQuotas(options.quotas),
    limits: options.limits ?? {},
    revisions: options.revisions ? new Set(options.revisions) : undefined,
    sealer: createStateSealer({ secret: options.stateSecret }),
    handleStore: options.handleStore,
    sessions: options.sessions,
    sessionRoutes: options.sessions ? options.sessionRoutes : undefined,
    tasks: options.tasks,
    relay: options.relay,
    listen: options.listen,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxJsonDepth: options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH,
    bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    responseMode: options.responseMode ?? "auto",
    keepAliveMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
    debug: options.debug ?? false,
    accessLog: options.accessLog ?? false,
    serverCard: options.serverCard,
    observer: options.observer,
    env: options.env,
    development: options.development ?? false,
  };
}
