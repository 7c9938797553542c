/** The allowed values of `createServer` options, checked once when the server is compiled. */

import type { OptionRules } from "../core/option-checks.ts";

const list = (value: unknown): string | undefined => (Array.isArray(value) ? undefined : "must be an array");

/**
 * Rules of {@link ServerOptions}: counts are positive integers, TTLs non-negative, enums spelled
 * out. `createServer` checks that every option has its rule (a new option cannot be added without one).
 */
export const SERVER_OPTION_RULES = {
  info: {
    kind: "check",
    check: (value) =>
      typeof value === "object" &&
      value !== null &&
      typeof (value as { name?: unknown }).name === "string" &&
      typeof (value as { version?: unknown }).version === "string"
        ? undefined
        : 'must be an object with a name and a version, such as { name: "my-server", version: "1.0.0" }',
  },
  instructions: { kind: "string" },
  tools: { kind: "check", check: list },
  resources: { kind: "check", check: list },
  resourceTemplates: { kind: "check", check: list },
  prompts: { kind: "check", check: list },
  skills: { kind: "check", check: list },
  skillLimits: {
    kind: "object",
    rules: {
      maxFiles: { kind: "integer", min: 1 },
      maxFileBytes: { kind: "integer", min: 1, hint: "bytes" },
      maxTotalBytes: { kind: "integer", min: 1, hint: "bytes" },
    },
  },
  pageSize: { kind: "integer", min: 1, hint: "items" },
  pageBytes: { kind: "integer", min: 1024, hint: "bytes" },
  maxPages: { kind: "integer", min: 1 },
  listTtlMs: { kind: "integer", min: 0, hint: "ms" },
  cacheScope: { kind: "oneOf", values: ["public", "private"] },
  scope: { kind: "string" },
  unavailableModules: { kind: "check", check: list },
  toolSearch: { kind: "any" },
  features: { kind: "check", check: list },
} as const satisfies OptionRules;
