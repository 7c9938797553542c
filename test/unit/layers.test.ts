// The layer rules of DESIGN.md §4: only src/workers imports cloudflare:*; core imports no other layer.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "../../src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });
}

const imports = (path: string) => [...readFileSync(path, "utf8").matchAll(/^(?:import|export)[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1] as string);

describe("layers", () => {
  it("keeps cloudflare:* imports inside src/workers", () => {
    const offenders = files(SRC).filter((path) => !relative(SRC, path).startsWith("workers/") && imports(path).some((spec) => spec.startsWith("cloudflare:")));
    expect(offenders.map((path) => relative(SRC, path))).toEqual([]);
  });

  it("keeps src/core free of the other layers and of hono", () => {
    const offenders = files(join(SRC, "core")).filter((path) => imports(path).some((spec) => spec.startsWith("../") || spec === "hono"));
    expect(offenders.map((path) => relative(SRC, path))).toEqual([]);
  });
});
