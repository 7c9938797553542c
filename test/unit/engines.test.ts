// Which Node the repository needs, as package.json and package-lock.json say: the package and its runtime
// dependencies run on Node 20.3 (what wrangler 4.86 needs); only the workers test runtime asks for Node 22.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../../", import.meta.url);
const readJson = (path: string) => JSON.parse(readFileSync(new URL(path, ROOT), "utf8")) as Record<string, unknown>;

interface LockEntry {
  version?: string;
  dev?: boolean;
  engines?: { node?: string };
}

const lock = readJson("package-lock.json") as { packages: Record<string, LockEntry> };
const NODE_22 = /^>=\s*2[2-9]/;

describe("engines", () => {
  it("says Node 20.3 or later for edge-mcp and create-edge-mcp, as the pinned wrangler does", () => {
    const root = readJson("package.json") as { engines: { node: string } };
    expect(root.engines.node).toBe(">=20.3");
    expect((readJson("create-edge-mcp/package.json") as { engines: { node: string } }).engines.node).toBe(root.engines.node);
    expect(lock.packages["node_modules/wrangler"]?.engines?.node).toBe(">=20.3.0");
  });

  it("has no package outside the workers test runtime that needs Node 22 (npm ci's EBADENGINE warnings on Node 20 come from these only)", () => {
    const needs22 = Object.entries(lock.packages)
      .filter(([, entry]) => NODE_22.test(entry.engines?.node ?? ""))
      .map(([path, entry]) => `${path.replace(/^node_modules\//, "")}@${entry.version}${entry.dev ? " (dev)" : ""}`)
      .sort();
    // @cloudflare/vitest-plugin 1.5.0 (pinned) depends on miniflare 5 and wrangler 4.156, which declare Node 22;
    // no miniflare 5 supports Node 20, and the plugin needs miniflare 5's API. puppeteer-core 25 (the
    // browser tests' driver of Debian's chromium) declares Node 22 too. The tests run on Node 20.
    expect(needs22).toEqual([
      "@cloudflare/vitest-plugin/node_modules/@cloudflare/kv-asset-handler@0.5.0 (dev)",
      "@cloudflare/vitest-plugin/node_modules/wrangler@4.156.2 (dev)",
      "@puppeteer/browsers@3.2.6 (dev)",
      "miniflare@5.20261102.0-beta (dev)",
      "puppeteer-core@25.16.0 (dev)",
    ]);
  });
});
