/** For tool service authors: skill declarations turned into the `skills` of `describe()` and the answers of `readSkillFile()`. */

import { DefinitionError } from "../core/definition-error.ts";
import type { Skill, SkillLimits } from "../server/skills/skill.ts";
import { checkSkillLimits, resolveSkillLimits } from "../server/skills/skill-registry.ts";
import type { ServiceSkill } from "./service-contract.ts";

/** The skills of a tool service, compiled once (same checks as a server's skills). */
export interface SkillCatalog {
  /** The `skills` member of `describe()`: SKILL.md in full, the other files by size and digest. */
  describe(): Promise<ServiceSkill[]>;
  /** The answer of `readSkillFile(skill, path)`; throws for a file the catalogue does not have. */
  read(skill: string, path: string): string | Uint8Array;
}

/**
 * The skills of a tool service, from `defineSkill`. Throws a `DefinitionError` naming the skill and
 * file, like `createServer`. Skills hold no external files here: their bytes live in the service.
 *
 * @example
 * const skills = createSkillCatalog([forecastGuide]);
 * export class WeatherTools extends WorkerEntrypoint implements ToolService {
 *   async describe() { return { tools, skills: await skills.describe() }; }
 *   async readSkillFile(skill: string, path: string) { return skills.read(skill, path); }
 * }
 */
export function createSkillCatalog(skills: readonly Skill[], limits?: SkillLimits): SkillCatalog {
  const resolved = resolveSkillLimits(limits);
  const byListedName = new Map<string, Skill>();
  for (const skill of skills) {
    checkSkillLimits(skill, resolved);
    const external = skill.files.find((file) => file.content === undefined);
    if (external)
      throw new DefinitionError(`skill ${skill.name}: file ${external.path}: a tool service holds its skills' bytes; external files are for servers`);
    // What the service lists: the skill's folder below skill:// (its path and name).
    const listedAs = skill.root.slice("skill://".length);
    if (byListedName.has(listedAs)) throw new DefinitionError(`skill ${skill.name}: ${listedAs} is declared twice`);
    byListedName.set(listedAs, skill);
  }
  let described: Promise<ServiceSkill[]> | undefined;
  return {
    describe() {
      described ??= Promise.all(
        [...byListedName].map(async ([listedAs, compiled]) => {
          const [manifest, ...others] = compiled.files;
          const skill: ServiceSkill = { name: compiled.name, skillMd: manifest?.content as string };
          if (listedAs !== compiled.name) skill.path = listedAs.slice(0, -compiled.name.length - 1);
          if (others.length > 0)
            skill.files = await Promise.all(
              others.map(async (file) => ({ path: file.path, size: file.size, digest: await file.digest(), mimeType: file.mimeType })),
            );
          return skill;
        }),
      );
      return described;
    },
    read(skill, path) {
      const file = byListedName.get(skill)?.files.find((candidate) => candidate.path === path);
      if (file?.content === undefined) throw new Error(`no file ${path} in skill ${skill}`);
      return file.content;
    },
  };
}
