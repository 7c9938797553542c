#!/usr/bin/env node
// `npm run build:sandbox`: writes the sandbox modules code mode ships as text, from the real modules they are written in
// (linted, formatted and type-checked like the rest): src/server/code-mode/sandbox/allocation-budget.js with the
// wrappers it imports, bundled by esbuild into the one module `allocation-budget.js` of a sandbox, and
// src/workers/code-mode/sandbox/harness.js as it is. The text goes into TypeScript modules, so the published dist/ needs no
// bundler rule for text. `--check` writes nothing and exits 1 when a written file differs from what it would write
// (test/unit/server/code-mode/sandbox-modules.test.ts runs it).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** A string as a template literal's source. */
const template = (/** @type {string} */ text) => "`" + text.replaceAll("\\", "\\\\").replaceAll("`", "\\`").replaceAll("${", "\\${") + "`";

/** Each generated module: its path, and its source from the sandbox's text. */
async function sandboxModules() {
  const budgetSource = "src/server/code-mode/sandbox/allocation-budget.js";
  const bundled = await build({
    entryPoints: [join(ROOT, budgetSource)],
    bundle: true,
    format: "esm",
    target: "es2022",
    write: false,
    legalComments: "none",
    logLevel: "silent",
  });
  const budget = (bundled.outputFiles[0]?.text ?? "").replace(/^\/\/ .*\n/gm, "");
  const harnessSource = "src/workers/code-mode/sandbox/harness.js";
  const harness = readFileSync(join(ROOT, harnessSource), "utf8");
  const header = (/** @type {string} */ sources) =>
    `// Written by \`npm run build:sandbox\` from ${sources}: edit those, then run it\n` +
    "// (test/unit/server/code-mode/sandbox-modules.test.ts fails while this file and they disagree).\n";
  return [
    {
      path: "src/server/code-mode/allocation-budget.ts",
      source:
        header("sandbox/allocation-budget.js and the wrappers it imports") +
        "/** Code mode's allocation budget: the sandbox module that wraps the built-ins whose one call allocates in proportion to an argument. */\n\n" +
        "/** The module's name in a sandbox; its one export is `installAllocationBudget(maxBytes)`. */\n" +
        'export const ALLOCATION_BUDGET_FILE = "allocation-budget.js";\n\n' +
        "/** The source of the sandbox module `allocation-budget.js` (see sandbox/allocation-budget.js). */\n" +
        `export const ALLOCATION_BUDGET_MODULE = ${template(budget)};\n`,
    },
    {
      path: "src/workers/code-mode/harness-module.ts",
      source:
        header("sandbox/harness.js") +
        "/** The Dynamic Worker's entry module of a code-mode sandbox, as text (see sandbox/harness.js). */\n\n" +
        "/** The source of the sandbox module `harness.js`. */\n" +
        `export const HARNESS_MODULE = ${template(harness)};\n`,
    },
  ];
}

/**
 * The generated modules that differ from what `sandboxModules` makes; `write`: writes them too.
 * @param {boolean} write
 * @returns {Promise<string[]>}
 */
export async function buildSandbox(write) {
  const stale = [];
  for (const { path, source } of await sandboxModules()) {
    const file = join(ROOT, path);
    let current;
    try {
      current = readFileSync(file, "utf8");
    } catch {
      current = undefined;
    }
    if (current === source) continue;
    stale.push(relative(ROOT, file));
    if (write) writeFileSync(file, source);
  }
  return stale;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check");
  const stale = await buildSandbox(!check);
  if (check && stale.length > 0) {
    console.error(`build-sandbox: out of date: ${stale.join(", ")}; run npm run build:sandbox`);
    process.exitCode = 1;
  } else if (!check) console.log(stale.length === 0 ? "build-sandbox: up to date" : `build-sandbox: wrote ${stale.join(", ")}`);
}
