/** What a tenant's modules bring to its server: bundled modules' parts and service catalogues, checked for clashes and digested. */

import { sha256Hex } from "../core/bytes.ts";
import { DefinitionError } from "../core/definition-error.ts";
import type { ToolService } from "../modules/service-contract.ts";
import { serviceApps } from "../modules/service-apps.ts";
import { clash, collectServiceModule, skillKey } from "../modules/service-parts.ts";
import type { ToolModule } from "../modules/tool-module.ts";
import type { AppDefinition } from "../server/apps/app.ts";
import { appUnderPrefix, plainAppTools } from "../server/apps/app-prefix.ts";
import type { PromptDefinition } from "../server/prompts/prompt.ts";
import type { ResourceDefinition, ResourceTemplateDefinition } from "../server/resources/resource.ts";
import type { Skill } from "../server/skills/skill.ts";
import { underPrefix } from "../server/skills/skill-registry.ts";
import type { UnavailableModule } from "../server/tools/tool-registry.ts";
import type { JsonSchemaValidator } from "../server/tools/schema-validator.ts";
import type { ToolDefinition } from "../server/tools/tool.ts";
import type { TenantConfig } from "./tenant-config.ts";
import type { RemoteRef } from "./remote-section.ts";
import type { ModuleRef } from "./tenant-sections.ts";
import type { Fail } from "./config-fields.ts";

/** What a remote module brings to its tenant's server. */
export interface RemoteModuleParts {
  tools: ToolDefinition[];
  /** The upstream's resources, templates and prompts under the module prefix, where it has them. */
  resources?: ResourceDefinition[];
  templates?: ResourceTemplateDefinition[];
  prompts?: PromptDefinition[];
  unavailable: UnavailableModule | undefined;
  catalog: unknown;
  /** Whether what it listed is out of date (its TTL passed, or the upstream said list_changed). */
  stale(): boolean;
}

/** Builds the tenant's server again and announces its changed tools (a call read a changed remote list); `waitUntil` keeps the announcement alive. */
export type RemoteListChanged = (waitUntil: (promise: Promise<unknown>) => void) => Promise<void>;

/**
 * The remote modules of a Worker's tenants (`remoteModules()` of edge-mcp/workers, an opt-in):
 * tenancy names only this shape, so Workers without remotes bundle no MCP client.
 */
export interface TenantRemotes {
  /** Checks a module's `remote` field (`field` is its path, `modules[0].remote`), failing through `fail`. */
  parse(value: unknown, field: string, fail: Fail): RemoteRef;
  collect(
    tenant: TenantConfig,
    module: ModuleRef & { remote: RemoteRef },
    settings: { prefix: string; timeoutMs: number; refuse: (url: URL) => string | undefined; changed?: RemoteListChanged },
    taken: Set<string>,
    validator?: JsonSchemaValidator,
  ): Promise<RemoteModuleParts>;
}

/** A service module's calls time out after this many ms unless the module or tenant says otherwise. */
const DEFAULT_TIMEOUT_MS = 10_000;

/** Everything a tenant's server is built from, and the digest of what may change between reads. */
export interface Collected {
  tools: ToolDefinition[];
  resources: ResourceDefinition[];
  templates: ResourceTemplateDefinition[];
  prompts: PromptDefinition[];
  skills: Skill[];
  apps: AppDefinition[];
  unavailable: UnavailableModule[];
  catalog: string;
  /** Whether a remote module's list is out of date, so the server is to be built again. */
  stale: () => boolean;
}

/** Skills under a module prefix: it becomes the first segment of their path (skill names have no `_`). */
function prefixed(skills: readonly Skill[] | undefined, prefix: string | undefined): Skill[] {
  return (skills ?? []).map((skill) => (prefix === undefined ? skill : underPrefix(skill, prefix)));
}

/** Items under a module prefix: `<prefix>_<name>`. */
function renamed<T extends { name: string }>(items: readonly T[] | undefined, prefix: string | undefined): T[] {
  return (items ?? []).map((item) => (prefix === undefined ? item : { ...item, name: `${prefix}_${item.name}` }));
}

/** Throws a DefinitionError naming the tenant when a bundled module is unknown or its tools or skills collide with another's. */
export function checkBundledModules(tenant: TenantConfig, modules: Readonly<Record<string, ToolModule>>): void {
  const names = new Map<string, string>();
  const skills = new Map<string, string>();
  for (const ref of tenant.modules) {
    if (ref.service !== undefined || ref.remote !== undefined) continue;
    const module = modules[ref.name];
    if (!module)
      throw new DefinitionError(
        `tenant ${tenant.id}: modules names ${ref.name}, which this Worker does not bundle (known: ${Object.keys(modules).join(", ") || "none"})`,
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

/**
 * Everything a tenant's server is built from: its bundled modules' parts (under their prefixes;
 * apps as plain tools when the tenant turns apps off) and what its services answer, with the digest
 * of the config and those answers.
 */
export async function collectTenantParts(
  tenant: TenantConfig,
  modules: Readonly<Record<string, ToolModule>>,
  serviceOf: (binding: string) => ToolService | undefined,
  validator?: JsonSchemaValidator,
  remotes?: { of: TenantRemotes | undefined; refuse: (url: URL) => string | undefined; changed?: RemoteListChanged },
): Promise<Collected> {
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
  const stale: (() => boolean)[] = [];
  for (const ref of tenant.modules) {
    if (ref.remote !== undefined) {
      const prefix = ref.prefix ?? ref.name;
      if (!remotes?.of)
        throw new DefinitionError(
          `tenant ${tenant.id}: module ${ref.name} is remote, which needs the Worker to opt in: createMultiTenantWorker({ ..., remotes: remoteModules() }) from edge-mcp/workers`,
        );
      const timeoutMs = ref.timeoutMs ?? tenant.limits?.toolTimeoutMs ?? DEFAULT_TIMEOUT_MS;
      const parts = await remotes.of.collect(
        tenant,
        { ...ref, remote: ref.remote },
        { prefix, timeoutMs, refuse: remotes.refuse, ...(remotes.changed ? { changed: remotes.changed } : {}) },
        taken,
        validator,
      );
      catalogs.push(parts.catalog);
      if (parts.unavailable) unavailable.push(parts.unavailable);
      tools.push(...parts.tools);
      resources.push(...(parts.resources ?? []));
      templates.push(...(parts.templates ?? []));
      prompts.push(...(parts.prompts ?? []));
      stale.push(() => parts.stale());
      continue;
    }
    if (ref.service === undefined) {
      const module = modules[ref.name] as ToolModule;
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
    const service = serviceOf(ref.service);
    const parts = await collectServiceModule(
      service,
      { name: ref.name, prefix, timeoutMs, binding: ref.service },
      { tools: taken, skills: takenSkills },
      `tenant ${tenant.id}: `,
      tenant.apps === false ? undefined : serviceApps,
      validator,
    );
    catalogs.push(parts.catalog);
    if (parts.unavailable) unavailable.push(parts.unavailable);
    tools.push(...parts.tools);
    skills.push(...parts.skills);
    apps.push(...parts.apps);
  }
  return {
    tools,
    resources,
    templates,
    prompts,
    skills,
    apps,
    unavailable,
    catalog: await sha256Hex(JSON.stringify(catalogs)),
    stale: () => stale.some((isStale) => isStale()),
  };
}
