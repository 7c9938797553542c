// esbuild plugins that keep what ext-apps' `App` does not use out of an app's page, without changing what it runs.
//
// `App` imports `Protocol` from @modelcontextprotocol/client and a few schemas from
// @modelcontextprotocol/core, whose entry points re-export everything (OAuth, the Client, transports),
// and `z` from zod, whose namespace carries every locale of its error messages.

/**
 * Marks the SDK's client and core modules free of import-time side effects (their package.json
 * says nothing either way), so esbuild drops the modules `App` never reaches (OAuth, Client, ...).
 * @type {import("esbuild").Plugin}
 */
export const sdkWithoutSideEffects = {
  name: "sdk-without-side-effects",
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === "sdk-resolved" || args.kind === "entry-point") return undefined;
      const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: "sdk-resolved" });
      if (resolved.errors.length > 0) return undefined;
      return /node_modules\/@modelcontextprotocol\/(client|core)\//.test(resolved.path) ? { ...resolved, sideEffects: false } : resolved;
    });
  },
};

/**
 * zod's `locales` (error messages in 50 languages, reached only through `z.locales`) reduced to
 * English, the one zod configures itself with: an app that sets no other locale runs the same.
 * @type {import("esbuild").Plugin}
 */
export const zodEnglishOnly = {
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
