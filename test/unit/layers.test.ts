// The layer table of DESIGN.md §4: each folder of src/ imports only the layers below it, never in a loop.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "../../src");

/** What each layer may import (besides itself); `workers` alone may import cloudflare:*. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  core: [],
  server: ["core"],
  auth: ["core"],
  modules: ["core", "server"],
  http: ["core", "server", "auth", "modules"],
  session: ["core", "server", "http"],
  tasks: ["core", "server", "http"],
  tenancy: ["core", "server", "auth", "modules"],
  workers: ["core", "server", "auth", "modules", "http", "session", "tasks", "tenancy"],
};
// Packages a layer may use: hono only at the HTTP edge, jose only in auth.
const PACKAGES: Readonly<Record<string, readonly string[]>> = { http: ["hono"], auth: ["jose"], server: ["@cfworker/json-schema"], workers: ["hono"] };

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });
}

const imports = (path: string) => [...readFileSync(path, "utf8").matchAll(/^(?:import|export)[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1] as string);
const layerOf = (path: string): string => relative(SRC, path).split("/")[0] as string;

describe("layers", () => {
  const sources = files(SRC).filter((path) => relative(SRC, path).includes("/"));

  it("puts every source folder in the layer table", () => {
    expect([...new Set(sources.map(layerOf))].filter((layer) => !Object.hasOwn(ALLOWED, layer))).toEqual([]);
  });

  it("lets each layer import only the layers DESIGN.md §4 allows", () => {
    const offenders: string[] = [];
    for (const path of sources) {
      const layer = layerOf(path);
      for (const spec of imports(path)) {
        if (spec.startsWith(".")) {
          const target = layerOf(resolve(dirname(path), spec));
          if (target !== layer && !ALLOWED[layer]?.includes(target)) offenders.push(`${relative(SRC, path)} → ${target}`);
        } else if (spec.startsWith("cloudflare:")) {
          if (layer !== "workers") offenders.push(`${relative(SRC, path)} → ${spec}`);
        } else if (!(PACKAGES[layer] ?? []).some((name) => spec === name || spec.startsWith(`${name}/`))) {
          offenders.push(`${relative(SRC, path)} → package ${spec}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("has no import loops between files, type imports included (a loop of types is a loop of design)", () => {
    const graph = new Map(
      files(SRC).map((path) => [
        path,
        imports(path)
          .filter((s) => s.startsWith("."))
          .map((s) => resolve(dirname(path), s)),
      ]),
    );
    const loops: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (path: string, trail: string[]): void => {
      if (state.get(path) === "done") return;
      if (state.get(path) === "open") {
        loops.push([...trail.slice(trail.indexOf(path)), path].map((p) => relative(SRC, p)).join(" → "));
        return;
      }
      state.set(path, "open");
      for (const next of graph.get(path) ?? []) visit(next, [...trail, path]);
      state.set(path, "done");
    };
    for (const path of graph.keys()) visit(path, []);
    expect(loops).toEqual([]);
  });
});

describe("opt-in code stays out of Workers that do not use it", () => {
  /** Every file `entry` reaches through value imports. */
  function reach(entry: string): Set<string> {
    const seen = new Set<string>();
    const visit = (path: string): void => {
      if (seen.has(path)) return;
      seen.add(path);
      const text = readFileSync(path, "utf8");
      for (const m of text.matchAll(/^(?:import|export)(?!\s+type\s)[^;]*?from\s+"(\.[^"]+)"/gm)) visit(resolve(dirname(path), m[1] as string));
    };
    visit(entry);
    return seen;
  }

  it("keeps tool search (its tools and index) out of createServer: only toolSearch() brings it in", () => {
    const reached = [...reach(join(SRC, "server/server.ts"))].map((path) => relative(SRC, path));
    expect(reached.filter((path) => /search-(tools|index|tokens)\.ts$/.test(path))).toEqual([]);
    expect([...reach(join(SRC, "server/tool-search-engine.ts"))].map((path) => relative(SRC, path))).toContain("server/search-index.ts");
  });
});
