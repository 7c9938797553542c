// The create-edge-mcp command: flags, what it asks (nothing without a terminal), and its exit codes.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { UsageError, parseOptions } from "../../../create-edge-mcp/lib/options.mjs";

const BIN = fileURLToPath(new URL("../../../create-edge-mcp/bin/create-edge-mcp.mjs", import.meta.url));

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Runs the command in a new directory, stdin not a terminal (as in CI). */
function create(...args: string[]) {
  const cwd = mkdtempSync(join(tmpdir(), "create-edge-mcp-cli-"));
  dirs.push(cwd);
  // Offline: create-edge-mcp then asks no registry whether edge-mcp is published (see registry.test.ts).
  const env = { ...process.env, npm_config_offline: "true" };
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 30_000 });
  return { cwd, code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("parseOptions", () => {
  it("reads the directory, --template and --name, also written with =", () => {
    expect(parseOptions(["srv", "--template", "auth", "--name=my-srv"])).toEqual({ directory: "srv", template: "auth", name: "my-srv", help: false });
    expect(parseOptions(["-t", "multi-tenant"])).toMatchObject({ directory: undefined, template: "multi-tenant" });
  });

  it.each([
    [["--template", "fancy"], /unknown template "fancy"; choose basic, multi-tenant, auth, apps, oauth/],
    [["--template"], /--template needs a value/],
    [["--name", "My Server"], /--name "My Server" is not a usable name/],
    [["--name", "a--b"], /not a usable name/],
    [["--name", "x".repeat(51)], /not a usable name/],
    [["--force"], /unknown option --force/],
    [["one", "two"], /one directory only/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseOptions(argv)).toThrow(UsageError);
    expect(() => parseOptions(argv)).toThrow(message);
  });
});

describe("create-edge-mcp", () => {
  it("asks nothing when given the directory and the template, and says what to run next", () => {
    const { cwd, code, stdout } = create("my-server", "--template", "auth");
    expect(code).toBe(0);
    expect(stdout).toContain("Created my-server from the auth template in my-server");
    // Without a registry to ask (tests run offline), the steps install edge-mcp from a checkout.
    expect(stdout).toMatch(/cd my-server\n {2}npm install \S+edge-mcp-[\d.]+\.tgz .*\n {2}npm run dev/);
    expect(JSON.parse(readFileSync(join(cwd, "my-server/package.json"), "utf8"))).toMatchObject({ name: "my-server" });
  });

  it("names the project after --name when given, else after the directory", () => {
    const named = create("dir", "--template", "basic", "--name", "custom-name");
    expect(readFileSync(join(named.cwd, "dir/wrangler.toml"), "utf8")).toContain('name = "custom-name"');
    const unnamed = create("from-dir", "--template", "basic");
    expect(readFileSync(join(unnamed.cwd, "from-dir/wrangler.toml"), "utf8")).toContain('name = "from-dir"');
  });

  it("takes the basic template when none is given and there is no terminal to ask on", () => {
    const { cwd, code } = create("plain");
    expect(code).toBe(0);
    expect(readFileSync(join(cwd, "plain/src/tools.ts"), "utf8")).toContain('name: "greet"');
  });

  it("exits 2 with the usage for a bad command line, and writes nothing", () => {
    const { cwd, code, stderr } = create("srv", "--template", "fancy");
    expect(code).toBe(2);
    expect(stderr).toContain('unknown template "fancy"');
    expect(stderr).toContain("Usage:");
    expect(existsSync(join(cwd, "srv"))).toBe(false);
  });

  it("exits 2 when the directory's name is no usable name and --name is missing", () => {
    const { code, stderr } = create("My Server", "--template", "basic");
    expect(code).toBe(2);
    expect(stderr).toContain("pass --name");
  });

  it("exits 2 without a directory when there is no terminal to ask on", () => {
    const { code, stderr } = create("--template", "basic");
    expect(code).toBe(2);
    expect(stderr).toContain("give the directory");
  });

  it("exits 1 when the directory is not empty", () => {
    const first = create("taken", "--template", "basic");
    const again = spawnSync(process.execPath, [BIN, "taken", "--template", "basic"], {
      cwd: first.cwd,
      env: { ...process.env, npm_config_offline: "true" },
      encoding: "utf8",
    });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("is not empty");
  });

  it("prints the usage for --help and exits 0", () => {
    const { code, stdout } = create("--help");
    expect(code).toBe(0);
    expect(stdout).toContain("--template NAME");
  });
});
