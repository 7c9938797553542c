// The edge-mcp command runs in Node straight from the package (no build step): it imports only its own
// cli/ files and node: built-ins; wrangler, miniflare and esbuild are loaded from the project at run time.
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");
const FILES = [...readdirSync(join(ROOT, "cli")).map((name) => join(ROOT, "cli", name)), join(ROOT, "bin/edge-mcp.mjs")].filter((path) =>
  path.endsWith(".mjs"),
);
const imports = (path: string) => [...readFileSync(path, "utf8").matchAll(/^(?:import|export)[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1] as string);

describe("the edge-mcp command", () => {
  it("imports only node: built-ins and .mjs files of cli/", () => {
    const offenders = FILES.flatMap((path) =>
      imports(path)
        .filter((spec) => !spec.startsWith("node:") && !/^(?:\.\/|\.\.\/cli\/)[a-z-]+\.mjs$/.test(spec))
        .map((spec) => `${relative(ROOT, path)}: ${spec}`),
    );
    expect(FILES.length).toBeGreaterThan(10);
    expect(offenders).toEqual([]);
  });
});
