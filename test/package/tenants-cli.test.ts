// `edge-mcp tenants` from the built package (the setup's pack built dist/): checks before writing, and keeps
// tenants one per key in a local namespace through the project's wrangler.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
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
});
