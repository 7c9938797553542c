/**
 * McpUsageObject: one Durable Object per tenant holding hourly usage roll-ups by tool and by
 * caller, for operators who want per-tenant usage without the Analytics Engine SQL API.
 *
 * Storage (SQLite): table `buckets(hour, dim, key, calls, errors, duration_ms, bytes_in,
 * bytes_out)`, one row per hour (start, ms since the epoch), dimension (`tool` or `caller`) and
 * key (tool name, or the method of other requests; caller id). Every record adds to one `tool`
 * row and one `caller` row. Table `sends(id, at)`: the ids of the batched sends already counted
 * (a retried send is counted once), kept a day. Lifecycle: rows older than {@link USAGE_RETENTION_MS}
 * are deleted by an alarm that runs at most once a day while records arrive.
 */

import { DurableObject } from "cloudflare:workers";
import { DefinitionError } from "../../core/definition-error.ts";
import { HOUR_MS, type UsageCounts, type UsageQuery, type UsageReader, type UsageReport } from "../../observe/usage/usage-report.ts";
import type { UsageRecord, UsageSink } from "../../observe/usage/usage-record.ts";
import { UsageBatch } from "../../observe/usage/usage-batch.ts";

/** How long hourly buckets are kept: 90 days. */
export const USAGE_RETENTION_MS = 90 * 24 * HOUR_MS;
const DAY_MS = 24 * HOUR_MS;

type CountRow = { calls: number; errors: number; duration_ms: number; bytes_in: number; bytes_out: number };

function counts(row: CountRow): UsageCounts {
  return { calls: row.calls, errors: row.errors, durationMs: row.duration_ms, bytesIn: row.bytes_in, bytesOut: row.bytes_out };
}

const SUMS =
  "COALESCE(SUM(calls), 0) AS calls, COALESCE(SUM(errors), 0) AS errors, COALESCE(SUM(duration_ms), 0) AS duration_ms, " +
  "COALESCE(SUM(bytes_in), 0) AS bytes_in, COALESCE(SUM(bytes_out), 0) AS bytes_out";

export class McpUsageObject extends DurableObject<Record<string, unknown>> {
  constructor(ctx: DurableObjectState, env: Record<string, unknown>) {
    super(ctx, env);
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS buckets (hour INTEGER NOT NULL, dim TEXT NOT NULL, key TEXT NOT NULL, calls INTEGER NOT NULL, errors INTEGER NOT NULL, " +
        "duration_ms REAL NOT NULL, bytes_in INTEGER NOT NULL, bytes_out INTEGER NOT NULL, PRIMARY KEY (hour, dim, key))",
    );
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS sends (id TEXT PRIMARY KEY, at INTEGER NOT NULL)");
  }

  /**
   * Adds records to their hourly buckets (RPC). `sendId`: the id of a batched send; a send whose id
   * was already counted (a retry of one that arrived) adds nothing.
   */
  async record(records: readonly UsageRecord[], sendId?: string): Promise<void> {
    const sql = this.ctx.storage.sql;
    if (sendId !== undefined) {
      // The check and the counts are written together (no await between): a send is counted once or not at all.
      if (sql.exec("SELECT 1 FROM sends WHERE id = ?", sendId).toArray().length > 0) return;
      sql.exec("INSERT INTO sends (id, at) VALUES (?, ?)", sendId, Date.now());
    }
    for (const record of records) {
      const hour = Math.floor(record.at / HOUR_MS) * HOUR_MS;
      const error = record.outcome === "ok" ? 0 : 1;
      for (const [dim, key] of [
        ["tool", record.tool || record.method],
        ["caller", record.caller],
      ] as const) {
        sql.exec(
          "INSERT INTO buckets (hour, dim, key, calls, errors, duration_ms, bytes_in, bytes_out) VALUES (?, ?, ?, 1, ?, ?, ?, ?) " +
            "ON CONFLICT (hour, dim, key) DO UPDATE SET calls = calls + 1, errors = errors + excluded.errors, duration_ms = duration_ms + excluded.duration_ms, " +
            "bytes_in = bytes_in + excluded.bytes_in, bytes_out = bytes_out + excluded.bytes_out",
          hour,
          dim,
          key,
          error,
          record.durationMs,
          record.bytesIn,
          record.bytesOut,
        );
      }
    }
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + DAY_MS);
  }

  /** The tenant's usage over a range, grouped by tool or caller, with the hourly series (RPC). */
  report(tenant: string, query: UsageQuery): UsageReport {
    const sql = this.ctx.storage.sql;
    const from = Math.floor(query.from / HOUR_MS) * HOUR_MS;
    const range = [from, query.to] as const;
    // The hourly series counts each record once: through its `tool` row.
    const hours = sql
      .exec<CountRow & { hour: number }>(
        `SELECT hour, ${SUMS} FROM buckets WHERE dim = 'tool' AND hour >= ? AND hour < ? GROUP BY hour ORDER BY hour`,
        ...range,
      )
      .toArray()
      .map((row) => ({ hour: new Date(row.hour).toISOString(), ...counts(row) }));
    const rows = sql
      .exec<CountRow & { key: string }>(
        `SELECT key, ${SUMS} FROM buckets WHERE dim = ? AND hour >= ? AND hour < ? GROUP BY key ORDER BY calls DESC, key`,
        query.by,
        ...range,
      )
      .toArray()
      .map((row) => ({ key: row.key, ...counts(row) }));
    const total = counts(sql.exec<CountRow>(`SELECT ${SUMS} FROM buckets WHERE dim = 'tool' AND hour >= ? AND hour < ?`, ...range).one());
    return { tenant, from: new Date(from).toISOString(), to: new Date(query.to).toISOString(), by: query.by, total, hours, rows };
  }

  override async alarm(): Promise<void> {
    this.ctx.storage.sql.exec("DELETE FROM buckets WHERE hour < ?", Date.now() - USAGE_RETENTION_MS);
    this.ctx.storage.sql.exec("DELETE FROM sends WHERE at < ?", Date.now() - DAY_MS);
    const left = this.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM buckets").one().n;
    if (left > 0) await this.ctx.storage.setAlarm(Date.now() + DAY_MS);
  }
}

function checked(namespace: DurableObjectNamespace<McpUsageObject>): DurableObjectNamespace<McpUsageObject> {
  if (typeof namespace?.idFromName !== "function") throw new DefinitionError("MCP_USAGE_ROLLUPS must be a Durable Object namespace binding of McpUsageObject");
  return namespace;
}

/**
 * A usage sink and reader over the McpUsageObject namespace: one object per tenant. The sink's
 * records are sent in batches, one call per tenant per short window (see UsageBatch).
 */
export function durableUsage(namespace: DurableObjectNamespace<McpUsageObject>): UsageSink & UsageReader {
  const objects = checked(namespace);
  const stub = (tenant: string) => objects.get(objects.idFromName(tenant));
  const batch = new UsageBatch((tenant, records, sendId) => stub(tenant).record(records, sendId));
  return {
    write: (records) => batch.add(records),
    report: (tenant, query) => stub(tenant).report(tenant, query),
  };
}
