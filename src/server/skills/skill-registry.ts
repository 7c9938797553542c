/**
 * The skills of one server (SEP-2640): their files as ordinary resources, and the `skills/list`,
 * `skills/get` and `resources/directory/read` answers, serialised once per isolate after the
 * digests are computed (lazily, on the first skills request).
 */

import { DefinitionError } from "../../core/definition-error.ts";
import { invalidParams } from "../../core/errors.ts";
import type { JsonObject } from "../../core/types.ts";
import type { Era } from "../context/handler-context.ts";
import { PagedList, type PagedListOptions } from "../lists/paged-list.ts";
import type { ResourceDefinition } from "../resources/resource.ts";
import { DEFAULT_SKILL_LIMITS, type ServedSkillFile, type Skill, type SkillLimits } from "./skill.ts";

/** The extension's identifier under `capabilities.extensions`. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** The `mimeType` of a directory resource (SEP-2640 "Directory resources"). */
export const DIRECTORY_MIME_TYPE = "inode/directory";

interface Catalogue {
  list: PagedList;
  /** `skills/get` results by SKILL.md URI: [legacy, modern]. */
  entries: Map<string, [string, string]>;
}

const basename = (uri: string): string => uri.slice(uri.lastIndexOf("/") + 1);

/** The limits with their defaults; throws a `DefinitionError` for a value that is not a positive integer. */
export function resolveSkillLimits(limits: SkillLimits = {}): Required<SkillLimits> {
  const resolved = { ...DEFAULT_SKILL_LIMITS };
  for (const key of Object.keys(resolved) as (keyof SkillLimits)[]) {
    const value = limits[key];
    if (value !== undefined) resolved[key] = value;
  }
  for (const [key, value] of Object.entries(resolved)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new DefinitionError(`skillLimits.${key} must be a positive integer`);
  }
  return resolved;
}

/** Throws a `DefinitionError` naming the skill and the file that crosses a limit. */
export function checkSkillLimits(skill: Skill, limits: Required<SkillLimits>): void {
  const fail = (path: string, message: string): never => {
    throw new DefinitionError(`skill ${skill.name}: file ${path}${message}`);
  };
  const over = skill.files[limits.maxFiles];
  if (over) fail(over.path, ` is over the limit of ${limits.maxFiles} files per skill (skillLimits.maxFiles)`);
  let total = 0;
  for (const file of skill.files) {
    if (file.size > limits.maxFileBytes)
      fail(file.path, `: is ${file.size} bytes, over the limit of ${limits.maxFileBytes} bytes per file (skillLimits.maxFileBytes)`);
    total += file.size;
    if (total > limits.maxTotalBytes)
      fail(file.path, `: brings the skill to ${total} bytes, over the limit of ${limits.maxTotalBytes} bytes per skill (skillLimits.maxTotalBytes)`);
  }
}

/** The same skill served under an organisational prefix (a module's): `skill://<prefix>/<path>/<name>/…`. */
export function underPrefix(skill: Skill, prefix: string): Skill {
  if (!/^[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/.test(prefix) || prefix.split("/").some((segment) => segment === "." || segment === "..")) {
    throw new DefinitionError(`skill ${skill.name}: prefix ${JSON.stringify(prefix)} must be "/"-separated segments of A-Z a-z 0-9 . _ ~ -`);
  }
  const root = `skill://${prefix}/${skill.root.slice("skill://".length)}`;
  return { ...skill, root, uri: `${root}/SKILL.md`, files: skill.files.map((file) => ({ ...file, uri: `${root}/${file.path}` })) };
}

export class SkillRegistry {
  readonly #skills = new Map<string, Skill>();
  /** Every folder of every skill (roots and subfolders) → its direct children by URI, as `Resource` objects. */
  readonly #directories = new Map<string, Map<string, JsonObject>>();
  /** Every folder above a skill root, to refuse a skill inside another. */
  readonly #above = new Map<string, string>();
  /** Directory pages, serialised on a folder's first read. */
  readonly #directoryPages = new Map<string, PagedList>();
  readonly #resources: ResourceDefinition[] = [];
  readonly #options: PagedListOptions;
  #catalogue: Promise<Catalogue> | undefined;

  /** Checks limits, duplicates and nesting; throws a `DefinitionError` naming the skill (and file) at fault. */
  constructor(skills: readonly Skill[], options: PagedListOptions, limits?: SkillLimits) {
    this.#options = options;
    const resolved = resolveSkillLimits(limits);
    for (const skill of skills) {
      checkSkillLimits(skill, resolved);
      if (this.#skills.has(skill.uri)) throw new DefinitionError(`skill ${skill.name}: ${skill.uri} is declared twice`);
      this.#checkNesting(skill);
      this.#skills.set(skill.uri, skill);
      this.#addFiles(skill);
    }
  }

  get size(): number {
    return this.#skills.size;
  }

  /** Every skill file as a fixed resource: listed by `resources/list`, read by `resources/read`. */
  resources(): readonly ResourceDefinition[] {
    return this.#resources;
  }

  /** The serialised `skills/list` page for a cursor (undefined = first page). */
  async listPage(cursor: unknown, era: Era): Promise<string> {
    return (await this.#ready()).list.page(cursor, era);
  }

  /** The serialised `skills/get` result; -32602 for a URI that is not a served skill's SKILL.md. */
  async get(uri: unknown, era: Era): Promise<string> {
    if (typeof uri !== "string") throw invalidParams(`skills/get needs params.uri, the URI of a skill's SKILL.md`);
    const entry = (await this.#ready()).entries.get(uri);
    if (!entry) throw invalidParams(`No skill is served at ${uri}: skills/list gives the URIs of the skills (each ends in /SKILL.md)`, { data: { uri } });
    return era === "modern" ? entry[1] : entry[0];
  }

  /** The serialised `resources/directory/read` page; -32602 for a URI that is not a skill folder. */
  directoryPage(uri: unknown, cursor: unknown, era: Era): string {
    if (typeof uri !== "string") throw invalidParams(`resources/directory/read needs params.uri, the URI of a directory resource`);
    let list = this.#directoryPages.get(uri);
    if (!list) {
      const children = this.#directories.get(uri);
      if (!children) throw invalidParams(`Not a directory resource: ${uri} (a skill's folder is its SKILL.md URI without /SKILL.md)`, { data: { uri } });
      const sorted = [...children.values()].sort((a, b) => ((a["uri"] as string) < (b["uri"] as string) ? -1 : 1));
      list = new PagedList(
        "resources/directory/read",
        "resources",
        sorted.map((child) => JSON.stringify(child)),
        sorted.map((child) => child["uri"] as string),
        this.#options,
      );
      this.#directoryPages.set(uri, list);
    }
    return list.page(cursor, era);
  }

  /** One skill's folder may not hold another's: the outer skill's file list would then be incomplete. */
  #checkNesting(skill: Skill): void {
    const overlap = (other: string): never => {
      throw new DefinitionError(
        `skill ${skill.name}: its folder ${skill.root} and the folder of skill ${other} overlap; serve a nested skill's files as files of the enclosing skill`,
      );
    };
    const below = this.#above.get(skill.root);
    if (below !== undefined) overlap(below);
    for (let cut = skill.root.lastIndexOf("/"); cut > "skill://".length; cut = skill.root.lastIndexOf("/", cut - 1)) {
      const folder = skill.root.slice(0, cut);
      const enclosing = this.#skills.get(`${folder}/SKILL.md`);
      if (enclosing) overlap(enclosing.name);
      this.#above.set(folder, skill.name);
    }
  }

  #addFiles(skill: Skill): void {
    const child = (folder: string, item: JsonObject): void => {
      let children = this.#directories.get(folder);
      if (!children) this.#directories.set(folder, (children = new Map<string, JsonObject>()));
      children.set(item["uri"] as string, item);
    };
    this.#directories.set(skill.root, new Map());
    for (const file of skill.files) {
      const listed = this.#listed(skill, file);
      let folder = skill.root;
      for (const segment of file.path.split("/").slice(0, -1)) {
        const uri = `${folder}/${segment}`;
        child(folder, { uri, name: segment, mimeType: DIRECTORY_MIME_TYPE });
        folder = uri;
      }
      child(folder, listed);
      const { uri, name, mimeType, size } = listed as { uri: string; name: string; mimeType: string; size: number };
      const description = listed["description"];
      this.#resources.push({
        uri,
        name,
        mimeType,
        size,
        ...(typeof description === "string" ? { description } : {}),
        read: (_request, ctx) => file.read(ctx),
      });
    }
  }

  /** A file's `Resource`: SKILL.md carries the frontmatter's name and description (SEP-2640 "Resource Metadata"). */
  #listed(skill: Skill, file: ServedSkillFile): JsonObject {
    if (file.uri === skill.uri) {
      return { uri: file.uri, name: skill.name, description: skill.frontmatter["description"], mimeType: file.mimeType, size: file.size };
    }
    return { uri: file.uri, name: basename(file.uri), mimeType: file.mimeType, size: file.size };
  }

  #ready(): Promise<Catalogue> {
    if (!this.#catalogue) {
      this.#catalogue = this.#build();
      // A failed build (it should not fail) is retried by the next request rather than cached.
      this.#catalogue.catch(() => (this.#catalogue = undefined));
    }
    return this.#catalogue;
  }

  async #build(): Promise<Catalogue> {
    const skills = [...this.#skills.values()];
    const serialised = await Promise.all(
      skills.map(async (skill) => {
        const resources = await Promise.all(skill.files.map(async (file) => ({ uri: file.uri, digest: await file.digest(), size: file.size })));
        return JSON.stringify({ uri: skill.uri, frontmatter: skill.frontmatter, resources });
      }),
    );
    const entries = new Map<string, [string, string]>();
    skills.forEach((skill, index) => {
      const entry = serialised[index] as string;
      entries.set(skill.uri, [`{"skill":${entry}}`, `{"skill":${entry}${this.#options.modernTail}}`]);
    });
    return {
      list: new PagedList(
        "skills/list",
        "skills",
        serialised,
        skills.map((skill) => skill.uri),
        this.#options,
      ),
      entries,
    };
  }
}
