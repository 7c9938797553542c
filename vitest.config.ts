// Vitest projects: unit (Node), workers (workerd via @cloudflare/vitest-plugin), e2e (Node against `wrangler dev`).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Where test/workers-notify/global-setup.ts bundles the notifications fixture Worker.
const NOTIFY_FIXTURE_DIR = new URL("./.wrangler/notify-fixture", import.meta.url).pathname;

// Keep every wrangler/miniflare started in this process (the workers pool) offline and quiet.
process.env["WRANGLER_SEND_METRICS"] = "false";
process.env["WRANGLER_SEND_ERROR_REPORTS"] = "false";
process.env["CLOUDFLARE_CF_FETCH_ENABLED"] = "false";

// Quiet when green: workerd's own log (uncaught exceptions the tests provoke on purpose, such as an
// object reset by a test) is off unless EDGE_MCP_TEST_VERBOSE=true; console output is shown for
// failing tests only ("passed-only"), where it helps.
const VERBOSE = process.env["EDGE_MCP_TEST_VERBOSE"] === "true";

export default defineConfig({
  // The examples import the package by name, as users do; in this repository the names mean the
  // sources (as in tsconfig.json "paths" and the [alias] of each wrangler.toml), so no build is needed first.
  resolve: {
    alias: [
      { find: /^edge-mcp$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) },
      { find: /^edge-mcp\/workers$/, replacement: fileURLToPath(new URL("./src/workers/index.ts", import.meta.url)) },
      { find: /^edge-mcp\/host$/, replacement: fileURLToPath(new URL("./src/host.ts", import.meta.url)) },
      { find: /^edge-mcp\/json-schema$/, replacement: fileURLToPath(new URL("./src/json-schema.ts", import.meta.url)) },
      { find: /^edge-mcp\/hono$/, replacement: fileURLToPath(new URL("./src/hono/index.ts", import.meta.url)) },
      { find: /^edge-mcp\/oauth$/, replacement: fileURLToPath(new URL("./src/oauth/index.ts", import.meta.url)) },
    ],
  },
  test: {
    retry: 0,
    // A file's first test also loads its Worker's modules in workerd; with other files running on a
    // 2-core machine that can pass vitest's 5 s default, and a hang still fails well within CI's time.
    testTimeout: 15_000,
    silent: VERBOSE ? false : "passed-only",
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          environment: "node",
          // V8's natives syntax, for %HaveSameMap in test/unit/core/shape-samples.test.ts (its forks only: no other effect).
          execArgv: ["--allow-natives-syntax"],
          include: ["test/unit/**/*.test.ts", "src/**/*.test.ts"],
        },
      },
      {
        extends: true,
        plugins: [
          cloudflareTest({
            // The Worker under test is `main` of this config; its [vars] become bindings.
            // Override or add bindings per project with `miniflare: { bindings: { ... } }`.
            wrangler: { configPath: "./wrangler.toml" },
            remoteBindings: false,
            verbose: VERBOSE,
          }),
        ],
        test: {
          name: "workers",
          include: ["test/workers/**/*.test.ts"],
        },
      },
      {
        extends: true,
        plugins: [
          cloudflareTest({
            // The conformance fixture: resources, prompts, MRTR tools, listen triggers.
            wrangler: { configPath: "./examples/conformance/wrangler.toml" },
            remoteBindings: false,
            verbose: VERBOSE,
          }),
        ],
        test: {
          name: "workers-conformance",
          include: ["test/workers-conformance/**/*.test.ts"],
        },
      },
      {
        extends: true,
        plugins: [
          cloudflareTest({
            // Admission on every path: a multi-tenant Worker with auth, sessions, handles, quotas, rate limits.
            wrangler: { configPath: "./test/workers-admission/wrangler.toml" },
            miniflare: { bindings: { MCP_TENANTS: readFileSync("./test/workers-admission/tenants.json", "utf8") } },
            remoteBindings: false,
            verbose: VERBOSE,
          }),
        ],
        test: {
          name: "workers-admission",
          include: ["test/workers-admission/**/*.test.ts"],
        },
      },
      {
        extends: true,
        plugins: [
          cloudflareTest({
            // Traces and usage: two tenants observed by observability(), an OpenTelemetry SDK in the tests.
            wrangler: { configPath: "./test/workers-observe/wrangler.toml" },
            remoteBindings: false,
          }),
        ],
        test: {
          name: "workers-observe",
          include: ["test/workers-observe/**/*.test.ts"],
        },
      },
      {
        extends: true,
        plugins: [
          cloudflareTest({
            // Change notifications. The fixture Worker runs twice: as the Worker under test (the
            // runner turns cross-request wake-ups off: the fallback path) and bundled as the
            // auxiliary Worker NOTIFY with workerd's defaults (global-setup.ts bundles it).
            wrangler: { configPath: "./test/workers-notify/fixture/wrangler.toml" },
            remoteBindings: false,
            verbose: VERBOSE,
            miniflare: {
              serviceBindings: { NOTIFY: "notify-fixture" },
              durableObjects: { NOTIFY_HUB: { className: "McpNotificationHub", scriptName: "notify-fixture" } },
              workers: [
                {
                  name: "notify-fixture",
                  modules: true,
                  scriptPath: `${NOTIFY_FIXTURE_DIR}/fixture-worker.js`,
                  compatibilityDate: "2026-04-01",
                  compatibilityFlags: ["enable_request_signal"],
                  bindings: { MCP_DEBUG: "false" },
                  durableObjects: {
                    MCP_NOTIFICATIONS: { className: "McpNotificationHub", useSQLite: true },
                    MCP_SESSIONS: { className: "McpSessionObject", useSQLite: true },
                    MCP_QUOTAS: { className: "McpQuotaObject", useSQLite: true },
                  },
                },
              ],
            },
          }),
        ],
        test: {
          name: "workers-notify",
          include: ["test/workers-notify/**/*.test.ts"],
          globalSetup: ["test/workers-notify/global-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          // A real MCP Apps host in headless chromium (puppeteer-core) against its own `wrangler dev`.
          name: "e2e-browser",
          environment: "node",
          include: ["test/e2e-browser/**/*.test.ts"],
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          environment: "node",
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["test/e2e/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          // The packages as users get them: packed, checked, each template made, installed offline, tested and served.
          name: "package",
          environment: "node",
          include: ["test/package/**/*.test.ts"],
          globalSetup: ["test/package/global-setup.ts"],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
