// `edge-mcp tenants` from the built package (the setup's pack built dist/): checks before writing, and keeps
// tenants one per key in a local namespace through the project's wrangler.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { startWranglerDev } from "../e2e/wrangler-dev.ts";
import { run } from "./run.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CONFIG = join(ROOT, "test/bench/tenants/wrangler.toml");
const dir = mkdtempSync(join(tmpdir(), "edge-mcp-tenants-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tenants = (file: string, value: unknown) => {
  const path = join(dir, file);
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  return path;
};
const cli = (...args: string[]) =>
  run(process.execPath, [join(ROOT, "bin/edge-mcp.mjs"), "tenants", ...args], { cwd: ROOT, allowFailure: true, timeoutMs: 60_000 });
const local = ["--local", "--persist-to", join(dir, "state"), "--config", CONFIG];
const FIXTURE = "test/package/fixtures/keyed-tenants/wrangler.toml";
const ADMIN_TOKEN = "fixture-admin-token";

/** A tools/call of hello at the Host given (plain http: fetch cannot set Host). */
async function hello(base: string, host: string): Promise<{ status: number; text: string }> {
  const { request } = await import("node:http");
  const url = new URL(`${base}/mcp`);
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "hello", arguments: {} } });
  return new Promise((resolve, reject) => {
    const headers = { host, "content-type": "application/json", accept: "application/json, text/event-stream" };
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const acme = { id: "acme", hosts: ["mcp.acme.test"], modules: [{ name: "greetings" }] };
const globex = { id: "globex", pathPrefix: "/t/globex", modules: [{ name: "greetings" }] };

describe("edge-mcp tenants", () => {
  it("validate exits 0 for a good document and 1 naming each bad tenant and field", async () => {
    const good = await cli("validate", tenants("good.json", { tenants: [acme, globex] }));
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/2 tenants, all valid/);
    const bad = await cli(
      "validate",
      tenants("bad.json", {
        tenants: [
          { ...acme, limitz: {} },
          { ...globex, id: "Globex!" },
          { id: "dup", hosts: ["mcp.acme.test"], modules: [] },
        ],
      }),
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/tenant acme: limitz is not a known field; did you mean limits\?/);
    expect(bad.stderr).toMatch(/tenant Globex!: id must be/);
    expect((await cli("validate", tenants("junk.json", "{"))).stderr).toMatch(/is not valid JSON/);
    expect((await cli("frobnicate")).code).toBe(2);
  });

  it("writes nothing when one tenant is wrong, then imports, reads, compares and deletes tenants in a local namespace", async () => {
    const refused = await cli("import", tenants("one-bad.json", { tenants: [acme, { ...globex, pathPrefix: "/a/b/c/d/e" }] }), ...local);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/tenant globex: pathPrefix has 5 segments[\s\S]*nothing was written/);
    expect((await cli("list", ...local)).stdout.trim()).toBe("");

    expect((await cli("import", tenants("good.json", { tenants: [acme, globex] }), ...local)).code).toBe(0);
    expect(JSON.parse((await cli("get", "acme", ...local)).stdout)).toEqual(acme);
    const diff = await cli(
      "diff",
      tenants("next.json", { tenants: [acme, { ...globex, server: { name: "g" } }, { ...acme, id: "initech", hosts: ["i.test"] }] }),
      ...local,
    );
    expect(diff.stdout.split("\n").filter(Boolean).sort()).toEqual(["changed globex", "new initech", "same acme"]);
    expect((await cli("delete", "globex", ...local)).code).toBe(0);
    expect((await cli("list", ...local)).stdout.trim()).toBe("acme");
    expect((await cli("get", "globex", ...local)).code).toBe(1);
  }, 240_000);

  it("changes made against a running wrangler dev are in force after the bound: through KV after ttlMs, through the admin API at once", async () => {
    const state = join(dir, "dev-state");
    const dev = await startWranglerDev({ name: "keyed tenants", configPath: FIXTURE, args: ["--persist-to", state] });
    try {
      const kvOnly = ["--local", "--persist-to", state, "--config", FIXTURE];
      const viaApi = ["--url", dev.baseUrl];
      const withToken = { MCP_ADMIN_TOKEN: ADMIN_TOKEN };
      expect((await hello(dev.baseUrl, "kv.test")).status).toBe(404);
      // KV only: in force once the miss the isolate remembers (missTtlMs 500) is past.
      expect((await cli("put", tenants("kv.json", { id: "kv", hosts: ["kv.test"], modules: [{ name: "greetings" }] }), ...kvOnly)).code).toBe(0);
      await sleep(600);
      expect((await hello(dev.baseUrl, "kv.test")).text).toMatch(/hi from kv/);
      // An edit through KV: in force after ttlMs (1 s).
      expect((await cli("put", tenants("kv2.json", { id: "kv", hosts: ["kv.test"], modules: [{ name: "greetings", prefix: "g" }] }), ...kvOnly)).code).toBe(0);
      await sleep(1100);
      expect((await hello(dev.baseUrl, "kv.test")).text).toMatch(/Unknown tool|hello/);
      expect((await hello(dev.baseUrl, "kv.test")).text).not.toMatch(/hi from kv/);

      // Through the admin API: the next request already has the change.
      const put = await run(
        process.execPath,
        [
          join(ROOT, "bin/edge-mcp.mjs"),
          "tenants",
          "put",
          tenants("api.json", { id: "api", hosts: ["api.test"], modules: [{ name: "greetings" }] }),
          ...viaApi,
        ],
        {
          cwd: ROOT,
          allowFailure: true,
          env: withToken,
        },
      );
      expect(put.stdout + put.stderr).toMatch(/wrote 1 tenant/);
      expect((await hello(dev.baseUrl, "api.test")).text).toMatch(/hi from api/);
      const disable = await run(process.execPath, [join(ROOT, "bin/edge-mcp.mjs"), "tenants", "disable", "api", ...viaApi], {
        cwd: ROOT,
        allowFailure: true,
        env: withToken,
      });
      expect(disable.code).toBe(0);
      expect((await hello(dev.baseUrl, "api.test")).status).toBe(404);
      // A tenant's secret: the value goes in on standard input, and no command shows it again.
      const secrets = (input: string | undefined, ...args: string[]) =>
        run(process.execPath, [join(ROOT, "bin/edge-mcp.mjs"), "tenants", "secrets", ...args, ...viaApi], {
          cwd: ROOT,
          allowFailure: true,
          env: withToken,
          ...(input === undefined ? {} : { input }),
        });
      const sealed = await secrets("upstream-s3cret\n", "put", "api", "upstream");
      expect(sealed.stdout, sealed.stderr).toMatch(/sealed upstream for tenant api under key fixture/);
      const listed = await secrets(undefined, "list", "api");
      expect(listed.stdout).toMatch(/^upstream\tkey fixture\t\d{4}-/);
      expect(listed.stdout + listed.stderr).not.toContain("upstream-s3cret");
      expect((await secrets("", "put", "api", "empty")).stderr).toMatch(/standard input, and it was empty/);
      expect((await secrets(undefined, "rotate", "api")).stdout).toMatch(/re-sealed 0 secrets of tenant api under key fixture/);
      expect((await secrets(undefined, "delete", "api", "upstream")).stdout).toMatch(/deleted upstream of tenant api/);
      expect((await secrets(undefined, "delete", "api", "upstream")).stderr).toMatch(/404 tenant api has no secret upstream/);
      // Without the token the API refuses, and says why.
      const refused = await cli("list", ...viaApi);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/MCP_ADMIN_TOKEN/);
    } finally {
      await dev.stop();
    }
  }, 240_000);
});
