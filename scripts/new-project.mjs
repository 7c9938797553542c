// `npm run new -- <directory> [--template NAME] [--name NAME]` in a checkout of edge-mcp: makes a project
// whose edge-mcp installs anywhere. The package is built with the few packages its build needs (not this
// repository's dev install), packed into the project as vendor/edge-mcp-<version>.tgz and depended on as
// file:vendor/…, so a teammate's or CI's `npm ci` finds it in the project itself.

import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError, checkName, parseOptions } from "../create-edge-mcp/lib/options.mjs";
import { ScaffoldError, scaffold } from "../create-edge-mcp/lib/scaffold.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** What `tsc -p tsconfig.build.json` reads beside the runtime dependencies: the compiler and the types of the optional peers. */
const BUILD_TOOLS = ["typescript", "@cloudflare/workers-types", "hono", "@cloudflare/workers-oauth-provider"];
const USAGE = "Usage: npm run new -- <directory> [--template basic|multi-tenant|auth|apps] [--name NAME]";
const npm = (args, cwd) => execFileSync("npm", args, { cwd, stdio: ["ignore", "pipe", "inherit"], shell: process.platform === "win32" }).toString();

/** Builds dist/ from src/ in a scratch directory that holds only what the build reads; the same output as `npm run build`. */
function buildDist(pkg) {
  const scratch = mkdtempSync(join(tmpdir(), "edge-mcp-build-"));
  try {
    const tools = Object.fromEntries(BUILD_TOOLS.map((name) => [name, pkg.devDependencies[name]]));
    writeFileSync(join(scratch, "package.json"), JSON.stringify({ private: true, type: "module", dependencies: { ...pkg.dependencies, ...tools } }));
    for (const file of ["src", "tsconfig.json", "tsconfig.build.json"]) cpSync(join(ROOT, file), join(scratch, file), { recursive: true });
    npm(["install", "--ignore-scripts", "--no-audit", "--no-fund", "--no-package-lock", "--prefer-offline"], scratch);
    execFileSync(process.execPath, [join(scratch, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: scratch, stdio: "inherit" });
    rmSync(join(ROOT, "dist"), { recursive: true, force: true });
    cpSync(join(scratch, "dist"), join(ROOT, "dist"), { recursive: true });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function main(argv) {
  const options = parseOptions(argv);
  if (options.help || options.directory === undefined) {
    process.stdout.write(`${USAGE}\n`);
    return options.help ? 0 : 2;
  }
  const target = resolve(process.env["INIT_CWD"] ?? process.cwd(), options.directory);
  const name = options.name ?? checkName(basename(target), "the directory's name (pass --name)");
  const template = options.template ?? "basic";
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const tarball = `edge-mcp-${pkg.version}.tgz`;
  buildDist(pkg);
  return scaffold({ template, name, target }).then((made) => {
    mkdirSync(join(target, "vendor"));
    npm(["pack", "--ignore-scripts", "--silent", "--pack-destination", join(target, "vendor")], ROOT);
    const projectFile = join(target, "package.json");
    const project = JSON.parse(readFileSync(projectFile, "utf8"));
    project.dependencies["edge-mcp"] = `file:vendor/${tarball}`;
    writeFileSync(projectFile, `${JSON.stringify(project, null, 2)}\n`);
    const shown = relative(process.env["INIT_CWD"] ?? process.cwd(), target) || ".";
    process.stdout.write(
      `Created ${name} from the ${template} template in ${shown}, with edge-mcp in vendor/${tarball} (commit it with the project).\n\nNext:\n` +
        `${shown === "." ? "" : `  cd ${shown}\n`}  npm install\n  npm run dev    # serves http://127.0.0.1:8787/mcp\n  npm test\n`,
    );
    if (made.devApiKey) process.stdout.write("\nA development API key is in .dev.vars (DEV_API_KEY, not committed); wrangler.toml holds only its SHA-256.\n");
    return 0;
  });
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError || error instanceof ScaffoldError)) throw error;
  process.stderr.write(`npm run new: ${error.message}\n\n${USAGE}\n`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
}
