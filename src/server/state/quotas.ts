/** Quotas on live handles, sessions, tasks and streams: leases counted per principal, for anonymous callers together, and per tenant. */

import type { Admission, QuotaKind, QuotaLimit } from "../../core/admission.ts";

/** One live thing held by a caller, until it is released or `expiresAt` passes. */
export interface QuotaLease {
  kind: QuotaKind;
  /** The admission's `quotaHolder`. */
  holder: string;
  /** The thing's id (a handle, a session id's digest): unique within the tenant. */
  id: string;
  /** Epoch ms after which the lease no longer counts, even if nobody released it. */
  expiresAt: number;
  /** Held by an anonymous caller: also counted against the tenant's `anonymous` allowance. */
  anonymous?: boolean;
}

/** The lease of one thing a caller holds, as admission identified the caller. */
export function leaseFor(admission: Admission, kind: QuotaKind, id: string, expiresAt: number): QuotaLease {
  return { kind, holder: admission.quotaHolder, id, expiresAt, anonymous: admission.principal === undefined };
}

/** The anonymous allowance of a limit (a record made before it existed has none: no bound). */
export function anonymousLimit(limit: QuotaLimit): number {
  return typeof limit.anonymous === "number" ? limit.anonymous : Number.POSITIVE_INFINITY;
}

/**
 * Where quotas are counted. On Workers it is one Durable Object per tenant (McpQuotaObject), so
 * every isolate sees the same count; in memory for tests and single-isolate development.
 */
export interface QuotaCounter {
  /** Takes a place for the lease; false (and nothing taken) when the holder, the anonymous callers (for an anonymous lease) or the tenant is at its limit. */
  acquire(tenant: string, lease: QuotaLease, limit: QuotaLimit): Promise<boolean>;
  /** Moves a lease's expiry (a session still in use); nothing happens for an unknown lease. */
  renew(tenant: string, id: string, expiresAt: number): Promise<void>;
  /** Frees the place of a lease (the handle was deleted, the session ended). */
  release(tenant: string, id: string): Promise<void>;
}

interface Held {
  kind: QuotaKind;
  holder: string;
  expiresAt: number;
  anonymous: boolean;
}

/** The counting rule both counters share, over the live leases of one tenant. */
export class TenantLeases {
  readonly #leases = new Map<string, Held>();

  acquire(lease: QuotaLease, limit: QuotaLimit, now: number): boolean {
    let holder = 0;
    let tenant = 0;
    let anonymous = 0;
    for (const [id, held] of this.#leases) {
      if (held.expiresAt <= now) {
        this.#leases.delete(id);
        continue;
      }
      if (held.kind !== lease.kind || id === lease.id) continue;
      tenant++;
      if (held.holder === lease.holder) holder++;
      if (held.anonymous) anonymous++;
    }
    if (holder >= limit.perPrincipal || tenant >= limit.perTenant) return false;
    if (lease.anonymous === true && anonymous >= anonymousLimit(limit)) return false;
    this.#leases.set(lease.id, { kind: lease.kind, holder: lease.holder, expiresAt: lease.expiresAt, anonymous: lease.anonymous === true });
    return true;
  }

  renew(id: string, expiresAt: number): void {
    const held = this.#leases.get(id);
    if (held) held.expiresAt = expiresAt;
  }

  release(id: string): void {
    this.#leases.delete(id);
  }
}

/** A quota counter in memory: for tests and single-isolate development only. */
export function createMemoryQuotaCounter(now: () => number = Date.now): QuotaCounter {
  const tenants = new Map<string, TenantLeases>();
  const of = (tenant: string): TenantLeases => {
    let leases = tenants.get(tenant);
    if (!leases) {
      leases = new TenantLeases();
      tenants.set(tenant, leases);
    }
    return leases;
  };
  return {
    acquire: async (tenant, lease, limit) => of(tenant).acquire(lease, limit, now()),
    renew: async (tenant, id, expiresAt) => of(tenant).renew(id, expiresAt),
    release: async (tenant, id) => of(tenant).release(id),
  };
}
