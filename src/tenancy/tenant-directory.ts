/** Tenants of one deployment: resolution by host or path, and each tenant's server, compiled once per isolate. */

import { parseAuthConfig, type AuthConfig } from "../auth/auth-config.ts";
import { withSecuritySchemes } from "./security-schemes.ts";
import { sha256Hex } from "../core/bytes.ts";
import { DefinitionError } from "../core/definition-error.ts";
import { hostnameOf, requestHost } from "../core/host.ts";
import type { Implementation } from "../core/types.ts";
import type { ToolService } from "../modules/service-contract.ts";
import { clash, collectServiceModule, skillKey } from "../modules/service-parts.ts";
import { serviceApps } from "../modules/service-apps.ts";
import type { ToolModule } from "../modules/tool-module.ts";
import type { AppAssetLoader, AppDefinition } from "../server/apps/app.ts";
import { appUnderPrefix, plainAppTools } from "../server/apps/app-prefix.ts";
import { apps as appsFeature } from "../server/apps/apps-feature.ts";
import type { PromptDefinition } from "../server/prompts/prompt.ts";
import type { ResourceDefinition, ResourceTemplateDefinition } from "../server/resources/resource.ts";
import type { Skill } from "../server/skills/skill.ts";
import { underPrefix } from "../server/skills/skill-registry.ts";
import { createServer, type McpServer } from "../server/server.ts";
import { toolSearch } from "../server/search/tool-search-engine.ts";
import type { UnavailableModule } from "../server/tools/tool-registry.ts";
import type { ToolDefinition } from "../server/tools/tool.ts";
import type { TenantConfig } from "./tenant-config.ts";
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
  /** Reads the `{ asset }` HTML of the modules' MCP Apps (a Static Assets binding on Workers). */
  appAssets?: AppAssetLoader;
}

export interface ResolvedTenant {
  tenant: TenantConfig;
  /** The MCP endpoint path for this request: `/mcp` by host, `<prefix>/mcp` by path. */
  path: string;
}

/** A tenant's server and the digest of the catalogue it was built from. */
interface Built {
  server: McpServer;
  catalog: string;
}

interface CompiledTenant {
  built: Promise<Built>;
  builtAt: number;
}

/** Everything a tenant's server is built from, and the digest of what may change between reads. */
interface Collected {
  tools: ToolDefinition[];
  resources: ResourceDefinition[];
  templates: ResourceTemplateDefinition[];
  prompts: PromptDefinition[];
  skills: Skill[];
  apps: AppDefinition[];
  unavailable: UnavailableModule[];
  catalog: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** Skills under a module prefix: it becomes the first segment of their path (skill names have no `_`). */
function prefixed(skills: readonly Skill[] | undefined, prefix: string | undefined): Skill[] {
  return (skills ?? []).map((skill) => (prefix === undefined ? skill : underPrefix(skill, prefix)));
}

function renamed<T extends { name: string }>(items: readonly T[] | undefined, prefix: string | undefined): T[] {
  return (items ?? []).map((item) => (prefix === undefined ? item : { ...item, name: `${prefix}_${item.name}` }));
}

/**
 * A tenant's auth with the tools of its public modules added to `publicTools`: a prefixed or
 * service module by its `prefix_*` pattern, a bundled module without prefix by its tool names.
 */
function withPublicModules(auth: AuthConfig, tenant: TenantConfig, modules: Readonly<Record<string, ToolModule>>): AuthConfig {
  const patterns = tenant.modules
    .filter((ref) => ref.public === true)
    .flatMap((ref) => {
      const prefix = ref.prefix ?? (ref.service === undefined ? undefined : ref.name);
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
    const options = this.#options;
    // Auth settings are validated with the rest of the config: errors name the tenant and field.
    if (tenant.auth !== undefined) this.#auth.set(tenant.id, withPublicModules(parseAuthConfig(tenant.auth, tenant.id), tenant, this.#options.modules));
    const names = new Map<string, string>();
    const skills = new Map<string, string>();
    for (const ref of tenant.modules) {
      if (ref.service !== undefined) continue;
      const module = options.modules[ref.name];
      if (!module)
        throw new DefinitionError(
          `tenant ${tenant.id}: modules names ${ref.name}, which this Worker does not bundle (known: ${Object.keys(options.modules).join(", ") || "none"})`,
        );
      for (const tool of renamed(module.tools, ref.prefix)) {
        const owner = names.get(tool.name);
        if (owner !== undefined)
          throw new DefinitionError(`tenant ${tenant.id}: tool ${tool.name} of module ${ref.name} collides with module ${owner}; give one a prefix`);
        names.set(tool.name, ref.name);
      }
      for (const skill of prefixed(module.skills, ref.prefix)) {
        const other = clash(skillKey(skill), skills.keys());
        if (other !== undefined) {
          throw new DefinitionError(
            `tenant ${tenant.id}: skill ${skillKey(skill)} of module ${ref.name} collides with skill ${other} of module ${skills.get(other)}; give one a prefix`,
          );
        }
        skills.set(skillKey(skill), ref.name);
      }
    }
  }

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
    if (cached && now - cached.builtAt < (this.#options.catalogTtlMs ?? 300_000)) return cached.built.then((b) => b.server);
    const built = this.#refresh(tenant, this.#last.get(tenant.id), waitUntil);
    this.#compiled.set(tenant.id, { built, builtAt: now });
    // A build that fails is retried on the next request rather than cached.
    built.then(
      (b) => this.#last.set(tenant.id, b),
      () => this.#compiled.delete(tenant.id),
    );
    return built.then((b) => b.server);
  }

  async #refresh(tenant: TenantConfig, previous: Built | undefined, waitUntil: WaitUntil | undefined): Promise<Built> {
    const collected = await this.#collect(tenant);
    if (previous && previous.catalog === collected.catalog) return previous;
    const server = this.#build(tenant, collected);
    if (previous) {
      if (this.#options.onToolsChanged) this.#options.onToolsChanged(tenant, previous.server, waitUntil);
      else previous.server.changes.toolsListChanged();
    }
    return { server, catalog: collected.catalog };
  }

  async #collect(tenant: TenantConfig): Promise<Collected> {
    const tools: ToolDefinition[] = [];
    const resources: ResourceDefinition[] = [];
    const templates: ResourceTemplateDefinition[] = [];
    const prompts: PromptDefinition[] = [];
    const skills: Skill[] = [];
    const apps: AppDefinition[] = [];
    const unavailable: UnavailableModule[] = [];
    // What the server is built from and may change: the tenant's config, and what its services returned.
    const catalogs: unknown[] = [tenant];
    const taken = new Set<string>();
    const takenSkills = new Set<string>();
    for (const ref of tenant.modules) {
      if (ref.service === undefined) {
        const module = this.#options.modules[ref.name] as ToolModule;
        for (const tool of renamed(module.tools, ref.prefix)) taken.add(tool.name);
        tools.push(...renamed(module.tools, ref.prefix));
        resources.push(...(module.resources ?? []));
        templates.push(...(module.resourceTemplates ?? []));
        prompts.push(...renamed(module.prompts, ref.prefix));
        for (const skill of prefixed(module.skills, ref.prefix)) {
          takenSkills.add(skillKey(skill));
          skills.push(skill);
        }
        for (const app of module.apps ?? []) {
          const served = ref.prefix === undefined ? app : appUnderPrefix(app, ref.prefix);
          // A tenant with apps off serves the model's tools of each app as plain tools.
          if (tenant.apps === false) tools.push(...plainAppTools(served));
          else apps.push(served);
          for (const tool of [...(served.tools ?? []), ...(served.appTools ?? [])]) taken.add(tool.name);
        }
        continue;
      }
      const prefix = ref.prefix ?? ref.name;
      const timeoutMs = ref.timeoutMs ?? tenant.limits?.toolTimeoutMs ?? DEFAULT_TIMEOUT_MS;
      const service = this.#options.service(ref.service);
      const parts = await collectServiceModule(
        service,
        { name: ref.name, prefix, timeoutMs, binding: ref.service },
        { tools: taken, skills: takenSkills },
        `tenant ${tenant.id}: `,
        tenant.apps === false ? undefined : serviceApps,
      );
      catalogs.push(parts.catalog);
      if (parts.unavailable) unavailable.push(parts.unavailable);
      tools.push(...parts.tools);
      skills.push(...parts.skills);
      apps.push(...parts.apps);
    }
    return { tools, resources, templates, prompts, skills, apps, unavailable, catalog: await sha256Hex(JSON.stringify(catalogs)) };
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
      cacheScope: tenant.auth ? "private" : "public",
      ...(tenant.toolSearch ? { toolSearch: toolSearch(tenant.toolSearch) } : {}),
      features: [
        ...(tenant.codeMode ? [this.#codeMode(tenant, tenant.codeMode)] : []),
        ...(apps.length > 0 ? [appsFeature(apps, { assets: this.#options.appAssets })] : []),
      ],
    });
  }

  #codeMode(tenant: TenantConfig, limits: CodeModeLimits): Feature {
    if (!this.#options.codeMode) throw new DefinitionError(`tenant ${tenant.id}: codeMode needs a Worker Loader binding named MCP_LOADER ([[worker_loaders]])`);
    return this.#options.codeMode(limits);
  }
}
