/** One-time DPoP proof ids (`jti`), held for their window in the tenant's quota object or, without one, in memory. */

import type { ReplayGuard } from "../../auth/dpop.ts";
import type { QuotaKind } from "../../core/admission.ts";
import type { QuotaCounter } from "../../server/state/quotas.ts";

// Leases of their own kind: they never count against handles, sessions or tasks.
const KIND = "dpop-jti" as QuotaKind;
const UNLIMITED = { perPrincipal: 1, perTenant: Number.MAX_SAFE_INTEGER };

/**
 * A replay guard over the quota counter (on Workers, the tenant's McpQuotaObject: one place for
 * every isolate). Each proof takes a lease whose holder is the proof's key, at most one per
 * holder: a second proof with the same key finds the first still live and is refused.
 */
export function quotaReplayGuard(counter: QuotaCounter, tenant: string): ReplayGuard {
  return {
    firstUse: (key, expiresAt) => counter.acquire(tenant, { kind: KIND, holder: key, id: `${key}:${crypto.randomUUID()}`, expiresAt }, UNLIMITED),
  };
}

/** A replay guard in this isolate's memory: for tests and single-isolate development only. */
export function memoryReplayGuard(now: () => number = Date.now): ReplayGuard {
  const seen = new Map<string, number>();
  return {
    async firstUse(key, expiresAt) {
      const time = now();
      for (const [old, until] of seen) if (until <= time) seen.delete(old);
      if (seen.has(key)) return false;
      seen.set(key, expiresAt);
      return true;
    },
  };
}
