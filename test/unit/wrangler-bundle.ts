// Bundles an entry as wrangler does (esbuild, the workerd conditions, the package's `sideEffects`), from src/, unminified so names can be read.
import { join } from "node:path";
import { build } from "esbuild";

export const ROOT = join(import.meta.dirname, "../..");

/** The bundle of an entry file, or of an entry module's source (`contents`, resolved from the repository's root). */
export async function bundleAsWrangler(entry: { file: string } | { contents: string }): Promise<string> {
  const result = await build({
    ...("file" in entry
      ? { entryPoints: [entry.file] }
      : { stdin: { contents: entry.contents, resolveDir: ROOT, sourcefile: "worker.ts", loader: "ts" as const } }),
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["browser", "module", "main"],
    alias: {
      "edge-mcp": join(ROOT, "src/index.ts"),
      "edge-mcp/workers": join(ROOT, "src/workers/index.ts"),
      "edge-mcp/json-schema": join(ROOT, "src/json-schema.ts"),
      "edge-mcp/hono": join(ROOT, "src/hono/index.ts"),
      "edge-mcp/oauth": join(ROOT, "src/oauth/index.ts"),
    },
    external: ["cloudflare:*", "node:*"],
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}
