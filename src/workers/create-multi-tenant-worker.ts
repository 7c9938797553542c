/** The multi-tenant Worker entry: tenants from bindings, each with its own server, modules and limits. */

import type { AppAssetLoader } from "../server/apps/app.ts";
import { METADATA_PATH } from "../auth/protected-resource.ts";
import { DefinitionError } from "../core/definition-error.ts";
import { ErrorCode, ProtocolError } from "../core/errors.ts";
import { checkOptions } from "../core/option-checks.ts";
import type { Implementation } from "../core/types.ts";
import { createEndpointApp, type McpApp } from "../http/app.ts";
import { createAuthorizer } from "../http/admission/authorizer.ts";
import { quotaReplayGuard } from "../http/admission/dpop-replay.ts";
import { serverCardRoute } from "../http/server-card/server-card.ts";
import { createEndpoint, type Endpoint, type McpAppOptions } from "../http/endpoint.ts";
import type { ListenSettings } from "../http/listen/listen.ts";
import { errorResponse } from "../http/responses.ts";
import { AI_CATALOG_PATH, aiCatalogResponse } from "./ai-catalog.ts";
import type { ToolService } from "../modules/service-contract.ts";
import type { ToolModule } from "../modules/tool-module.ts";
import { relayedChangeFeed } from "../server/notifications/change-relay.ts";
import type { McpServer } from "../server/server.ts";
import type { Feature } from "../server/feature.ts";
import type { TenantConfig, TenantNotifications } from "../tenancy/tenant-config.ts";
import type { BrokenTenant } from "../tenancy/tenant-document.ts";
import type { TenantDirectory, TenantDirectoryOptions } from "../tenancy/tenant-directory.ts";
import type { TenantLookup } from "../tenancy/tenant-lookup.ts";
import { TenantStoreError } from "../tenancy/tenant-store-error.ts";
import { documentTenantLookup, keyedTenantLookup } from "./tenant-lookups.ts";
import type { KeyedTenantStore } from "./keyed-tenant-store.ts";
import type { TenantCodeMode } from "./code-mode/tenant-code-mode.ts";
import { durableBindings, responseModeOf } from "./create-worker.ts";
import { envFlag, envList, type McpEnv, type McpWorker } from "./env.ts";
import { holdWiring, type DurableWiring } from "./durable-wiring.ts";
import type { Observability } from "./observe/observability.ts";
import type { TokenSourcesOptIn } from "../auth/tokens/token-sources.ts";
import type { RemoteModulesOptIn } from "./remote-modules.ts";
import type { TenantSignInOptIn } from "./tenant-sign-in-hook.ts";
import type { TenantsOfEnv } from "./accounts/tenant-providers.ts";
import { createSessionObject, type SessionObjectClass, type SessionObjectOptions } from "./sessions/session-object.ts";
import { createTaskObject, type TaskObjectClass } from "./tasks/task-object.ts";
import { warnAboutSetup } from "./isolate-warnings.ts";
import { MULTI_TENANT_OPTION_RULES } from "./multi-tenant-option-rules.ts";
import { tenantRateLimiter } from "./tenant-rate-limiter.ts";

export interface MultiTenantEnv extends McpEnv {
  /** The tenants document as JSON text (a var or secret): `{"tenants": [...]}`. */
  MCP_TENANTS?: string;
  /** A KV namespace holding the tenants document under the key `tenants` (for many tenants). */
  MCP_TENANTS_KV?: KVNamespace;
  /** A Worker Loader binding (`[[worker_loaders]]`): the sandbox of tenants that turn `codeMode` on. */
  MCP_LOADER?: WorkerLoader;
  /** The operator's token: turns on the usage view (with observability()) and the tenants admin API (with keyedTenants()). */
  MCP_ADMIN_TOKEN?: string;
  /** Seals the tenants' secrets (with keyedTenants()): `<id>:<32 bytes, base64url>`, comma-separated, the first sealing. */
  MCP_SECRETS_KEY?: string;
}

export interface MultiTenantWorkerOptions extends Pick<McpAppOptions, "maxJsonDepth" | "responseMode" | "debug" | "development"> {
  /** Bundled modules, by the names tenant configs use. */
  modules: Readonly<Record<string, ToolModule>>;
  /** serverInfo for tenants that name none. */
  info?: Implementation;
  /** Reads the `{ asset }` HTML of the modules' MCP Apps: `staticAssets()` for an `[assets]` binding. */
  appAssets?: AppAssetLoader;
  /** A static tenants document; when absent, MCP_TENANTS or MCP_TENANTS_KV is read. */
  tenants?: unknown;
  /** How long a tenants document is used before it is read again (default 60 s). */
  configTtlMs?: number;
  /**
   * Tenants one per key in MCP_TENANTS_KV instead of one document: `keyedTenants()` (an opt-in
   * import; see docs/tenants.md, "Many tenants").
   */
  tenantStore?: KeyedTenantStore;
  /** How long a service module's catalogue is used before it is read again (default 5 minutes). */
  catalogTtlMs?: number;
  /** Traces, usage metering and the usage view: `observability()` (an opt-in import; see docs/observability.md). */
  observe?: Observability;
  /** Code mode for tenants that turn it on: `tenantCodeMode()` (an opt-in import; see docs/code-mode.md). */
  codeMode?: TenantCodeMode;
  /**
   * The full JSON Schema validator for every tenant's tools, bundled and from services:
   * `fullJsonSchema()` from edge-mcp/json-schema (see docs/json-schema.md). Without it, a tool whose
   * schema uses a keyword outside the core validator is left out (a bundled one fails its tenant).
   */
  jsonSchema?: Feature;
  /**
   * Tokens beyond pinned-issuer JWTs, for tenants whose `auth` names `issuerTemplates`,
   * `introspection` or `authorizationServer`: `tokenSources()` from edge-mcp (an opt-in import; see docs/auth.md).
   */
  tokenSources?: TokenSourcesOptIn;
  /**
   * Other MCP servers as tenant modules (`"remote"` in a module of the tenants document):
   * `remoteModules()` (an opt-in import; see docs/remote-servers.md).
   */
  remotes?: RemoteModulesOptIn;
  /**
   * Each tenant with a `signIn` section its own authorization server (users sign in with the
   * tenant's OpenID provider): `tenantSignIn()` from edge-mcp/oauth (an opt-in import; see docs/sign-in.md, "Per tenant").
   */
  signIn?: TenantSignInOptIn;
  /**
   * Connected accounts for every tenant's tools: the `connectedAccounts()` of edge-mcp/workers (its
   * `routes(worker)` is what to export). Tenants may declare providers in their config (`accounts`);
   * see docs/connected-accounts.md.
   */
  accounts?: TenantAccountsOptIn;
}

/** What `accounts` takes: `connectedAccounts()` (only its feature and how it reads tenants). */
export interface TenantAccountsOptIn {
  readonly feature: Feature;
  useTenants(tenants: TenantsOfEnv, store: KeyedTenantStore | undefined): void;
}

/** The answer of a tenant whose config is invalid: 503, naming its problem (what to fix is the operator's). */
function unavailableTenant(tenant: BrokenTenant): ProtocolError {
  return new ProtocolError(ErrorCode.InternalError, `Tenant unavailable: its configuration is invalid: ${tenant.problem}`, { status: 503 });
}

/** What a Worker from {@link createMultiTenantWorker} was made of: its Durable Object classes are built from the same. */
interface TenantWorkerMaking {
  options: MultiTenantWorkerOptions;
  /** The gateways its Durable Object classes hand to it. */
  wiring: DurableWiring;
}

const MADE_OF = Symbol("edge-mcp: the options of a multi-tenant Worker");

/** The options and wiring of a Worker from createMultiTenantWorker; `factory` names the caller in the error otherwise. */
function makingOf(worker: unknown, factory: string): TenantWorkerMaking {
  const made = typeof worker === "object" && worker !== null && MADE_OF in worker ? (worker as { [MADE_OF]: TenantWorkerMaking })[MADE_OF] : undefined;
  if (!made) throw new DefinitionError(`${factory}(worker) takes the Worker from createMultiTenantWorker (its options are read from it)`);
  return made;
}

interface TenantState {
  tenants(): Promise<TenantLookup>;
  apps: WeakMap<McpServer, Map<string, McpApp>>;
}

const states = new WeakMap<MultiTenantWorkerOptions, WeakMap<object, TenantState>>();

/** The per-isolate tenant configuration of a Worker (or its session objects), built once per env. */
function tenantState(options: MultiTenantWorkerOptions, env: MultiTenantEnv, wiring: DurableWiring): TenantState {
  let perEnv = states.get(options);
  if (!perEnv) {
    perEnv = new WeakMap();
    states.set(options, perEnv);
  }
  let state = perEnv.get(env);
  if (!state) {
    const bindings = env as unknown as Record<string, unknown>;
    const directoryOptions: TenantDirectoryOptions = {
      modules: options.modules,
      service: (name) => bindings[name] as ToolService | undefined,
      info: options.info ?? { name: "edge-mcp", version: "0.1.0" },
      ...(options.catalogTtlMs === undefined ? {} : { catalogTtlMs: options.catalogTtlMs }),
      codeMode: options.codeMode?.feature(env.MCP_LOADER),
      codeModeOptedIn: options.codeMode !== undefined,
      ...(options.appAssets === undefined ? {} : { appAssets: options.appAssets }),
      ...(options.jsonSchema === undefined ? {} : { jsonSchema: options.jsonSchema }),
      checkTokenSources: options.tokenSources?.check,
      remotes: options.remotes?.of(env),
      accounts: options.accounts?.feature,
      // A tenant's changed tools are announced where its endpoint's listeners are: through its
      // notification hub (every isolate) when there is one, else on the previous server's feed.
      onToolsChanged: (tenant, previousServer, waitUntil) => {
        const relay = durableBindings(env, tenant.id, tenant.legacySessions === true, false, tenant.notifications?.shards ?? 1, wiring).relay;
        (relay ? relayedChangeFeed(relay, waitUntil) : previousServer.changes).toolsListChanged();
      },
    };
    const tenants = options.tenantStore ? keyedTenantLookup(options.tenantStore, env, directoryOptions) : documentTenantLookup(options, env, directoryOptions);
    state = { tenants, apps: new WeakMap() };
    perEnv.set(env, state);
  }
  return state;
}

/** The listen stream settings in a tenant's `notifications` (shards are the relay's). */
function listenSettingsOf({ maxQueuedBytes, heartbeatMs }: TenantNotifications): ListenSettings {
  return { ...(maxQueuedBytes === undefined ? {} : { maxQueuedBytes }), ...(heartbeatMs === undefined ? {} : { heartbeatMs }) };
}

/**
 * The endpoint settings of one tenant: the Worker's apps and the tenant's session objects build
 * their endpoints with this one function, so both hold the same limits, quotas and bindings.
 */
function tenantAppOptions(
  options: MultiTenantWorkerOptions,
  wiring: DurableWiring,
  env: MultiTenantEnv,
  directory: TenantDirectory,
  server: McpServer,
  tenant: TenantConfig,
  path: string,
): McpAppOptions {
  const bindings = env as unknown as Record<string, unknown>;
  const limiter = tenantRateLimiter(bindings, tenant.rateLimits);
  warnAboutSetup(server, tenant.id, env.MCP_TASKS !== undefined, tenant.tasks);
  const auth = directory.auth(tenant);
  const limits = tenant.limits;
  const durable = durableBindings(env, tenant.id, tenant.legacySessions === true, tenant.tasks ?? true, tenant.notifications?.shards ?? 1, wiring);
  // DPoP proof ids are held in the tenant's quota object when there is one (every isolate sees them).
  // Any tenant with auth may check a proof (a bound token is honoured everywhere); the guard is used only then.
  const replay = auth && durable.quotaCounter ? { replay: quotaReplayGuard(durable.quotaCounter, tenant.id) } : {};
  // Issuer templates, introspection, an authorization server's binding: the secret and binding come from env.
  const store = options.tenantStore;
  const secrets = store && ((name: string) => store.secret(env, tenant.id, name));
  const sources = auth && options.tokenSources ? options.tokenSources.sources(auth, env, tenant.id, secrets) : {};
  return {
    server,
    env,
    path,
    tenant: tenant.id,
    ...(tenant.signIn && options.signIn
      ? { authorizer: options.signIn.authorizer(tenant, path) }
      : auth
        ? { authorizer: createAuthorizer(auth, { ...replay, ...sources }) }
        : {}),
    allow: { hosts: [...(tenant.hosts ?? []), ...envList(env.ALLOWED_HOSTS)], origins: [...(tenant.allowedOrigins ?? []), ...envList(env.ALLOWED_ORIGINS)] },
    ...(limits?.maxBodyBytes === undefined ? {} : { maxBodyBytes: limits.maxBodyBytes }),
    ...(limits?.bodyTimeoutMs === undefined ? {} : { bodyTimeoutMs: limits.bodyTimeoutMs }),
    limits: {
      ...(limits?.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: limits.toolTimeoutMs }),
      ...(limits?.maxResultBytes === undefined ? {} : { maxResultBytes: limits.maxResultBytes }),
    },
    ...(tenant.quotas ? { quotas: tenant.quotas } : {}),
    ...(options.maxJsonDepth === undefined ? {} : { maxJsonDepth: options.maxJsonDepth }),
    responseMode: responseModeOf(env, options.responseMode),
    debug: options.debug ?? envFlag(env.MCP_DEBUG, false),
    development: options.development ?? envFlag(env.MCP_DEV, false),
    accessLog: true,
    ...(tenant.revisions ? { revisions: tenant.revisions } : {}),
    ...(limiter ? { rateLimiter: limiter } : {}),
    ...durable,
    ...(tenant.notifications ? { listen: listenSettingsOf(tenant.notifications) } : {}),
    ...(tenant.serverCard ? { serverCard: serverCardRoute(tenant.serverCard) } : {}),
    ...(options.observe ? { observer: options.observe.observer(env) } : {}),
  };
}

/**
 * The session Durable Object class of a multi-tenant Worker: each session runs on the endpoint of
 * the tenant that opened it. Given the Worker from {@link createMultiTenantWorker}, it runs on
 * that Worker's options.
 *
 * @example
 * const worker = createMultiTenantWorker(options);
 * export default worker;
 * export const McpSessionObject = createMultiTenantSessionObject(worker);
 */
export function createMultiTenantSessionObject(
  worker: McpWorker<never>,
  sessionOptions: Pick<SessionObjectOptions, "inputTimeoutMs" | "idleTtlMs"> = {},
): SessionObjectClass {
  const { options, wiring } = makingOf(worker, "createMultiTenantSessionObject");
  return createSessionObject(tenantEndpoints(options, wiring, "Session not found: its tenant no longer exists"), sessionOptions);
}

/**
 * The task Durable Object class of a multi-tenant Worker: each task runs on the endpoint of the
 * tenant that created it (its modules, service bindings and limits). Given the Worker from
 * {@link createMultiTenantWorker}, it runs on that Worker's options.
 *
 * @example
 * export const McpTaskObject = createMultiTenantTaskObject(worker);
 */
export function createMultiTenantTaskObject(worker: McpWorker<never>): TaskObjectClass {
  const { options, wiring } = makingOf(worker, "createMultiTenantTaskObject");
  return createTaskObject(tenantEndpoints(options, wiring, "Task not found: its tenant no longer exists"));
}

/**
 * The endpoint of a tenant by id, for the objects that run its requests elsewhere (sessions,
 * tasks); it holds the Worker's wiring, so the object class made on it hands its gateway to the Worker.
 */
function tenantEndpoints(options: MultiTenantWorkerOptions, wiring: DurableWiring, gone: string): (id: string, env: McpEnv) => Promise<Endpoint> {
  const endpoints = new WeakMap<McpServer, Endpoint>();
  return holdWiring(async (id: string, env: McpEnv) => {
    const directory = await (await tenantState(options, env, wiring).tenants()).byId(id);
    const tenant = directory?.tenants.find((t) => t.id === id);
    if (!directory || !tenant) throw new ProtocolError(ErrorCode.InvalidRequest, gone, { status: 404 });
    const server = await directory.server(tenant);
    let endpoint = endpoints.get(server);
    if (!endpoint) {
      endpoint = createEndpoint(tenantAppOptions(options, wiring, env, directory, server, tenant, "/mcp"));
      endpoints.set(server, endpoint);
    }
    return endpoint;
  }, wiring);
}

/**
 * Makes a Worker that serves many tenants from one deployment. Each request is resolved to a
 * tenant by Host, then by path prefix (unknown → 404); the tenant's server (bundled modules plus
 * service-bound ones) is compiled once per isolate and per catalogue refresh.
 *
 * @example
 * export default createMultiTenantWorker({ modules: { notes: notesModule } });
 */
export function createMultiTenantWorker<E extends MultiTenantEnv = MultiTenantEnv>(options: MultiTenantWorkerOptions): McpWorker<E> {
  checkOptions(options, MULTI_TENANT_OPTION_RULES, "createMultiTenantWorker");
  const wiring: DurableWiring = {};
  const stateOf = (env: E) => tenantState(options, env, wiring);

  // One app per compiled server and endpoint path: rebuilt when the server is (catalogue refresh).
  const appFor = (
    env: E,
    directory: TenantDirectory,
    server: McpServer,
    tenant: TenantConfig,
    path: string,
    apps: WeakMap<McpServer, Map<string, McpApp>>,
  ): McpApp => {
    let byPath = apps.get(server);
    if (!byPath) {
      byPath = new Map();
      apps.set(server, byPath);
    }
    let app = byPath.get(path);
    if (!app) {
      app = createEndpointApp(createEndpoint(tenantAppOptions(options, wiring, env, directory, server, tenant, path)));
      byPath.set(path, app);
    }
    return app;
  };

  const worker: McpWorker<E> = {
    async fetch(request, env, ctx) {
      const admin = options.observe?.adminRoute(request, env);
      if (admin) return admin;
      try {
        const state = stateOf(env);
        const tenants = await state.tenants();
        const url = new URL(request.url);
        // The tenants admin API of a keyed store (keyedTenants()); off unless MCP_ADMIN_TOKEN is set.
        if (tenants.admin && /^\/admin\/tenants(?:\/|$)/.test(url.pathname)) return await tenants.admin(request, env.MCP_ADMIN_TOKEN, env.MCP_SECRETS_KEY);
        if (url.pathname === AI_CATALOG_PATH) return await aiCatalogResponse(request, await tenants.at(request));
        // Protected resource metadata (RFC 9728) names the resource's path after the well-known prefix.
        const metadata = url.pathname.startsWith(METADATA_PATH) ? url.pathname.slice(METADATA_PATH.length) || "/" : undefined;
        const found = await tenants.resolve(request, options.signIn?.lookupPath(url.pathname) ?? metadata ?? url.pathname);
        if (found && "broken" in found) return errorResponse(unavailableTenant(found.broken));
        if (!found) {
          const host = request.headers.get("host") ?? url.host;
          return errorResponse(
            new ProtocolError(ErrorCode.InvalidRequest, `Unknown tenant: no tenant is served at host '${host}', path '${url.pathname}'`, { status: 404 }),
          );
        }
        const { directory, resolved } = found;
        let server: McpServer;
        try {
          server = await directory.server(resolved.tenant, (promise) => ctx.waitUntil(promise));
        } catch (error) {
          // A tenant whose server cannot be built (a bundled definition it enables is wrong) fails alone.
          if (!(error instanceof DefinitionError)) throw error;
          console.error(`edge-mcp: tenant ${resolved.tenant.id} is not served: ${error.message}`);
          return errorResponse(unavailableTenant({ label: resolved.tenant.id, hosts: [], pathPrefix: undefined, problem: error.message }));
        }
        const app = appFor(env, directory, server, resolved.tenant, resolved.path, state.apps);
        if (resolved.tenant.signIn) {
          const { tenant, path } = resolved;
          if (!options.signIn) {
            const problem = "signIn needs the Worker to opt in: createMultiTenantWorker({ ..., signIn: tenantSignIn() }) from edge-mcp/oauth";
            return errorResponse(unavailableTenant({ label: tenant.id, hosts: [], pathPrefix: undefined, problem }));
          }
          const store = options.tenantStore;
          const secret = store && ((name: string) => store.secret(env, tenant.id, name)());
          return await options.signIn.fetch(request, env, ctx, { tenant, path, secret, mcp: (forwarded) => app.fetch(forwarded, env, ctx) });
        }
        return await app.fetch(request, env, ctx);
      } catch (error) {
        if (error instanceof TenantStoreError) {
          console.error(`edge-mcp: cannot serve the request: ${error.message}`);
          return errorResponse(new ProtocolError(ErrorCode.InternalError, "Service unavailable: the tenant store cannot be read", { status: 503 }));
        }
        // Details (which tenant, which field) go to the log; the client learns only that the server is misconfigured.
        console.error("edge-mcp: cannot serve the request:", error instanceof Error ? error.message : error);
        return errorResponse(
          new ProtocolError(ErrorCode.InternalError, "Internal error: the server's tenant configuration is invalid or unavailable", { status: 500 }),
        );
      }
    },
  };
  // Connected accounts read a tenant's `accounts` section and secrets by id (its connect links name the tenant).
  options.accounts?.useTenants((env) => stateOf(env as E).tenants(), options.tenantStore);
  // Hidden (not enumerable): createMultiTenantSessionObject(worker) and createMultiTenantTaskObject(worker) read it.
  Object.defineProperty(worker, MADE_OF, { value: { options, wiring } satisfies TenantWorkerMaking });
  return holdWiring(worker, wiring);
}
