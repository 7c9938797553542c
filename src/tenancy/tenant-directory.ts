/** Tenants of one deployment: resolution by host or path, and each tenant's server, compiled once per isolate. */

import { parseAuthConfig, type AuthConfig } from "../auth/auth-config.ts";
import { withSecuritySchemes } from "./security-schemes.ts";
import { DefinitionError } from "../core/definition-error.ts";
import { hostnameOf, requestHost } from "../core/host.ts";
import type { Implementation } from "../core/types.ts";
import type { ToolService } from "../modules/service-contract.ts";
import type { ToolModule } from "../modules/tool-module.ts";
import type { AppAssetLoader } from "../server/apps/app.ts";
import { apps as appsFeature } from "../server/apps/apps-feature.ts";
import { createServer, type McpServer } from "../server/server.ts";
import { toolSearch } from "../server/search/tool-search-engine.ts";
import type { TenantConfig } from "./tenant-config.ts";
import { checkBundledModules, collectTenantParts, type Collected, type TenantRemotes } from "./tenant-parts.ts";
import { brokenTenant, TenantRoutes, type BrokenTenant } from "./tenant-document.ts";
import type { CodeModeLimits } from "../server/code-mode/code-mode-options.ts";
import type { Feature } from "../server/feature.ts";
import type { WaitUntil } from "../core/names.ts";

export interface TenantDirectoryOptions {
  /** Bundled modules, by the name tenant configs use. */
  modules: Readonly<Record<string, ToolModule>>;
  /** Finds the service bound under a name (an env binding), or undefined. */
  service(binding: string): ToolService | undefined;
  /** serverInfo when a tenant names none. */
  info: Implementation;
  /** How long a service catalogue is used before it is read again (default 5 minutes). */
  catalogTtlMs?: number;
  /**
   * Announces that a tenant's tools changed (a service catalogue read again differs): by default
   * `toolsListChanged()` on the previous server's change feed (listeners of this isolate); a
   * Worker with a notification hub announces it on every isolate.
   */
  onToolsChanged?: (tenant: TenantConfig, previous: McpServer, waitUntil: WaitUntil | undefined) => void;
  now?: () => number;
  /** Code mode for tenants that turn it on (`codeMode` in their config): the Worker's sandbox, or undefined when it has none. */
  codeMode?: ((limits: CodeModeLimits) => Feature) | undefined;
  /** Whether the Worker opted in to code mode (`tenantCodeMode()`); when not, a tenant asking for it is told how. */
  codeModeOptedIn?: boolean;
  /** Reads the `{ asset }` HTML of the modules' MCP Apps (a Static Assets binding on Workers). */
  appAssets?: AppAssetLoader;
  /** The full JSON Schema validator for every tenant's tools (`fullJsonSchema()`); default: the core one. */
  jsonSchema?: Feature | undefined;
  /** Connected accounts (`ctx.accounts`) for every tenant's tools, when the Worker opted in. */
  accounts?: Feature | undefined;
  /**
   * Checks a tenant's issuer templates, introspection and authorization server settings in full
   * (`tokenSources()` of the Worker); when absent, a tenant naming one of them is told how to opt in.
   */
  checkTokenSources?: ((auth: AuthConfig, tenantId: string) => void) | undefined;
  /** Remote modules (`remoteModules()` of the Worker); when absent, a tenant naming one is told how to opt in. */
  remotes?: TenantRemotes | undefined;
}

/** A server built after its remote lists went stale waits at least this long before the next build (ms). */
const MIN_REFRESH_MS = 1_000;
/** Hosts the Worker was reached at that are remembered (the most recent), so a client's Host header cannot grow the set. */
const MAX_OWN_HOSTS = 16;

export interface ResolvedTenant {
  tenant: TenantConfig;
  /** The MCP endpoint path for this request: `/mcp` by host, `<prefix>/mcp` by path. */
  path: string;
}

/** A tenant's server and the digest of the catalogue it was built from. */
interface Built {
  server: McpServer;
  catalog: string;
  stale: () => boolean;
}

interface CompiledTenant {
  built: Promise<Built>;
  builtAt: number;
  /** Set once built: whether a remote module's list went out of date. */
  stale?: () => boolean;
}

/**
 * A tenant's auth with the tools of its public modules added to `publicTools`: a prefixed or
 * service module by its `prefix_*` pattern, a bundled module without prefix by its tool names.
 */
function withPublicModules(auth: AuthConfig, tenant: TenantConfig, modules: Readonly<Record<string, ToolModule>>): AuthConfig {
  const patterns = tenant.modules
    .filter((ref) => ref.public === true)
    .flatMap((ref) => {
      const prefix = ref.prefix ?? (ref.service === undefined && ref.remote === undefined ? undefined : ref.name);
      return prefix === undefined ? (modules[ref.name]?.tools ?? []).map((tool) => tool.name) : [`${prefix}_*`];
    });
  return patterns.length === 0 ? auth : { ...auth, publicTools: [...new Set([...auth.publicTools, ...patterns])] };
}

export class TenantDirectory {
  readonly tenants: readonly TenantConfig[];
  readonly #options: TenantDirectoryOptions;
  readonly #byHost = new Map<string, TenantConfig>();
  readonly #byPath: { prefix: string; tenant: TenantConfig }[] = [];
  readonly #compiled = new Map<string, CompiledTenant>();
  /** The last server built for each tenant: a refresh whose catalogue is unchanged keeps it. */
  readonly #last = new Map<string, Built>();
  readonly #auth = new Map<string, AuthConfig>();
  readonly #unavailable: TenantRoutes;
  /** Hosts (with port) this Worker was reached at, kept only when a tenant has remote modules: none may point back at them. */
  readonly #ownHosts = new Set<string>();
  #hasRemotes = false;
  /** Tenants whose config is invalid: not served, each answering its own error. */
  readonly broken: readonly BrokenTenant[];

  /**
   * Checks every tenant's auth settings, bundled module references and bundled name collisions: a
   * tenant that fails is set aside in `broken` (its requests get its own error), the others are served.
   * `previous` is the directory this one replaces (the tenants document changed): a tenant whose
   * config and catalogue are unchanged keeps its server, one whose tools changed is announced, and
   * one whose new config is invalid keeps serving its previous one.
   */
  constructor(tenants: readonly TenantConfig[], options: TenantDirectoryOptions, previous?: TenantDirectory, broken: readonly BrokenTenant[] = []) {
    this.#options = options;
    const served: TenantConfig[] = [];
    const setAside = [...broken];
    for (const tenant of tenants) {
      try {
        this.#check(tenant);
        served.push(tenant);
      } catch (error) {
        if (!(error instanceof DefinitionError)) throw error;
        setAside.push(brokenTenant(tenant, tenant.id, error.message));
      }
    }
    // A tenant served before whose new config is invalid keeps its last good one (logged with the problem).
    for (const lastGood of previous?.tenants ?? []) {
      const index = setAside.findIndex((b) => b.label === lastGood.id);
      if (index === -1 || served.some((t) => t.id === lastGood.id)) continue;
      const [problem] = setAside.splice(index, 1);
      console.error(`edge-mcp: tenant ${lastGood.id}: its new configuration is invalid, so it keeps serving its last good one: ${problem?.problem}`);
      this.#check(lastGood);
      served.push(lastGood);
    }
    this.tenants = served;
    this.broken = setAside;
    this.#hasRemotes = served.some((tenant) => tenant.modules.some((ref) => ref.remote !== undefined));
    for (const tenant of served) {
      const built = previous ? previous.#last.get(tenant.id) : undefined;
      if (built) this.#last.set(tenant.id, built);
      for (const host of tenant.hosts ?? []) this.#byHost.set(host, tenant);
      if (tenant.pathPrefix !== undefined) this.#byPath.push({ prefix: tenant.pathPrefix, tenant });
    }
    this.#unavailable = new TenantRoutes(
      setAside,
      (host, prefix) => (host !== undefined && this.#byHost.has(host)) || (prefix !== undefined && this.#byPath.some((p) => p.prefix === prefix)),
    );
    // Longest prefix first, so /t/a/b wins over /t/a.
    this.#byPath.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /** Throws a DefinitionError naming the tenant when its auth settings or bundled modules are wrong. */
  #check(tenant: TenantConfig): void {
    // Auth settings are validated with the rest of the config: errors name the tenant and field.
    if (tenant.auth !== undefined) {
      const auth = parseAuthConfig(tenant.auth, tenant.id);
      const named = auth.issuerTemplates
        ? "issuerTemplates"
        : auth.introspection
          ? "introspection"
          : auth.authorizationServer
            ? "authorizationServer"
            : undefined;
      const check = this.#options.checkTokenSources;
      if (named !== undefined && check) check(auth, tenant.id);
      else if (named !== undefined) {
        throw new DefinitionError(
          `tenant "${tenant.id}": auth.${named} needs the Worker to opt in: createMultiTenantWorker({ ..., tokenSources: tokenSources() }) from edge-mcp`,
        );
      }
      this.#auth.set(tenant.id, withPublicModules(auth, tenant, this.#options.modules));
    }
    checkBundledModules(tenant, this.#options.modules);
    const remotes = this.#options.remotes;
    tenant.modules.forEach((ref, index) => {
      if (ref.remote === undefined) return;
      if (!remotes) {
        throw new DefinitionError(
          `tenant ${tenant.id}: module ${ref.name} is remote, which needs the Worker to opt in: createMultiTenantWorker({ ..., remotes: remoteModules() }) from edge-mcp/workers`,
        );
      }
      ref.remote = remotes.parse(ref.remote, `modules[${index}].remote`, (field, problem) => {
        throw new DefinitionError(`tenant ${tenant.id}: ${field} ${problem}`);
      });
    });
  }

  /** Remembers a host the Worker was reached at, keeping the most recent MAX_OWN_HOSTS. */
  #noteHost(host: string): void {
    if (this.#ownHosts.delete(host) || this.#ownHosts.size < MAX_OWN_HOSTS) {
      this.#ownHosts.add(host);
      return;
    }
    const oldest = this.#ownHosts.values().next().value;
    if (oldest !== undefined) this.#ownHosts.delete(oldest);
    this.#ownHosts.add(host);
  }

  /** Why a remote module may not call `url`: it is this Worker (a host it was reached at) or a tenant's host. */
  #refuse = (url: URL): string | undefined => {
    if (this.#ownHosts.has(url.host.toLowerCase())) return "its url points at this Worker itself, which a remote module may not";
    if (this.tenants.some((tenant) => tenant.hosts?.includes(url.hostname.toLowerCase())))
      return "its url points at a tenant's endpoint on this Worker, which a remote module may not";
    return undefined;
  };

  /** The tenant set aside whose host or path prefix this request names, when no served tenant is reached. */
  unavailable(request: Request, pathname: string): BrokenTenant | undefined {
    return this.#unavailable.resolve(hostnameOf(requestHost(request)), pathname);
  }

  /** The tenant's parsed auth settings, when it requires authorization. */
  auth(tenant: TenantConfig): AuthConfig | undefined {
    return this.#auth.get(tenant.id);
  }

  /** Every tenant served at the request's host: the tenant of that host, else every tenant reached by path. */
  tenantsAt(request: Request): ResolvedTenant[] {
    const byHost = this.#byHost.get(hostnameOf(requestHost(request)));
    if (byHost) return [{ tenant: byHost, path: "/mcp" }];
    return this.#byPath.map(({ prefix, tenant }) => ({ tenant, path: `${prefix}/mcp` }));
  }

  /** The tenant of a request: by Host first, then by path prefix; undefined when none serves it. */
  resolve(request: Request, pathname: string): ResolvedTenant | undefined {
    if (this.#hasRemotes) this.#noteHost(requestHost(request).toLowerCase());
    const byHost = this.#byHost.get(hostnameOf(requestHost(request)));
    if (byHost) return { tenant: byHost, path: "/mcp" };
    for (const { prefix, tenant } of this.#byPath) {
      if (pathname === prefix || pathname.startsWith(`${prefix}/`)) return { tenant, path: `${prefix}/mcp` };
    }
    return undefined;
  }

  /**
   * The tenant's compiled server. Service catalogues are read again after their TTL: when one
   * changed, a new server is built (new list pages, a new search index) and the change is
   * announced (`notifications/tools/list_changed`); otherwise the same server goes on serving.
   */
  server(tenant: TenantConfig, waitUntil?: WaitUntil): Promise<McpServer> {
    const now = (this.#options.now ?? Date.now)();
    const cached = this.#compiled.get(tenant.id);
    const fresh = cached && now - cached.builtAt < (this.#options.catalogTtlMs ?? 300_000) && !(now - cached.builtAt >= MIN_REFRESH_MS && cached.stale?.());
    if (cached && fresh) return cached.built.then((b) => b.server);
    const built = this.#refresh(tenant, this.#last.get(tenant.id), waitUntil);
    const entry: CompiledTenant = { built, builtAt: now };
    this.#compiled.set(tenant.id, entry);
    // A build that fails is retried on the next request rather than cached.
    built.then(
      (b) => {
        this.#last.set(tenant.id, b);
        entry.stale = b.stale;
      },
      () => this.#compiled.delete(tenant.id),
    );
    return built.then((b) => b.server);
  }

  /** Builds a tenant's server again at once (a remote module read a changed list during a call); the build announces the change. */
  async #listChanged(tenant: TenantConfig, waitUntil: WaitUntil): Promise<void> {
    if (!this.#compiled.has(tenant.id)) return;
    this.#compiled.delete(tenant.id);
    await this.server(tenant, waitUntil);
  }

  async #refresh(tenant: TenantConfig, previous: Built | undefined, waitUntil: WaitUntil | undefined): Promise<Built> {
    const collected = await collectTenantParts(
      tenant,
      this.#options.modules,
      (binding) => this.#options.service(binding),
      this.#options.jsonSchema?.jsonSchema,
      { of: this.#options.remotes, refuse: this.#refuse, changed: (waitUntil) => this.#listChanged(tenant, waitUntil) },
    );
    if (previous && previous.catalog === collected.catalog) return { ...previous, stale: collected.stale };
    const server = this.#build(tenant, collected);
    if (previous) {
      if (this.#options.onToolsChanged) this.#options.onToolsChanged(tenant, previous.server, waitUntil);
      else previous.server.changes.toolsListChanged();
    }
    return { server, catalog: collected.catalog, stale: collected.stale };
  }

  #build(tenant: TenantConfig, { tools, resources, templates, prompts, skills, apps, unavailable }: Collected): McpServer {
    const info = {
      ...this.#options.info,
      ...(tenant.server?.name ? { name: tenant.server.name } : {}),
      ...(tenant.server?.version ? { version: tenant.server.version } : {}),
      ...(tenant.server?.title ? { title: tenant.server.title } : {}),
    };
    return createServer({
      info,
      ...(tenant.server?.instructions ? { instructions: tenant.server.instructions } : {}),
      tools: withSecuritySchemes(tools, this.#auth.get(tenant.id)),
      resources,
      resourceTemplates: templates,
      prompts,
      skills,
      scope: tenant.id,
      unavailableModules: unavailable,
      // Lists may differ per tenant and, with auth, per caller.
      cacheScope: tenant.auth || tenant.signIn ? "private" : "public",
      ...(tenant.toolSearch ? { toolSearch: toolSearch(tenant.toolSearch) } : {}),
      features: [
        ...(tenant.codeMode ? [this.#codeMode(tenant, tenant.codeMode)] : []),
        ...(apps.length > 0 ? [appsFeature(apps, { assets: this.#options.appAssets })] : []),
        ...(this.#options.jsonSchema ? [this.#options.jsonSchema] : []),
        ...(this.#options.accounts ? [this.#options.accounts] : []),
      ],
    });
  }

  #codeMode(tenant: TenantConfig, limits: CodeModeLimits): Feature {
    if (this.#options.codeModeOptedIn === false) {
      throw new DefinitionError(
        `tenant ${tenant.id}: codeMode needs the Worker to opt in: createMultiTenantWorker({ ..., codeMode: tenantCodeMode() }) from edge-mcp/workers`,
      );
    }
    if (!this.#options.codeMode) throw new DefinitionError(`tenant ${tenant.id}: codeMode needs a Worker Loader binding named MCP_LOADER ([[worker_loaders]])`);
    return this.#options.codeMode(limits);
  }
}
