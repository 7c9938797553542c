// Builds the app's page (app/counter.html + app/counter.ts) into one HTML file with its script
// inlined, public/apps/counter.html: a static asset the Worker reads on demand (wrangler.toml [assets]).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

/**
 * ext-apps' App imports the SDK's client and core packages through entry points that re-export all
 * of them (OAuth, the Client, transports): marked free of import-time side effects, the modules App
 * never reaches are left out.
 * @type {import("esbuild").Plugin}
 */
const sdkWithoutSideEffects = {
  name: "sdk-without-side-effects",
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === "resolved" || args.kind === "entry-point") return undefined;
      const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: "resolved" });
      if (resolved.errors.length > 0) return undefined;
      return /node_modules\/@modelcontextprotocol\/(client|core)\//.test(resolved.path) ? { ...resolved, sideEffects: false } : resolved;
    });
  },
};

/**
 * zod's error messages in English only (the locale zod configures itself with), not in the 50
 * languages its namespace carries: a page that sets no other locale runs the same.
 * @type {import("esbuild").Plugin}
 */
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(build) {
    build.onResolve({ filter: /locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: "zod-locales", namespace: "zod-english-only" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-english-only" }, () => ({
      contents: 'export { default as en } from "zod/v4/locales/en.js";',
      resolveDir: process.cwd(),
    }));
  },
};

const out = await build({
  entryPoints: ["app/counter.ts"],
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  write: false,
  legalComments: "none",
  plugins: [sdkWithoutSideEffects, zodEnglishOnly],
});
// An inline script ends at the first "</script": keep the bundle from containing one.
const script = (out.outputFiles[0]?.text ?? "").replaceAll("</script", "<\\/script");
const html = readFileSync("app/counter.html", "utf8").replace("/*APP_SCRIPT*/", () => script);
mkdirSync("public/apps", { recursive: true });
writeFileSync("public/apps/counter.html", html);
console.log(`public/apps/counter.html: ${(html.length / 1024).toFixed(1)} KiB, ${(gzipSync(html).length / 1024).toFixed(1)} KiB gzip`);
