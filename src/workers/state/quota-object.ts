/**
 * McpQuotaObject: one Durable Object per tenant that counts the live handles, sessions, tasks and
 * listen streams of the tenant, of its anonymous callers together and of each caller, so that
 * every isolate sees the same count.
 *
 * Storage (SQLite): table `leases(id, kind, holder, expires_at, anonymous)`, one row per live
 * thing (`anonymous` is 1 for an anonymous caller's, added to tables made before it with 0); a
 * lease whose `expires_at` has passed no longer counts and is deleted on the next acquire.
 * Lifecycle: a lease is taken when a handle is created or a session opened (admission), moved
 * forward while a session is in use, and released when the handle is deleted or the session
 * ends; expiry frees whatever was never released (an evicted object, a lost alarm).
 */

import { DurableObject } from "cloudflare:workers";
import type { QuotaLimit } from "../../core/admission.ts";
import { DefinitionError } from "../../core/definition-error.ts";
import { anonymousLimit, type QuotaCounter, type QuotaLease } from "../../server/state/quotas.ts";
import type { TenantRecord, TenantRecords } from "../../tenancy/tenant-records.ts";

export class McpQuotaObject extends DurableObject<Record<string, unknown>> {
  constructor(ctx: DurableObjectState, env: Record<string, unknown>) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS leases (id TEXT PRIMARY KEY, kind TEXT NOT NULL, holder TEXT NOT NULL, expires_at INTEGER NOT NULL)");
    sql.exec("CREATE INDEX IF NOT EXISTS leases_by_holder ON leases (kind, holder)");
    sql.exec("CREATE INDEX IF NOT EXISTS leases_by_expiry ON leases (expires_at)");
    const columns = sql.exec<{ name: string }>("PRAGMA table_info(leases)").toArray();
    if (!columns.some((column) => column.name === "anonymous")) sql.exec("ALTER TABLE leases ADD COLUMN anonymous INTEGER NOT NULL DEFAULT 0");
  }

  /** Takes a place for the lease unless the holder or the tenant is at its limit (RPC). */
  acquire(lease: QuotaLease, limit: QuotaLimit): boolean {
    const sql = this.ctx.storage.sql;
    sql.exec("DELETE FROM leases WHERE expires_at <= ?", Date.now());
    // The three counts (the holder's, the tenant's, all anonymous callers') in one pass over the kind's leases.
    const counts = sql
      .exec<{ holder: number; tenant: number; anonymous: number }>(
        "SELECT TOTAL(holder = ?) AS holder, COUNT(*) AS tenant, TOTAL(anonymous = 1) AS anonymous FROM leases WHERE kind = ? AND id != ?",
        lease.holder,
        lease.kind,
        lease.id,
      )
      .one();
    if (counts.holder >= limit.perPrincipal || counts.tenant >= limit.perTenant) return false;
    const anonymous = lease.anonymous === true;
    if (anonymous && counts.anonymous >= anonymousLimit(limit)) return false;
    sql.exec(
      "INSERT OR REPLACE INTO leases (id, kind, holder, expires_at, anonymous) VALUES (?, ?, ?, ?, ?)",
      lease.id,
      lease.kind,
      lease.holder,
      lease.expiresAt,
      anonymous ? 1 : 0,
    );
    return true;
  }

  renew(id: string, expiresAt: number): void {
    this.ctx.storage.sql.exec("UPDATE leases SET expires_at = ? WHERE id = ?", expiresAt, id);
  }

  release(id: string): void {
    this.ctx.storage.sql.exec("DELETE FROM leases WHERE id = ?", id);
  }

  /**
   * The tenant's config as the admin API last wrote it, with its version (0: never written here),
   * for Workers with tenants one KV key each (RPC). Strongly consistent where KV is not.
   */
  tenantRecord(): TenantRecord {
    const sql = this.ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS tenant_record (one INTEGER PRIMARY KEY CHECK (one = 1), version INTEGER NOT NULL, config TEXT)");
    const row = sql.exec<{ version: number; config: string | null }>("SELECT version, config FROM tenant_record").toArray()[0];
    return row ? { version: row.version, config: row.config } : { version: 0, config: null };
  }

  /** Records the tenant's new config (null: disabled or deleted) under the next version (RPC). */
  writeTenantRecord(config: string | null): number {
    const version = this.tenantRecord().version + 1;
    this.ctx.storage.sql.exec("INSERT OR REPLACE INTO tenant_record (one, version, config) VALUES (1, ?, ?)", version, config);
    return version;
  }
}

/** A {@link QuotaCounter} over the McpQuotaObject namespace: one object per tenant. */
export function durableQuotaCounter(namespace: DurableObjectNamespace<McpQuotaObject>): QuotaCounter {
  if (typeof namespace?.idFromName !== "function") throw new DefinitionError("MCP_QUOTAS must be a Durable Object namespace binding of McpQuotaObject");
  const stub = (tenant: string) => namespace.get(namespace.idFromName(tenant));
  return {
    acquire: (tenant, lease, limit) => stub(tenant).acquire(lease, limit),
    renew: (tenant, id, expiresAt) => stub(tenant).renew(id, expiresAt),
    release: (tenant, id) => stub(tenant).release(id),
  };
}

/** The {@link TenantRecords} of a Worker with tenants one KV key each, in the tenants' quota objects. */
export function durableTenantRecords(namespace: DurableObjectNamespace<McpQuotaObject>): TenantRecords {
  const stub = (tenant: string) => namespace.get(namespace.idFromName(tenant));
  return {
    read: (tenant) => stub(tenant).tenantRecord(),
    write: (tenant, config) => stub(tenant).writeTenantRecord(config),
  };
}
