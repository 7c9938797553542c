// `npm run new` in a checkout without its dev install: the project carries edge-mcp in vendor/ and
// installs from a copy of itself anywhere else (a teammate's clone, CI), offline, with `npm ci` from its lock.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "./run.ts";

const ROOT = join(import.meta.dirname, "../..");
const work = mkdtempSync(join(tmpdir(), "edge-mcp-portable-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What a fresh clone holds that the command reads: no node_modules, no dist. */
function freshCheckout(): string {
  const checkout = join(work, "edge-mcp");
  for (const entry of ["package.json", "README.md", "LICENSE", "bin", "cli", "src", "scripts", "create-edge-mcp", "tsconfig.json", "tsconfig.build.json"]) {
    cpSync(join(ROOT, entry), join(checkout, entry), { recursive: true, filter: (path) => !path.includes("node_modules") });
  }
  return checkout;
}

describe("a project made from a checkout", () => {
  it("vendors the packed edge-mcp, and a copy of the project installs it elsewhere", { timeout: 600_000 }, async () => {
    const checkout = freshCheckout();
    const version = (JSON.parse(readFileSync(join(checkout, "package.json"), "utf8")) as { version: string }).version;
    const made = await run("npm", ["run", "new", "--", "../my-server", "--template", "basic"], {
      cwd: checkout,
      env: { npm_config_offline: "true", INIT_CWD: checkout },
      timeoutMs: 300_000,
    });
    expect(made.stdout).toContain(`with edge-mcp in vendor/edge-mcp-${version}.tgz`);
    // The steps left are the project's own: no clone, no pack, no path back to the checkout.
    expect(made.stdout).toMatch(/Next:\n {2}cd \.\.\/my-server\n {2}npm install\n {2}npm run dev/);
    expect(made.stdout).not.toMatch(/git clone|npm pack/);
    expect(existsSync(join(checkout, "node_modules"))).toBe(false);

    const project = join(work, "my-server");
    const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(pkg.dependencies["edge-mcp"]).toBe(`file:vendor/edge-mcp-${version}.tgz`);
    await run("npm", ["install", "--offline", "--no-audit", "--no-fund"], { cwd: project, timeoutMs: 300_000 });

    // Elsewhere, without the checkout: the project and its lock, nothing else.
    rmSync(checkout, { recursive: true, force: true });
    const elsewhere = join(work, "teammate", "my-server");
    cpSync(project, elsewhere, { recursive: true, filter: (path) => !path.includes("node_modules") });
    await run("npm", ["ci", "--offline", "--no-audit", "--no-fund"], { cwd: elsewhere, timeoutMs: 300_000 });
    const installed = JSON.parse(readFileSync(join(elsewhere, "node_modules/edge-mcp/package.json"), "utf8")) as { version: string };
    expect(installed.version).toBe(version);
    expect(existsSync(join(elsewhere, "node_modules/edge-mcp/dist/index.js"))).toBe(true);
    await run("npx", ["tsc", "--noEmit"], { cwd: elsewhere, timeoutMs: 120_000 });
  });
});
