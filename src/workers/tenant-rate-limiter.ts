/** A tenant's rate limits (`rateLimits` in its config) on Workers Rate Limiting bindings: per tenant, per principal, per tool. */

import type { RateLimiter } from "../http/admission/rate-limiter.ts";
import type { TenantRateLimits } from "../tenancy/tenant-config.ts";

interface RateLimitBinding {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

/**
 * The rate limiter of a tenant's endpoint, or undefined when its config names no binding. Each
 * named binding is read from `env`; a call is refused (with the tenant's `retryAfterSeconds`,
 * default 60) when any limit it falls under is spent.
 *
 * With `toolCallsOnly` (a single Worker's `rateLimits`), only tool calls are counted: `initialize`,
 * `tools/list` and every other method pass without touching a binding.
 */
export function tenantRateLimiter(env: Record<string, unknown>, limits: TenantRateLimits | undefined, toolCallsOnly = false): RateLimiter | undefined {
  if (!limits || (!limits.tenant && !limits.principal && !limits.tool)) return undefined;
  const binding = (name: string | undefined) => (name === undefined ? undefined : (env[name] as RateLimitBinding | undefined));
  const wait = limits.retryAfterSeconds ?? 60;
  return {
    async check(admission, tool, toolOnly) {
      if (toolCallsOnly && tool === undefined) return undefined;
      // Keys are JSON, like the caller key itself: no tenant, issuer, subject or tool can collide.
      const checks: [RateLimitBinding | undefined, string][] = [
        [toolOnly ? undefined : binding(limits.tenant), JSON.stringify([admission.tenant])],
        [toolOnly ? undefined : binding(limits.principal), admission.quotaHolder],
        [tool === undefined ? undefined : binding(limits.tool), JSON.stringify([admission.quotaHolder, tool])],
      ];
      for (const [limiter, key] of checks) {
        if (limiter && !(await limiter.limit({ key })).success) return wait;
      }
      return undefined;
    },
  };
}
