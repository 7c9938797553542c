// The packed packages, as npm would publish them: publint and Are the Types Wrong report nothing,
// users get what they need and nothing of the repository's own, and the root entry stays platform-free.
import { mkdtempSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { run } from "./run.ts";

const BIN = fileURLToPath(new URL("../../node_modules/.bin/", import.meta.url));

/** The file names in a tarball, without npm's `package/` prefix. */
async function filesOf(tarball: string): Promise<string[]> {
  const { stdout } = await run("tar", ["-tzf", tarball], { cwd: inject("packDir") });
  return stdout
    .split("\n")
    .filter(Boolean)
    .map((name) => name.replace(/^package\//, ""));
}

/**
 * The modules a JavaScript file imports (static, re-exports and dynamic), read by TypeScript's scanner:
 * module text held in a string (code mode's sandbox harness) is not an import.
 */
function importsOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles.map((imported) => imported.fileName);
}

describe("the edge-mcp tarball", () => {
  const tarball = inject("edgeMcpTarball");
  let unpacked: string;
  let files: string[];

  beforeAll(async () => {
    files = await filesOf(tarball);
    unpacked = mkdtempSync(join(inject("packDir"), "unpacked-"));
    await run("tar", ["-xzf", tarball, "-C", unpacked, "--strip-components=1"], { cwd: inject("packDir") });
  });

  it("passes publint with nothing to report", async () => {
    const { stdout } = await run(join(BIN, "publint"), ["run", tarball, "--strict"], { cwd: inject("packDir") });
    expect(stdout).toContain("All good!");
  });

  it("passes Are the Types Wrong for ESM consumers (node16 and bundler resolution), offline", async () => {
    // esm-only: the package is ESM only, as Workers are, so `require` and node10 resolution are not checked.
    await run(join(BIN, "attw"), [tarball, "--profile", "esm-only", "--no-definitely-typed", "--no-emoji", "--no-color"], { cwd: inject("packDir") });
  });

  it("holds JavaScript and declarations for the four entries, the edge-mcp command, README and LICENSE", () => {
    for (const file of [
      "dist/index.js",
      "dist/index.d.ts",
      "dist/workers/index.js",
      "dist/workers/index.d.ts",
      "dist/host.js",
      "dist/host.d.ts",
      "dist/json-schema.js",
      "dist/json-schema.d.ts",
      "bin/edge-mcp.mjs",
      "cli/main.mjs",
      "README.md",
      "LICENSE",
      "package.json",
    ]) {
      expect(files).toContain(file);
    }
  });

  it("leaves out the sources, tests, examples and the scaffold", () => {
    expect(files.filter((file) => /^(src|test|examples|create-edge-mcp|scripts)\//.test(file) || (file.endsWith(".ts") && !file.endsWith(".d.ts")))).toEqual(
      [],
    );
  });

  it("maps each export to types and import files that are in the tarball", () => {
    const pkg = JSON.parse(readFileSync(join(unpacked, "package.json"), "utf8")) as {
      private?: boolean;
      exports: Record<string, string | { types: string; import: string }>;
    };
    expect(pkg.private).toBeUndefined();
    for (const entry of [".", "./workers", "./host", "./json-schema", "./hono", "./oauth"]) {
      const target = pkg.exports[entry];
      if (typeof target !== "object") throw new Error(`exports["${entry}"] has no conditions`);
      expect(files).toContain(target.types.replace(/^\.\//, ""));
      expect(files).toContain(target.import.replace(/^\.\//, ""));
    }
  });

  it("has root, host and json-schema entries that reach no cloudflare:* import, however deep", () => {
    const seen = new Set<string>();
    const platform: string[] = [];
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const spec of importsOf(file)) {
        if (spec.startsWith("cloudflare:")) platform.push(`${file.slice(unpacked.length + 1)} → ${spec}`);
        else if (spec.startsWith(".")) visit(resolve(dirname(file), spec));
      }
    };
    visit(join(unpacked, "dist/index.js"));
    visit(join(unpacked, "dist/host.js"));
    visit(join(unpacked, "dist/json-schema.js"));
    expect(seen.size).toBeGreaterThan(20);
    expect(platform).toEqual([]);
  });

  it("has no entry but edge-mcp/hono and edge-mcp/oauth that imports hono (an optional peer dependency), however deep", () => {
    const seen = new Set<string>();
    const honoImports: string[] = [];
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const spec of importsOf(file)) {
        if (spec === "hono" || spec.startsWith("hono/")) honoImports.push(`${file.slice(unpacked.length + 1)} → ${spec}`);
        else if (spec.startsWith(".")) visit(resolve(dirname(file), spec));
      }
    };
    for (const entry of ["dist/index.js", "dist/workers/index.js", "dist/host.js", "dist/json-schema.js"]) visit(join(unpacked, entry));
    expect(seen.size).toBeGreaterThan(20);
    expect(honoImports).toEqual([]);
    visit(join(unpacked, "dist/hono/index.js"));
    expect(honoImports.length).toBeGreaterThan(0);
  });

  it("has no entry but edge-mcp/oauth that imports @cloudflare/workers-oauth-provider (an optional peer dependency), however deep", () => {
    const seen = new Set<string>();
    const providerImports: string[] = [];
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const spec of importsOf(file)) {
        if (spec === "@cloudflare/workers-oauth-provider") providerImports.push(`${file.slice(unpacked.length + 1)} → ${spec}`);
        else if (spec.startsWith(".")) visit(resolve(dirname(file), spec));
      }
    };
    for (const entry of ["dist/index.js", "dist/workers/index.js", "dist/host.js", "dist/json-schema.js", "dist/hono/index.js"]) visit(join(unpacked, entry));
    expect(providerImports).toEqual([]);
    visit(join(unpacked, "dist/oauth/index.js"));
    expect(providerImports.length).toBeGreaterThan(0);
  });
});

describe("the create-edge-mcp tarball", () => {
  it("holds its command and every template, with gitignore kept under a name npm publishes", async () => {
    const files = await filesOf(inject("createTarball"));
    expect(files).toContain("bin/create-edge-mcp.mjs");
    for (const template of ["basic", "multi-tenant", "auth"]) {
      for (const file of ["package.json", "wrangler.toml", "tsconfig.json", "vitest.config.ts", "README.md", "gitignore", "src/index.ts"])
        expect(files).toContain(`templates/${template}/${file}`);
    }
  });
});
