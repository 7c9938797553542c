#!/usr/bin/env node
// Fills the npm cache with what a project made by create-edge-mcp installs, so that the package test
// (test/package) can install each template with `npm install --offline`. It reaches the registry;
// `.ci/run` runs it after `npm ci`. Run it again after changing a template's dependencies.
//
// It installs, in a temporary directory, the dependencies of every template (except edge-mcp, which
// the test installs from its packed tarball) plus edge-mcp's own dependencies; then each template's
// alone, since one tree shares a dependency at one version where a template on its own may resolve
// a newer one (a range such as ^6.1.3 of two of its packages) that the shared tree left out.

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TEMPLATES = join(ROOT, "create-edge-mcp/templates");

const readJson = (path) => JSON.parse(readFileSync(path, "utf8"));
const root = readJson(join(ROOT, "package.json"));
const dependencies = { ...root.dependencies };
const devDependencies = {};
for (const template of readdirSync(TEMPLATES)) {
  const pkg = readJson(join(TEMPLATES, template, "package.json"));
  for (const [name, version] of Object.entries(pkg.dependencies ?? {})) if (name !== "edge-mcp") dependencies[name] = version;
  Object.assign(devDependencies, pkg.devDependencies ?? {});
}

// The package test measures the basic template with one schema in zod (test/package/zod-variant.ts).
dependencies["zod"] = root.devDependencies.zod;

/** Installs `dependencies` and `devDependencies` in a temporary project, filling the npm cache; true when it worked. */
function warm(label, dependencies, devDependencies) {
  const dir = mkdtempSync(join(tmpdir(), "edge-mcp-warm-"));
  try {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "warm", private: true, type: "module", dependencies, devDependencies }, null, 2));
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const result = spawnSync(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], {
      cwd: dir,
      stdio: "inherit",
    });
    if (result.status === 0) return true;
    console.error(`warm-npm-cache: npm install failed for ${label} (exit ${result.status})`);
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let ok = warm("every template", dependencies, devDependencies);
for (const template of readdirSync(TEMPLATES)) {
  const pkg = readJson(join(TEMPLATES, template, "package.json"));
  const own = { ...root.dependencies };
  for (const [name, version] of Object.entries(pkg.dependencies ?? {})) if (name !== "edge-mcp") own[name] = version;
  ok = warm(`the ${template} template`, own, pkg.devDependencies ?? {}) && ok;
}
if (ok) {
  const count = Object.keys(dependencies).length + Object.keys(devDependencies).length;
  console.log(`warm-npm-cache: the npm cache holds what the templates install (${count} direct dependencies)`);
} else {
  process.exitCode = 1;
}
