// create-edge-mcp asks the registry for the edge-mcp version it pins, and prints how to install it from a
// checkout when the registry does not have it. The registry here is a local stand-in on 127.0.0.1.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkoutSteps, registryHas } from "../../../create-edge-mcp/lib/registry.mjs";

const BIN = fileURLToPath(new URL("../../../create-edge-mcp/bin/create-edge-mcp.mjs", import.meta.url));
const VERSION = (JSON.parse(readFileSync(new URL("../../../create-edge-mcp/package.json", import.meta.url), "utf8")) as { version: string }).version;

/** Which packages the stand-in registry knows; any other name gets 404, "slow" never answers. */
const published = new Set<string>();
let registry: Server;
let registryUrl: string;
const dirs: string[] = [];

beforeAll(async () => {
  registry = createServer((request, response) => {
    const name = decodeURIComponent((request.url ?? "/").slice(1));
    if (name === "slow") return; // left hanging until the server closes
    if (!published.has(name)) {
      response.writeHead(404, { "content-type": "application/json" }).end('{"error":"Not found"}');
      return;
    }
    const manifest = { name, version: VERSION, dist: { tarball: `${registryUrl}${name}/-/${name}-${VERSION}.tgz`, shasum: "0".repeat(40) } };
    response
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ name, "dist-tags": { latest: VERSION }, versions: { [VERSION]: manifest }, time: {} }));
  });
  await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
  registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  registry.closeAllConnections();
  await new Promise((resolve) => registry.close(resolve));
});

afterEach(() => {
  published.clear();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The environment of an npm that asks only the stand-in registry, with a cache of its own. */
function npmEnv(): NodeJS.ProcessEnv {
  const cache = mkdtempSync(join(tmpdir(), "create-edge-mcp-cache-"));
  dirs.push(cache);
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.toLowerCase().startsWith("npm_")) env[key] = value;
  return { ...env, npm_config_registry: registryUrl, npm_config_cache: cache, npm_config_update_notifier: "false" };
}

/** Runs create-edge-mcp in a new directory with that npm; resolves with its output. */
function create(env: NodeJS.ProcessEnv): Promise<{ cwd: string; code: number | null; stdout: string }> {
  const cwd = mkdtempSync(join(tmpdir(), "create-edge-mcp-registry-"));
  dirs.push(cwd);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "my-server", "--template", "basic"], { cwd, env, stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("close", (code) => resolve({ cwd, code, stdout }));
  });
}

describe("registryHas", () => {
  it("says published when the registry has the version, missing on a 404", async () => {
    published.add("edge-mcp");
    expect(await registryHas("edge-mcp", VERSION, { env: npmEnv() })).toBe("published");
    expect(await registryHas("edge-mcp", "99.0.0", { env: npmEnv() })).not.toBe("published");
    expect(await registryHas("not-there", VERSION, { env: npmEnv() })).toBe("missing");
  }, 30_000);

  it("says unknown without asking when npm runs offline, and when the registry does not answer in time", async () => {
    published.add("edge-mcp");
    expect(await registryHas("edge-mcp", VERSION, { env: { ...npmEnv(), npm_config_offline: "true" } })).toBe("unknown");
    const started = Date.now();
    expect(await registryHas("slow", VERSION, { env: npmEnv(), timeoutMs: 1500 })).toBe("unknown");
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);
});

describe("create-edge-mcp's next steps", () => {
  it("tell how to install edge-mcp from a checkout when the registry lacks it", async () => {
    const { cwd, code, stdout } = await create(npmEnv());
    expect(code).toBe(0);
    expect(stdout).toContain(`edge-mcp@${VERSION} is not on the npm registry`);
    expect(stdout).toContain("git clone https://github.com/edge-mcp/edge-mcp.git");
    expect(stdout).toContain("npm pack");
    expect(stdout).toContain(`npm install ${join(cwd, "edge-mcp", `edge-mcp-${VERSION}.tgz`)}`);
    // No plain `npm install` step, which would fail on edge-mcp itself.
    expect(stdout).not.toMatch(/^ {2}npm install$/m);
  }, 30_000);

  it("leave out the clone and the pack when the packed checkout is beside the project already", () => {
    const here = mkdtempSync(join(tmpdir(), "create-edge-mcp-packed-"));
    dirs.push(here);
    expect(checkoutSteps(VERSION, "my-server", here)).toContain("git clone");
    mkdirSync(join(here, "edge-mcp"));
    writeFileSync(join(here, "edge-mcp", `edge-mcp-${VERSION}.tgz`), "");
    const steps = checkoutSteps(VERSION, "my-server", here);
    expect(steps).not.toMatch(/git clone|npm pack/);
    expect(steps).toBe(
      [
        `  cd my-server`,
        `  npm install ${join(here, "edge-mcp", `edge-mcp-${VERSION}.tgz`)}   # the project's dependencies, with edge-mcp from the tarball`,
        "  npm run dev    # serves http://127.0.0.1:8787/mcp",
        "  npm test",
      ].join("\n"),
    );
  });

  it("are the plain ones when the registry has it", async () => {
    published.add("edge-mcp");
    const { code, stdout } = await create(npmEnv());
    expect(code).toBe(0);
    expect(stdout).toMatch(/cd my-server\n {2}npm install\n {2}npm run dev/);
    expect(stdout).not.toContain("checkout");
  }, 30_000);
});
