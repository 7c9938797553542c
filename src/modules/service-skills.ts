/** A tool service's skills, as skill declarations: prefixed, their supporting files read over RPC with a timeout and checked. */

import { ErrorCode, ProtocolError } from "../core/errors.ts";
import { isObject } from "../core/json.ts";
import type { SkillDefinition, SkillFile } from "../server/skills/skill.ts";
import type { ServiceSkill, ToolService } from "./service-contract.ts";
import { ModuleFailure, callContext, serviceFailure, withTimeout, type ServiceModuleOptions } from "./service-module.ts";

/** A listed skill the runtime cannot serve, and why (logged; the module's other skills are served). */
export interface RefusedServiceSkill {
  skill: string;
  reason: string;
}

function shapeProblem(value: unknown): string | undefined {
  if (!isObject(value)) return "a skill must be an object";
  if (typeof value["name"] !== "string") return "a skill needs a name";
  if (value["path"] !== undefined && typeof value["path"] !== "string") return "path must be a string";
  if (typeof value["skillMd"] !== "string") return "skillMd (the text of SKILL.md) must be a string";
  const files = value["files"];
  if (files === undefined) return undefined;
  if (!Array.isArray(files)) return "files must be an array";
  for (const file of files as unknown[]) {
    if (!isObject(file) || typeof file["path"] !== "string" || typeof file["size"] !== "number" || typeof file["digest"] !== "string")
      return "every file needs a path, a size and a digest";
    if (file["mimeType"] !== undefined && typeof file["mimeType"] !== "string") return "mimeType must be a string";
    if (file["path"] === "SKILL.md") return "SKILL.md travels in skillMd, not in files";
  }
  return undefined;
}

/**
 * The skills of a service module, served under `skill://<prefix>/…`. Supporting files are read
 * with `readSkillFile()` on demand, within the module's timeout; a failure answers that read with
 * an error naming the module and leaves everything else working. Skills of the wrong shape are
 * returned in `refused`; the caller still compiles the others one by one (bad frontmatter, limits).
 */
export function serviceSkills(
  service: ToolService,
  skills: readonly unknown[],
  options: ServiceModuleOptions,
): { skills: SkillDefinition[]; refused: RefusedServiceSkill[] } {
  const accepted: SkillDefinition[] = [];
  const refused: RefusedServiceSkill[] = [];
  for (const value of skills) {
    const problem = shapeProblem(value);
    const label = isObject(value) && typeof value["name"] === "string" ? value["name"] : "(unnamed)";
    if (problem !== undefined) {
      refused.push({ skill: label, reason: problem });
      continue;
    }
    const skill = value as ServiceSkill;
    const listedAs = skill.path === undefined || skill.path === "" ? skill.name : `${skill.path}/${skill.name}`;
    // Keys are paths the service chose: a null-prototype record keeps "__proto__" an ordinary file name.
    const files: Record<string, SkillFile> = Object.create(null) as Record<string, SkillFile>;
    files["SKILL.md"] = skill.skillMd;
    for (const file of skill.files ?? []) {
      files[file.path] = {
        size: file.size,
        digest: file.digest,
        ...(file.mimeType === undefined ? {} : { mimeType: file.mimeType }),
        read: async (ctx) => {
          try {
            if (typeof service.readSkillFile !== "function") throw new ModuleFailure(`module ${options.name} lists skill files but has no readSkillFile()`);
            return await withTimeout(
              service.readSkillFile(listedAs, file.path, callContext(ctx)),
              options.timeoutMs,
              options.name,
              `readSkillFile(${listedAs}, ${file.path})`,
            );
          } catch (error) {
            // Our own failures (timeout, no reader) are safe to show; what the service threw is logged only.
            const failure =
              error instanceof ModuleFailure
                ? error
                : serviceFailure(
                    options.name,
                    `readSkillFile(${listedAs}, ${file.path})`,
                    error,
                    `module ${options.name} failed to read ${file.path} of skill ${listedAs}`,
                  );
            if (failure === error) console.error(`edge-mcp: module ${options.name}: skill ${listedAs}: file ${file.path}: ${failure.message}`);
            throw new ProtocolError(ErrorCode.InternalError, failure.message);
          }
        },
      };
    }
    accepted.push({ name: skill.name, path: skill.path === undefined || skill.path === "" ? options.prefix : `${options.prefix}/${skill.path}`, files });
  }
  return { skills: accepted, refused };
}
