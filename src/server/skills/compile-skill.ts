/** Compiles one skill declaration: names, paths, SKILL.md frontmatter and mime types are checked once. */

import { DefinitionError } from "../../core/definition-error.ts";
import { ErrorCode, ProtocolError } from "../../core/errors.ts";
import { isObject } from "../../core/json.ts";
import type { ExternalSkillFile, ServedSkillFile, Skill, SkillDefinition, SkillFile } from "./skill.ts";
import { DIGEST_PATTERN, skillDigest, utf8, utf8Length } from "./skill-digest.ts";
import { FrontmatterError, parseSkillMarkdown } from "./skill-frontmatter.ts";
import { needing } from "../feature.ts";
import { resourcesFeature } from "../resources/resources-feature.ts";
import { skillsFeature } from "./skills-feature.ts";

export const SKILL_MD = "SKILL.md";

// Agent Skills `name`: lowercase letters, digits and single hyphens, 1-64 characters.
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
// RFC 3986 unreserved characters: the URI is the path as written, with no percent-encoding to disagree on.
const SEGMENT = /^[A-Za-z0-9._~-]+$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const RESERVED_METADATA_PREFIX = "io.modelcontextprotocol/";

const MIME_TYPES: ReadonlyMap<string, string> = new Map([
  ["md", "text/markdown"],
  ["markdown", "text/markdown"],
  ["txt", "text/plain"],
  ["json", "application/json"],
  ["yaml", "application/yaml"],
  ["yml", "application/yaml"],
  ["py", "text/x-python"],
  ["sh", "application/x-sh"],
  ["js", "text/javascript"],
  ["mjs", "text/javascript"],
  ["ts", "text/typescript"],
  ["html", "text/html"],
  ["css", "text/css"],
  ["csv", "text/csv"],
  ["xml", "application/xml"],
  ["svg", "image/svg+xml"],
  ["png", "image/png"],
  ["jpg", "image/jpeg"],
  ["jpeg", "image/jpeg"],
  ["gif", "image/gif"],
  ["webp", "image/webp"],
  ["pdf", "application/pdf"],
]);

function mimeTypeOf(path: string, text: boolean): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  const known = dot > 0 ? MIME_TYPES.get(base.slice(dot + 1).toLowerCase()) : undefined;
  return known ?? (text ? "text/plain" : "application/octet-stream");
}

/** Hashes on first use and keeps the digest for the isolate's life. */
function memoDigest(bytes: () => Uint8Array): () => Promise<string> {
  let digest: Promise<string> | undefined;
  return () => (digest ??= skillDigest(bytes()));
}

const isExternal = (file: SkillFile): file is ExternalSkillFile =>
  isObject(file) && !(file instanceof Uint8Array) && typeof (file as ExternalSkillFile).read === "function";

/** Checks a `/`-separated path; returns its segments. */
function segmentsOf(path: string, what: string, fail: (message: string) => never): string[] {
  const segments = path.split("/");
  for (const segment of segments) {
    if (!SEGMENT.test(segment) || segment === "." || segment === "..") {
      fail(`${what} ${JSON.stringify(path)} must be "/"-separated segments of A-Z a-z 0-9 . _ ~ - (no empty, "." or ".." segments)`);
    }
  }
  return segments;
}

/** Problems of a parsed frontmatter against Agent Skills and what hosts check (SEP-2640 "Frontmatter"). */
function frontmatterProblems(frontmatter: Record<string, unknown>, name: string): string[] {
  const problems: string[] = [];
  const { name: declared, description, compatibility, metadata } = frontmatter;
  if (typeof declared !== "string") problems.push(`the frontmatter has no "name" (a string)`);
  else if (declared !== name) problems.push(`the frontmatter names the skill "${declared}", but it is declared as "${name}": they must be equal`);
  if (typeof description !== "string" || description === "") problems.push(`the frontmatter has no "description" (a non-empty string)`);
  else if ([...description].length > 1024) problems.push(`the frontmatter "description" is over 1024 characters`);
  if (compatibility !== undefined && (typeof compatibility !== "string" || compatibility === "" || [...compatibility].length > 500)) {
    problems.push(`the frontmatter "compatibility" must be a string of 1-500 characters`);
  }
  if (metadata !== undefined) {
    if (!isObject(metadata) || !Object.values(metadata).every((value) => typeof value === "string"))
      problems.push(`the frontmatter "metadata" must map strings to strings`);
    else {
      const reserved = Object.keys(metadata).filter((key) => key.startsWith(RESERVED_METADATA_PREFIX));
      if (reserved.length > 0)
        problems.push(`the frontmatter "metadata" uses ${reserved.join(", ")}: keys under "${RESERVED_METADATA_PREFIX}" are reserved for MCP extensions`);
    }
  }
  return problems;
}

function readSkillMarkdown(content: unknown, fail: (message: string) => never): string {
  if (typeof content === "string") return content;
  if (content instanceof Uint8Array) {
    try {
      return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(content);
    } catch {
      fail("is not valid UTF-8");
    }
  }
  return fail("must be text or UTF-8 bytes (its frontmatter is read when the skill is compiled)");
}

/**
 * Compiles a skill: checks its name, paths and SKILL.md frontmatter, and measures its files.
 * Throws a `DefinitionError` naming the skill, and the file when one is at fault.
 */
export function compileSkill(definition: SkillDefinition): Skill {
  const name = definition.name;
  const label = `skill ${typeof name === "string" ? name : JSON.stringify(name)}`;
  const fail = (message: string): never => {
    throw new DefinitionError(`${label}: ${message}`);
  };
  if (typeof name !== "string" || name.length > 64 || !SKILL_NAME.test(name))
    fail(`name must be 1-64 lowercase letters, digits and single hyphens (Agent Skills naming rules)`);
  if (definition.path !== undefined && typeof definition.path !== "string") fail(`path must be a string such as "acme/billing"`);
  const pathSegments = definition.path === undefined || definition.path === "" ? [] : segmentsOf(definition.path, "path", fail);
  const root = `skill://${[...pathSegments, name].join("/")}`;
  if (!isObject(definition.files)) fail(`files must be an object of path → content`);

  const paths = Object.keys(definition.files).sort((a, b) => (a === SKILL_MD ? -1 : b === SKILL_MD ? 1 : a < b ? -1 : a > b ? 1 : 0));
  if (paths[0] !== SKILL_MD) fail(`files has no ${SKILL_MD} (the file the skill is named by, with YAML frontmatter)`);
  for (const path of paths) {
    segmentsOf(path, "file path", (message) => fail(`file ${JSON.stringify(path)}: ${message}`));
    // A path cannot be a file and a folder at once ("a" and "a/b").
    const parent = paths.find((other) => path.startsWith(`${other}/`));
    if (parent !== undefined) fail(`file ${parent} is also the folder of ${path}`);
  }

  const files: ServedSkillFile[] = [];
  let frontmatter: Record<string, unknown> = {};
  for (const path of paths) {
    const fileFail = (message: string): never => fail(`file ${path}: ${message}`);
    const file = definition.files[path] as SkillFile;
    const uri = `${root}/${path}`;
    let compiled: ServedSkillFile;
    if (path === SKILL_MD) {
      if (isExternal(file)) fileFail(`cannot be external: its frontmatter is read when the skill is compiled`);
      const content = isObject(file) && !(file instanceof Uint8Array) ? (file as { content: unknown }).content : file;
      const text = readSkillMarkdown(content, fileFail);
      try {
        frontmatter = parseSkillMarkdown(text).frontmatter;
      } catch (error) {
        if (error instanceof FrontmatterError) fileFail(`frontmatter: ${error.message}`);
        throw error;
      }
      const problems = frontmatterProblems(frontmatter, name);
      if (problems.length > 0) fileFail(problems.join("; "));
      compiled = textFile(path, uri, text, mimeTypeOfFile(file, "text/markdown"), fileFail);
    } else if (isExternal(file)) {
      compiled = externalFile(label, path, uri, file, fileFail);
    } else {
      const content = isObject(file) && !(file instanceof Uint8Array) ? (file as { content: unknown }).content : file;
      if (typeof content === "string") compiled = textFile(path, uri, content, mimeTypeOfFile(file, mimeTypeOf(path, true)), fileFail);
      else if (content instanceof Uint8Array) {
        const bytes = content;
        compiled = {
          path,
          uri,
          mimeType: mimeTypeOfFile(file, mimeTypeOf(path, false)),
          size: bytes.byteLength,
          content: bytes,
          digest: memoDigest(() => bytes),
          read: () => bytes,
        };
      } else return fileFail(`content must be a string, a Uint8Array, {content, mimeType} or an external file {size, digest, read}`);
    }
    files.push(compiled);
  }
  // A skill brings the skills feature, and resources for its files.
  return needing({ name, uri: `${root}/${SKILL_MD}`, root, frontmatter, files }, [skillsFeature, resourcesFeature]);
}

function mimeTypeOfFile(file: SkillFile, fallback: string): string {
  const explicit = isObject(file) && !(file instanceof Uint8Array) ? (file as { mimeType?: unknown }).mimeType : undefined;
  return typeof explicit === "string" && explicit !== "" ? explicit : fallback;
}

function textFile(path: string, uri: string, text: string, mimeType: string, fail: (message: string) => never): ServedSkillFile {
  // A lone surrogate has no UTF-8 encoding of its own: the digest would cover U+FFFD instead.
  if (LONE_SURROGATE.test(text)) fail("contains a lone UTF-16 surrogate (not valid Unicode text)");
  return { path, uri, mimeType, size: utf8Length(text), content: text, digest: memoDigest(() => utf8(text)), read: () => text };
}

function externalFile(label: string, path: string, uri: string, file: ExternalSkillFile, fail: (message: string) => never): ServedSkillFile {
  if (!Number.isSafeInteger(file.size) || file.size < 0) fail(`size must be a non-negative integer`);
  if (typeof file.digest !== "string" || !DIGEST_PATTERN.test(file.digest)) fail(`digest must be "sha256:" and 64 lowercase hex digits`);
  const { size, digest } = file;
  const mimeType = typeof file.mimeType === "string" && file.mimeType !== "" ? file.mimeType : mimeTypeOf(path, true);
  return {
    path,
    uri,
    mimeType,
    size,
    digest: () => Promise.resolve(digest),
    async read(ctx) {
      const content = await file.read(ctx);
      const bytes = typeof content === "string" ? utf8(content) : content;
      // Never serve bytes the listing did not promise: a host would refuse them anyway (digest mismatch).
      if (!(bytes instanceof Uint8Array) || bytes.byteLength !== size || (await skillDigest(bytes)) !== digest) {
        console.error(`edge-mcp: ${label}: file ${path}: the bytes read do not match the published size and digest`);
        throw new ProtocolError(ErrorCode.InternalError, `${label}: file ${path} changed since the skill was listed; list the skills again`);
      }
      return content;
    },
  };
}

/**
 * Declares and compiles an Agent Skill: its name, paths and SKILL.md frontmatter are checked here,
 * at module load, and a `DefinitionError` names the skill and the file at fault. Sizes are
 * measured now, digests on the first skills request (once per isolate). Compiling here rather than
 * in `createServer` keeps the YAML reader out of Workers that serve no skills.
 *
 * @example
 * const tour = defineSkill({
 *   name: "notebook-tour",
 *   files: {
 *     "SKILL.md": "---\nname: notebook-tour\ndescription: Keep notes between calls.\n---\n# Notebook\nSee references/handles.md.\n",
 *     "references/handles.md": "# Handles\n...",
 *   },
 * });
 */
export function defineSkill(definition: SkillDefinition): Skill {
  return compileSkill(definition);
}
