/** The allowed values of an endpoint's options (createWorker's and the multi-tenant Worker's too), checked at startup. */

import type { OptionRule, OptionRules } from "../core/option-checks.ts";
import type { McpAppOptions } from "./endpoint.ts";

const QUOTA = {
  kind: "object",
  rules: { perPrincipal: { kind: "integer", min: 1 }, perTenant: { kind: "integer", min: 1 }, anonymous: { kind: "integer", min: 1 } },
} as const;

/** Rules of {@link McpAppOptions}: sizes and times are integers in range, modes spelled out. */
export const APP_OPTION_RULES: OptionRules = {
  server: { kind: "any" },
  env: { kind: "any" },
  path: { kind: "string", pattern: /^\/\S*$/, hint: "a path starting with /, such as /mcp" },
  allow: { kind: "object", rules: { hosts: { kind: "strings" }, origins: { kind: "strings" } } },
  maxBodyBytes: { kind: "integer", min: 1, hint: "bytes, e.g. 1048576 for 1 MiB" },
  maxJsonDepth: { kind: "integer", min: 1, max: 1000 },
  bodyTimeoutMs: { kind: "integer", min: 1, hint: "ms, e.g. 10000 for 10 s" },
  responseMode: { kind: "oneOf", values: ["auto", "json", "sse"] },
  keepAliveMs: { kind: "integer", min: 0, hint: "ms; 0 turns keep-alives off" },
  debug: { kind: "boolean" },
  development: { kind: "boolean" },
  stateSecret: { kind: "string" },
  handleStore: { kind: "any" },
  sessions: { kind: "any" },
  sessionRoutes: { kind: "any" },
  tenant: { kind: "string", pattern: /^\S+$/, hint: "a tenant id" },
  authorizer: { kind: "any" },
  rateLimiter: { kind: "any" },
  quotaCounter: { kind: "any" },
  quotas: { kind: "object", rules: { handles: QUOTA, sessions: QUOTA, tasks: QUOTA, streams: QUOTA } },
  revisions: { kind: "strings" },
  accessLog: { kind: "boolean" },
  relay: { kind: "any" },
  listen: {
    kind: "object",
    rules: { maxQueuedBytes: { kind: "integer", min: 1, hint: "bytes" }, heartbeatMs: { kind: "integer", min: 100, max: 300_000, hint: "ms" } },
  },
  limits: {
    kind: "object",
    rules: { toolTimeoutMs: { kind: "integer", min: 1, hint: "ms" }, maxResultBytes: { kind: "integer", min: 1, hint: "bytes" } },
  },
  tasks: { kind: "any" },
  serverCard: { kind: "any" },
  observer: { kind: "any" },
} satisfies Record<keyof McpAppOptions, OptionRule>;
