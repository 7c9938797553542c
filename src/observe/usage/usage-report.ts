/** The usage report of one tenant over a time range, as the usage object answers it and the view shows it. */

/** Usage is grouped by tool (a tool's name, or the method for other requests) or by caller id. */
export type UsageDimension = "tool" | "caller";

export interface UsageQuery {
  /** Start of the range, ms since the epoch (rounded down to the hour). */
  readonly from: number;
  /** End of the range (exclusive), ms since the epoch. */
  readonly to: number;
  readonly by: UsageDimension;
}

/** Calls, errors and totals of one group or one hour. */
export interface UsageCounts {
  calls: number;
  errors: number;
  durationMs: number;
  bytesIn: number;
  bytesOut: number;
}

export interface UsageReport {
  readonly tenant: string;
  readonly from: string;
  readonly to: string;
  readonly by: UsageDimension;
  readonly total: UsageCounts;
  /** One entry per hour with traffic, oldest first (`hour`: ISO 8601). */
  readonly hours: ReadonlyArray<UsageCounts & { hour: string }>;
  /** One entry per tool or caller, most calls first. */
  readonly rows: ReadonlyArray<UsageCounts & { key: string }>;
}

/** Where a usage report comes from (the usage object of a tenant). */
export interface UsageReader {
  report(tenant: string, query: UsageQuery): Promise<UsageReport>;
}

export const HOUR_MS = 3_600_000;
