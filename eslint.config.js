// ESLint (flat config): typescript-eslint with type information for the TypeScript sources, tests and examples.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    // Built output, installed packages, local state, official schemas, and the templates (checked by
    // the package test with their own tsconfig, in projects made from them).
    ignores: ["dist/", "node_modules/", "**/.wrangler/", "conformance-results/", "test/fixtures/schema/", "create-edge-mcp/templates/", "**/*.d.ts"],
  },
  js.configs.recommended,
  {
    files: ["**/*.ts"],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      // Files outside both tsconfig projects (vitest.config.ts) are checked with the tests' settings.
      parserOptions: {
        projectService: { allowDefaultProject: ["vitest.config.ts"], defaultProject: "test/tsconfig.json" },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Unawaited promises lose errors and Durable Object storage writes.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // A leading underscore marks what is left out on purpose (`const { read: _read, ...listed } = r`).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      // Off: an async function without await is how handlers, RPC methods and interface implementations
      // return a promise, and it turns a throw into a rejection; removing `async` would change that.
      "@typescript-eslint/require-await": "off",
      // An AbortSignal's reason is what a cancelled operation rejects with; the platform types it `any`.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingAny: true, allowThrowingUnknown: true }],
      // A `let` that closures read before its one assignment cannot be a `const`.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ["test/**/*.ts"],
    // Off in tests: vitest types its asymmetric matchers (expect.stringMatching, expect.any, ...) as
    // `any`, so every toMatchObject pattern that uses one would be reported.
    rules: { "@typescript-eslint/no-unsafe-assignment": "off" },
  },
  {
    // DESIGN.md §4: only the workers layer may import the Workers runtime's modules.
    files: ["src/**/*.ts"],
    ignores: ["src/workers/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^cloudflare:", message: "Only src/workers/ may import cloudflare:* (DESIGN.md §4): keep the other layers platform-free." }] },
      ],
    },
  },
  {
    // Plain ESM JavaScript for Node: the edge-mcp and create-edge-mcp commands, scripts, the bench.
    files: ["**/*.mjs", "**/*.js"],
    rules: { "no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }] },
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        performance: "readonly",
        fetch: "readonly",
        Buffer: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
        Response: "readonly",
        Request: "readonly",
        Headers: "readonly",
        crypto: "readonly",
        structuredClone: "readonly",
        queueMicrotask: "readonly",
        setImmediate: "readonly",
        ReadableStream: "readonly",
        WebSocket: "readonly",
      },
    },
  },
);
