/** The allowed values of `createWorker` options, checked when the Worker is made (the multi-tenant Worker's: multi-tenant-option-rules.ts). */

import { APP_OPTION_RULES } from "../http/app-option-rules.ts";
import type { OptionRule, OptionRules } from "../core/option-checks.ts";
import { MAX_RELAY_SHARDS } from "../server/notifications/change-relay.ts";

const {
  server: _server,
  env: _env,
  sessions: _sessions,
  sessionRoutes: _sessionRoutes,
  handleStore: _handles,
  quotaCounter: _quotas,
  relay: _relay,
  tasks: _tasks,
  ...shared
} = APP_OPTION_RULES;

/** The rule of `services`, also checked for Durable Object classes made from a server rather than a Worker. */
export const SERVICES_RULE: OptionRule = {
  kind: "check",
  check: (value) =>
    typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "edge-mcp/tool-services"
      ? undefined
      : 'must be toolServices([{ binding: "WEATHER", prefix: "weather" }]) from edge-mcp/workers',
};

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
  tasks: { kind: "object", rules: TASK_SETTINGS, orBoolean: true },
  notificationShards: { kind: "integer", min: 1, max: MAX_RELAY_SHARDS },
  services: SERVICES_RULE,
  rateLimits: {
    kind: "object",
    rules: {
      tenant: { kind: "string", pattern: /^[A-Za-z_][A-Za-z0-9_]*$/, hint: "the name of a [[ratelimits]] binding" },
      principal: { kind: "string", pattern: /^[A-Za-z_][A-Za-z0-9_]*$/, hint: "the name of a [[ratelimits]] binding" },
      tool: { kind: "string", pattern: /^[A-Za-z_][A-Za-z0-9_]*$/, hint: "the name of a [[ratelimits]] binding" },
      retryAfterSeconds: { kind: "integer", min: 1, hint: "seconds, the bindings' period" },
    },
  },
  observe: { kind: "any" },
};
