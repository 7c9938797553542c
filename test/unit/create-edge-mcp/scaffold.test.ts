// create-edge-mcp's scaffold: the files of each template with the project's name, the pinned edge-mcp version and, for auth, a fresh API key.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ScaffoldError, edgeMcpVersion, scaffold } from "../../../create-edge-mcp/lib/scaffold.mjs";

const ROOT = new URL("../../../", import.meta.url);
const readJson = (url: URL | string) =>
  JSON.parse(readFileSync(url, "utf8")) as { version: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
const TEMPLATES = readdirSync(new URL("create-edge-mcp/templates/", ROOT));

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "create-edge-mcp-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? allFiles(join(dir, name)) : [join(dir, name)]));
}

describe("create-edge-mcp", () => {
  it("has exactly the five templates the README names", () => {
    expect(TEMPLATES.sort()).toEqual(["apps", "auth", "basic", "multi-tenant", "oauth"]);
  });

  it("is released with edge-mcp under the same version, which it pins", async () => {
    const version = readJson(new URL("package.json", ROOT)).version;
    expect(readJson(new URL("create-edge-mcp/package.json", ROOT)).version).toBe(version);
    expect(await edgeMcpVersion()).toBe(version);
  });

  it.each(TEMPLATES)("pins in %s the versions this repository uses, so installs come from the same npm cache", (template) => {
    const root = readJson(new URL("package.json", ROOT));
    const pkg = readJson(new URL(`create-edge-mcp/templates/${template}/package.json`, ROOT));
    const pinned = { ...root.dependencies, ...root.devDependencies };
    for (const [name, version] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })) {
      if (name === "edge-mcp") expect(version).toBe("{{edgeMcpVersion}}");
      else expect(`${name}@${version}`).toBe(`${name}@${pinned[name]}`);
    }
  });

  it.each(TEMPLATES)("makes the %s project with every placeholder filled and .gitignore under its real name", async (template) => {
    const target = join(tempDir(), "my-server");
    const { files } = await scaffold({ template, name: "my-server", target });
    expect(files.length).toBeGreaterThan(5);
    for (const file of allFiles(target)) expect(readFileSync(file, "utf8"), file).not.toMatch(/\{\{\w+\}\}/);
    const pkg = readJson(join(target, "package.json"));
    expect(pkg.dependencies?.["edge-mcp"]).toBe(readJson(new URL("package.json", ROOT)).version);
    expect(readFileSync(join(target, "wrangler.toml"), "utf8")).toMatch(/^name = "my-server"$/m);
    expect(readFileSync(join(target, ".gitignore"), "utf8")).toContain(".dev.vars");
    expect(allFiles(target).some((file) => file.endsWith("/gitignore"))).toBe(false);
  });

  it.each(TEMPLATES)("gives in %s the first test time to load the Worker, which takes more than vitest's 5 s on a busy machine", (template) => {
    const config = readFileSync(new URL(`create-edge-mcp/templates/${template}/vitest.config.ts`, ROOT), "utf8");
    const timeout = /testTimeout:\s*([\d_]+)/.exec(config)?.[1];
    expect(timeout, `${template}/vitest.config.ts sets no testTimeout`).toBeDefined();
    expect(Number(timeout!.replaceAll("_", ""))).toBeGreaterThanOrEqual(30_000);
  });

  it("gives each auth project its own API key in .dev.vars, and only the key's SHA-256 in wrangler.toml", async () => {
    const keys = [];
    for (const dir of [tempDir(), tempDir()]) {
      const { devApiKey } = await scaffold({ template: "auth", name: "secure", target: join(dir, "secure") });
      if (!devApiKey) throw new Error("no key");
      expect(devApiKey).toMatch(/^emk_[A-Za-z0-9_-]{43}$/);
      expect(readFileSync(join(dir, "secure/.dev.vars"), "utf8")).toContain(`DEV_API_KEY="${devApiKey}"`);
      const wrangler = readFileSync(join(dir, "secure/wrangler.toml"), "utf8");
      expect(wrangler).toContain(createHash("sha256").update(devApiKey).digest("hex"));
      expect(wrangler).not.toContain(devApiKey);
      keys.push(devApiKey);
    }
    expect(keys[0]).not.toBe(keys[1]);
  });

  it("makes no key for templates without auth", async () => {
    const target = join(tempDir(), "plain");
    expect((await scaffold({ template: "basic", name: "plain", target })).devApiKey).toBeUndefined();
    expect(readdirSync(target)).not.toContain(".dev.vars");
  });

  it("refuses a directory that is not empty, and writes nothing into it", async () => {
    const target = tempDir();
    writeFileSync(join(target, "notes.txt"), "mine");
    await expect(scaffold({ template: "basic", name: "x", target })).rejects.toThrow(ScaffoldError);
    expect(readdirSync(target)).toEqual(["notes.txt"]);
  });

  it("refuses a template that does not exist", async () => {
    await expect(scaffold({ template: "nope", name: "x", target: join(tempDir(), "x") })).rejects.toThrow(/no template/);
  });
});
