/**
 * The allowed values of `createMultiTenantWorker` options, checked when the Worker is made. A file
 * of its own: esbuild keeps a table built from property reads wherever its module is bundled, so
 * the single-tenant Worker's rules (worker-option-rules.ts) do not carry it.
 */

import { APP_OPTION_RULES } from "../http/app-option-rules.ts";
import type { OptionRules } from "../core/option-checks.ts";
import { SERVER_OPTION_RULES } from "../server/server-option-rules.ts";

/** Rules of {@link MultiTenantWorkerOptions}. */
export const MULTI_TENANT_OPTION_RULES: OptionRules = {
  modules: {
    kind: "check",
    check: (value) =>
      typeof value === "object" && value !== null && !Array.isArray(value) ? undefined : "must be an object of modules by name, such as { notes: notesModule }",
  },
  info: SERVER_OPTION_RULES["info"] ?? { kind: "any" },
  tenants: { kind: "any" },
  tenantStore: {
    kind: "check",
    check: (value) =>
      typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "edge-mcp/keyed-tenants"
        ? undefined
        : "must be keyedTenants() from edge-mcp/workers",
  },
  configTtlMs: { kind: "integer", min: 0, hint: "ms" },
  catalogTtlMs: { kind: "integer", min: 0, hint: "ms" },
  maxJsonDepth: APP_OPTION_RULES["maxJsonDepth"] ?? { kind: "any" },
  responseMode: APP_OPTION_RULES["responseMode"] ?? { kind: "any" },
  debug: { kind: "boolean" },
  development: { kind: "boolean" },
  observe: { kind: "any" },
  appAssets: { kind: "any" },
  codeMode: {
    kind: "check",
    check: (value) =>
      typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "edge-mcp/tenant-code-mode"
        ? undefined
        : "must be tenantCodeMode() from edge-mcp/workers",
  },
  jsonSchema: {
    kind: "check",
    check: (value) =>
      typeof value === "object" && value !== null && typeof (value as { jsonSchema?: { compile?: unknown } }).jsonSchema?.compile === "function"
        ? undefined
        : "must be fullJsonSchema() from edge-mcp/json-schema",
  },
  tokenSources: {
    kind: "check",
    check: (value) =>
      typeof value === "object" && value !== null && typeof (value as { sources?: unknown }).sources === "function"
        ? undefined
        : "must be tokenSources() from edge-mcp",
  },
  accounts: {
    kind: "check",
    check: (value) =>
      typeof value === "object" && value !== null && typeof (value as { useTenants?: unknown }).useTenants === "function"
        ? undefined
        : "must be connectedAccounts()",
  },
  remotes: {
    kind: "check",
    check: (value) =>
      typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "edge-mcp/remote-modules"
        ? undefined
        : "must be remoteModules() from edge-mcp/workers",
  },
  signIn: {
    kind: "check",
    check: (value) =>
      typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "edge-mcp/tenant-sign-in"
        ? undefined
        : "must be tenantSignIn() from edge-mcp/oauth",
  },
};
