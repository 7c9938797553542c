/** The allowed values of `createWorker` and `createMultiTenantWorker` options, checked when the Worker is made. */

import { APP_OPTION_RULES } from "../http/app-option-rules.ts";
import type { OptionRules } from "../core/option-checks.ts";
import { MAX_RELAY_SHARDS } from "../server/notifications/change-relay.ts";
import { SERVER_OPTION_RULES } from "../server/server-option-rules.ts";

const { server: _server, sessions: _sessions, handleStore: _handles, quotaCounter: _quotas, relay: _relay, tasks: _tasks, ...shared } = APP_OPTION_RULES;

const TASK_SETTINGS: OptionRules = { ttlMs: { kind: "integer", min: 1, hint: "ms" }, pollIntervalMs: { kind: "integer", min: 1, hint: "ms" } };

/** Rules of {@link WorkerOptions}. */
export const WORKER_OPTION_RULES: OptionRules = {
  ...shared,
  authorizer: {
    kind: "check",
    check: (value) =>
      typeof value === "function" || (typeof value === "object" && value !== null && typeof (value as { authenticate?: unknown }).authenticate === "function")
        ? undefined
        : "must be an authorizer (from createAuthorizer) or a function of env that returns one",
  },
  legacySessions: { kind: "boolean" },
  tasks: {
    kind: "check",
    check: (value) => {
      if (typeof value === "boolean") return undefined;
      if (typeof value !== "object" || value === null) return "must be true, false or { ttlMs, pollIntervalMs }";
      for (const [key, n] of Object.entries(value)) {
        const rule = TASK_SETTINGS[key];
        if (!rule) return `has ${key}, not a known field (ttlMs, pollIntervalMs)`;
        if (n !== undefined && !(Number.isSafeInteger(n) && (n as number) >= 1)) return `.${key} must be a positive integer (ms)`;
      }
      return undefined;
    },
  },
  notificationShards: { kind: "integer", min: 1, max: MAX_RELAY_SHARDS },
  services: {
    kind: "check",
    check: (value) =>
      typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "edge-mcp/tool-services"
        ? undefined
        : 'must be toolServices([{ binding: "WEATHER", prefix: "weather" }]) from edge-mcp/workers',
  },
  observe: { kind: "any" },
};

/** Rules of {@link MultiTenantWorkerOptions}. */
export const MULTI_TENANT_OPTION_RULES: OptionRules = {
  modules: {
    kind: "check",
    check: (value) =>
      typeof value === "object" && value !== null && !Array.isArray(value) ? undefined : "must be an object of modules by name, such as { notes: notesModule }",
  },
  info: SERVER_OPTION_RULES["info"] ?? { kind: "any" },
  tenants: { kind: "any" },
  configTtlMs: { kind: "integer", min: 0, hint: "ms" },
  catalogTtlMs: { kind: "integer", min: 0, hint: "ms" },
  maxJsonDepth: APP_OPTION_RULES["maxJsonDepth"] ?? { kind: "any" },
  responseMode: APP_OPTION_RULES["responseMode"] ?? { kind: "any" },
  debug: { kind: "boolean" },
  observe: { kind: "any" },
  appAssets: { kind: "any" },
};
