/** How Agent Skills are declared: a folder of files with a `SKILL.md`, served as `skill://` resources (SEP-2640). */

import type { HandlerContext } from "../context/handler-context.ts";

/** One file of a skill: text, bytes, either with an explicit mime type, or a file served from elsewhere. */
export type SkillFile = string | Uint8Array | SkillFileContent | ExternalSkillFile;

/** A file's content with an explicit mime type (otherwise the type follows the file's extension). */
export interface SkillFileContent {
  content: string | Uint8Array;
  mimeType: string;
}

/**
 * A file whose bytes live elsewhere (a tool service, storage): its size and digest are published
 * in `skills/list`, and `read()` runs on every `resources/read`. Bytes that do not match the size
 * and digest are not served. `SKILL.md` itself cannot be external: its frontmatter is needed when
 * the skill is compiled (by `defineSkill`).
 */
export interface ExternalSkillFile {
  /** Length in bytes (UTF-8 bytes for text). */
  size: number;
  /** `sha256:` and the 64 lowercase hex digits of the SHA-256 of the bytes. */
  digest: string;
  mimeType?: string;
  read(ctx: HandlerContext): Promise<string | Uint8Array>;
}

/** What {@link defineSkill} takes: a skill's name, where it sits, and its files. */
export interface SkillDefinition {
  /** 1-64 lowercase letters, digits and single hyphens; must equal `name` in the SKILL.md frontmatter. */
  name: string;
  /**
   * Organisational path before the name: `"acme/billing"` serves the skill at
   * `skill://acme/billing/<name>/SKILL.md`. Segments use `A-Z a-z 0-9 . _ ~ -`.
   */
  path?: string;
  /**
   * Every file of the skill by its path in the skill's folder (`SKILL.md`, `references/guide.md`).
   * `SKILL.md` is required and begins with YAML frontmatter holding at least `name` and
   * `description`. Path segments use `A-Z a-z 0-9 . _ ~ -`, so URIs need no percent-encoding.
   */
  files: Readonly<Record<string, SkillFile>>;
}

/** One served file of a compiled skill. */
export interface ServedSkillFile {
  /** Path in the skill's folder: `SKILL.md`, `references/guide.md`. */
  readonly path: string;
  readonly uri: string;
  readonly mimeType: string;
  /** Length in bytes (UTF-8 bytes for text). */
  readonly size: number;
  /** The text or bytes, when they are held in memory (not an external file). */
  readonly content?: string | Uint8Array;
  /** `sha256:<hex>`, computed on first use and kept for the isolate's life. */
  digest(): Promise<string>;
  read(ctx: HandlerContext): string | Uint8Array | Promise<string | Uint8Array>;
}

/** A compiled skill, as {@link defineSkill} returns it: checked once, served by any number of servers. */
export interface Skill {
  readonly name: string;
  /** The URI of its SKILL.md: `skill://<path>/<name>/SKILL.md`. */
  readonly uri: string;
  /** The skill's folder: the SKILL.md URI without `/SKILL.md`. */
  readonly root: string;
  /** The SKILL.md frontmatter as JSON, exactly as listed by `skills/list`. */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** SKILL.md first, then the other files by path. */
  readonly files: readonly ServedSkillFile[];
}

/** Per-skill limits checked by `createServer`; over them, a `DefinitionError` names the skill and file. */
export interface SkillLimits {
  /** Files per skill, SKILL.md included (default 512, the SEP-2640 interoperability limit). */
  maxFiles?: number;
  /** Bytes per file (default 4 MiB: a resources/read result carries the whole file, base64 for bytes). */
  maxFileBytes?: number;
  /** Bytes per skill, summed over its files (default 16 MiB, the SEP-2640 interoperability limit). */
  maxTotalBytes?: number;
}

/** The limits `createServer` applies when `skillLimits` leaves one out. */
export const DEFAULT_SKILL_LIMITS: Readonly<Required<SkillLimits>> = Object.freeze({
  maxFiles: 512,
  maxFileBytes: 4 * 1024 * 1024,
  maxTotalBytes: 16 * 1024 * 1024,
});

declare module "../feature.ts" {
  interface ServerDeclarations {
    /** Agent Skills (from `defineSkill`) served through the skills extension (SEP-2640); their files are resources too. */
    skills?: readonly Skill[];
    /** Per-skill limits on files and bytes (defaults: 512 files, 4 MiB per file, 16 MiB per skill). */
    skillLimits?: SkillLimits;
  }
}
