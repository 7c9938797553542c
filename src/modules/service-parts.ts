/**
 * What one service-bound module adds to a server: its tools, skills and apps, read from its
 * catalogue and checked one by one (a bad entry is left out with a log line, never the module or
 * the server). Multi-tenant Workers and `createWorker`'s `toolServices()` both build modules here.
 */

import { DefinitionError } from "../core/definition-error.ts";
import type { AppDefinition } from "../server/apps/app.ts";
import { compileSkill } from "../server/skills/compile-skill.ts";
import type { Skill } from "../server/skills/skill.ts";
import { checkSkillLimits, resolveSkillLimits } from "../server/skills/skill-registry.ts";
import { compileTool } from "../server/tools/compile-tool.ts";
import type { UnavailableModule } from "../server/tools/tool-registry.ts";
import type { JsonSchemaValidator } from "../server/tools/schema-validator.ts";
import type { ToolDefinition } from "../server/tools/tool.ts";
import type { ServiceCatalog, ToolService } from "./service-contract.ts";
import { describeService, serviceTools, type ServiceModuleOptions } from "./service-module.ts";
import { serviceSkills } from "./service-skills.ts";

const SERVICE_SKILL_LIMITS = resolveSkillLimits();

/** A skill's folder below skill:// (its path and name), which names it in collisions and logs. */
export const skillKey = (skill: Skill): string => skill.root.slice("skill://".length);

/** The taken skill whose folder is this one, holds it, or lies in it (a skill's file list would be incomplete). */
export function clash(key: string, taken: Iterable<string>): string | undefined {
  for (const other of taken) if (other === key || other.startsWith(`${key}/`) || key.startsWith(`${other}/`)) return other;
  return undefined;
}

/** Names already served by the other modules of the same server: tool names and skill folders. */
export interface TakenNames {
  tools: Set<string>;
  skills: Set<string>;
}

/** Turns a service's listed apps into app declarations (the apps feature's code, passed in only where apps are served). */
export type ServiceAppsReader = (
  service: ToolService,
  listed: readonly unknown[],
  tools: ToolDefinition[],
  module: ServiceModuleOptions,
) => { apps: AppDefinition[]; refused: string[] };

/** One service module of a server: what the service lists, and how its tools are named and timed. */
export interface ServiceModuleRef extends ServiceModuleOptions {
  /** The binding it is reached through, named when it is missing. */
  binding: string;
}

export interface ServiceParts {
  tools: ToolDefinition[];
  skills: Skill[];
  apps: AppDefinition[];
  /** Set when the module cannot be listed at all (not bound, describe() failed): its calls explain why. */
  unavailable: UnavailableModule | undefined;
  /** What the service returned (null when nothing), for the digest that tells a changed catalogue. */
  catalog: ServiceCatalog | null;
}

/**
 * Reads one service module's catalogue and keeps what can be served. A tool whose declaration is
 * wrong (its schema, its name), one colliding with a taken name, and a skill or app that fails its
 * checks is left out alone, logged with `where` (`tenant acme: `), the module and the reason: a
 * schema with a keyword outside the core JSON Schema validator too, unless `validator` is the full one.
 */
export async function collectServiceModule(
  service: ToolService | undefined,
  module: ServiceModuleRef,
  taken: TakenNames,
  where: string,
  readApps?: ServiceAppsReader,
  validator?: JsonSchemaValidator,
): Promise<ServiceParts> {
  const log = (line: string) => console.error(`edge-mcp: ${where}module ${module.name}: ${line}`);
  const parts: ServiceParts = { tools: [], skills: [], apps: [], unavailable: undefined, catalog: null };
  if (!service) {
    log(`service binding ${module.binding} is not bound`);
    parts.unavailable = { prefix: module.prefix, module: module.name, reason: `its service binding ${module.binding} is not bound` };
    return parts;
  }
  let catalog: ServiceCatalog;
  try {
    catalog = await describeService(service, module.name, module.timeoutMs);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.error(`edge-mcp: ${where}${reason}`);
    parts.unavailable = { prefix: module.prefix, module: module.name, reason };
    return parts;
  }
  parts.catalog = catalog;
  const listed = serviceTools(service, catalog, module).filter((tool) => {
    try {
      compileTool(tool, validator);
      return true;
    } catch (error) {
      if (!(error instanceof DefinitionError)) throw error;
      log(`tool ${tool.name} is left out: ${error.message}`);
      return false;
    }
  });
  if (catalog.apps !== undefined && readApps) {
    const found = readApps(service, Array.isArray(catalog.apps) ? catalog.apps : [], listed, module);
    for (const reason of found.refused) log(`${reason}; it is left out`);
    for (const app of found.apps) {
      for (const tool of [...(app.tools ?? []), ...(app.appTools ?? [])]) taken.tools.add(tool.name);
      parts.apps.push(app);
    }
  }
  for (const tool of listed) {
    if (taken.tools.has(tool.name)) {
      log(`tool ${tool.name} collides with another module's tool; it is left out`);
      continue;
    }
    taken.tools.add(tool.name);
    parts.tools.push(tool);
  }
  parts.skills = collectServiceSkills(service, catalog.skills ?? [], module, taken.skills, log);
  return parts;
}

/**
 * The skills a service lists that can be served: each is compiled on its own, so one with bad
 * frontmatter, over the limits or colliding with another module's is left out (with a log line).
 */
function collectServiceSkills(
  service: ToolService,
  listed: readonly unknown[],
  module: ServiceModuleOptions,
  taken: Set<string>,
  log: (line: string) => void,
): Skill[] {
  const { skills: definitions, refused } = serviceSkills(service, listed, module);
  const served: Skill[] = [];
  for (const { skill, reason } of refused) log(`skill ${skill} is left out: ${reason}`);
  for (const definition of definitions) {
    let skill: Skill;
    try {
      skill = compileSkill(definition);
      checkSkillLimits(skill, SERVICE_SKILL_LIMITS);
    } catch (error) {
      log(`${error instanceof Error ? error.message : String(error)}; it is left out`);
      continue;
    }
    const other = clash(skillKey(skill), taken);
    if (other !== undefined) {
      log(`skill ${skillKey(skill)} collides with skill ${other}; it is left out`);
      continue;
    }
    taken.add(skillKey(skill));
    served.push(skill);
  }
  return served;
}
