/** Code mode's settings: its sandbox and its limits, with their defaults, and their check for tenant configs. */

import { isObject } from "../../core/json.ts";
import type { SandboxRunner } from "./sandbox.ts";

/** The limits of one `execute`. Every one is per run. */
export interface CodeModeLimits {
  /** Wall time of a run, in ms (default 30000): past it the run ends with an error. */
  wallTimeMs?: number;
  /** CPU time of a run, in ms (default 1000), enforced by the Worker Loader in production (not by local workerd). */
  cpuMs?: number;
  /** Most `tools.*` calls in a run (default 50): the next one fails in the program. */
  maxToolCalls?: number;
  /** Most bytes of the program's output given to the model (default 65536): the rest is cut, and said so. */
  maxOutputBytes?: number;
  /** Most bytes of captured `console` output (default 16384): the rest is dropped, and said so. */
  maxConsoleBytes?: number;
  /** Most characters of a program (default 100000). */
  maxCodeChars?: number;
  /**
   * Most loop turns and function calls in a run, counted together by the loop guard (default
   * 10000000): past it the program stops with a `LimitError`. It is what stops a loop that never
   * waits, where the platform's `cpuMs` is not enforced (local workerd).
   */
  maxIterations?: number;
  /**
   * Most bytes a run may allocate through the built-ins whose one call allocates in proportion to
   * an argument (`new Array(n)`, `fill`, `"x".repeat(n)`, typed arrays, `JSON.stringify`, …),
   * estimated and counted together (default 33554432, 32 MiB): past it the call throws a
   * `LimitError`. Cumulative: memory collected is not credited back. Allocation by syntax
   * (literals, `+`, spread into an object) is not counted; `maxIterations` bounds it.
   */
  maxAllocationBytes?: number;
}

/** Code mode for a server: `codeMode({ runner, limits })`. */
export interface CodeModeOptions {
  /** Where programs run (on Workers: `workerLoaderRunner()` of `edge-mcp/workers`). */
  runner: SandboxRunner;
  limits?: CodeModeLimits;
}

export const DEFAULT_LIMITS: Required<CodeModeLimits> = {
  wallTimeMs: 30_000,
  cpuMs: 1_000,
  maxToolCalls: 50,
  maxOutputBytes: 65_536,
  maxConsoleBytes: 16_384,
  maxCodeChars: 100_000,
  maxIterations: 10_000_000,
  maxAllocationBytes: 33_554_432,
};

const LIMIT_KEYS = Object.keys(DEFAULT_LIMITS) as (keyof CodeModeLimits)[];

/**
 * Checks the `codeMode` field of a tenant config: `true`, or `{ "limits": { ... } }`. Returns the
 * limits; `fail(field, problem)` throws for the tenant.
 */
export function parseCodeModeConfig(value: unknown, fail: (field: string, problem: string) => never): CodeModeLimits {
  if (value === true) return {};
  if (!isObject(value)) return fail("codeMode", `must be true or an object such as {"limits": {"wallTimeMs": 10000}}`);
  const { limits, ...unknown } = value;
  for (const key of Object.keys(unknown)) fail(`codeMode.${key}`, "is not a known field (limits)");
  if (limits === undefined) return {};
  if (!isObject(limits)) return fail("codeMode.limits", "must be an object");
  const out: CodeModeLimits = {};
  for (const [key, n] of Object.entries(limits)) {
    if (!LIMIT_KEYS.includes(key as keyof CodeModeLimits)) fail(`codeMode.limits.${key}`, `is not a known field (${LIMIT_KEYS.join(", ")})`);
    if (!Number.isSafeInteger(n) || (n as number) <= 0) fail(`codeMode.limits.${key}`, "must be a positive integer");
    out[key as keyof CodeModeLimits] = n as number;
  }
  return out;
}
