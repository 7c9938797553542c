// Copies a template into a new directory and fills in the project's name, the edge-mcp version and, for auth, a development API key.

import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

const TEMPLATES_DIR = new URL("../templates/", import.meta.url);
// npm leaves `.gitignore` out of published packages, so templates keep it as `gitignore`.
const RENAMED = new Map([["gitignore", ".gitignore"]]);

/** The project could not be made (the directory is in the way, or a template is broken). */
export class ScaffoldError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "ScaffoldError";
  }
}

/**
 * The edge-mcp version this create-edge-mcp was released with: the two packages are released
 * together under the same version, and a project starts pinned to it.
 * @returns {Promise<string>}
 */
export async function edgeMcpVersion() {
  const pkg = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8"));
  return pkg.version;
}

/**
 * @typedef {object} ScaffoldOptions
 * @property {string} template a name of TEMPLATES
 * @property {string} name the Worker's and the package's name (already checked)
 * @property {string} target absolute path of the new project; missing or empty
 */

/**
 * Makes the project. Every `{{name}}`, `{{edgeMcpVersion}}` and `{{devApiKeySha256}}` in the
 * template's files is replaced; a template that needs a development API key gets a fresh one in
 * `.dev.vars`.
 * @param {ScaffoldOptions} options
 * @returns {Promise<{ files: string[], devApiKey: string | undefined }>}
 */
export async function scaffold({ template, name, target }) {
  const entries = await readdir(target).catch((/** @type {NodeJS.ErrnoException} */ error) => {
    if (error.code === "ENOENT") return [];
    throw new ScaffoldError(`cannot use ${target}: ${error.message}`);
  });
  if (entries.length > 0) throw new ScaffoldError(`${target} is not empty: choose a new directory`);

  const source = new URL(`${template}/`, TEMPLATES_DIR);
  const files = await listFiles(source);
  const needsKey = await anyContains(source, files, "{{devApiKeySha256}}");
  const devApiKey = needsKey ? `emk_${randomBytes(32).toString("base64url")}` : undefined;
  /** @type {Record<string, string>} */
  const values = { name, edgeMcpVersion: await edgeMcpVersion() };
  if (devApiKey) values["devApiKeySha256"] = createHash("sha256").update(devApiKey).digest("hex");

  const written = [];
  for (const file of files) {
    const text = await readFile(new URL(file, source), "utf8");
    const filled = text.replace(/\{\{(\w+)\}\}/g, (token, key) => {
      const value = values[key];
      if (value === undefined) throw new ScaffoldError(`template ${template}: ${file} has an unknown placeholder ${token}`);
      return value;
    });
    const parts = file.split("/");
    const last = /** @type {string} */ (parts.pop());
    const out = join(target, ...parts, RENAMED.get(last) ?? last);
    await mkdir(join(target, ...parts), { recursive: true });
    await writeFile(out, filled);
    written.push(out);
  }
  if (devApiKey) {
    const devVars = join(target, ".dev.vars");
    await writeFile(
      devVars,
      `# Local development only (git-ignored, never deployed). Clients send: Authorization: Bearer <DEV_API_KEY>\nDEV_API_KEY="${devApiKey}"\n`,
    );
    written.push(devVars);
  }
  return { files: written, devApiKey };
}

/**
 * The template's files, as paths relative to it with `/` separators.
 * @param {URL} dir
 * @returns {Promise<string[]>}
 */
async function listFiles(dir, prefix = "") {
  const entries = await readdir(new URL(prefix, dir), { withFileTypes: true }).catch(() => {
    throw new ScaffoldError(`no template at ${dir.pathname}`);
  });
  const files = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isDirectory()) files.push(...(await listFiles(dir, `${prefix}${entry.name}/`)));
    else files.push(`${prefix}${entry.name}`);
  }
  return files;
}

/**
 * @param {URL} dir
 * @param {string[]} files
 * @param {string} text
 */
async function anyContains(dir, files, text) {
  for (const file of files) if ((await readFile(new URL(file, dir), "utf8")).includes(text)) return true;
  return false;
}
