/** The Admission record: what the one admission stage decided about a request, handed down as data. */

import { isObject as isRecord } from "./json.ts";
import type { Principal } from "./principal.ts";

/** Limits on each tool call of a tenant. */
export interface CallLimits {
  /** A tool call that has not finished by then answers with an isError result (its late result is dropped). */
  readonly toolTimeoutMs?: number;
  /** A tool result whose JSON is larger is replaced by an isError result. */
  readonly maxResultBytes?: number;
}

/** Things a caller can keep alive after its request ends (or while it streams), each counted against a quota. */
export type QuotaKind = "handles" | "sessions" | "tasks" | "streams";

/** How many live things of one kind a principal, all anonymous callers together, and a whole tenant may hold. */
export interface QuotaLimit {
  /** Per principal; an anonymous caller is counted by its network (IPv4 address, IPv6 /64). */
  readonly perPrincipal: number;
  readonly perTenant: number;
  /**
   * All anonymous callers of the tenant together. One client may hold many networks (a /48 is
   * 65,536 /64s), so per-network counts alone cannot keep it from filling the tenant's allowance.
   * Unset: no bound beyond `perTenant` (the defaults set it).
   */
  readonly anonymous?: number;
}

export type Quotas = Readonly<Record<QuotaKind, QuotaLimit>>;

/**
 * Sensible defaults: enough for real use, small enough that one caller cannot fill storage.
 * Anonymous callers together get a fifth of the tenant's allowance; `streams` are listen streams
 * (`subscriptions/listen` and a session's GET streams), counted while open.
 */
export const DEFAULT_QUOTAS: Quotas = {
  handles: { perPrincipal: 100, perTenant: 10_000, anonymous: 2_000 },
  sessions: { perPrincipal: 50, perTenant: 5_000, anonymous: 1_000 },
  tasks: { perPrincipal: 100, perTenant: 10_000, anonymous: 2_000 },
  streams: { perPrincipal: 16, perTenant: 10_000, anonymous: 2_000 },
};

/** W3C trace context (SEP-414 `_meta` or the headers), as it travels to services and objects. */
export interface TraceCarrier {
  readonly traceparent: string;
  readonly tracestate?: string;
  readonly baggage?: string;
}

/**
 * Who is asking and within which limits. Built once per request by admission; passed as
 * structured data to handlers, to session and task objects, and to tool services. Nothing
 * downstream re-derives identity from it.
 */
export interface Admission {
  /** The tenant serving the request (`default` for a single-tenant Worker). */
  readonly tenant: string;
  /** The verified caller, when the tenant requires auth. */
  readonly principal: Principal | undefined;
  /** {@link callerKey} of tenant and principal: binds handles, sessions, requestState and cursors. */
  readonly caller: string;
  /**
   * Whom quotas count: the caller, or for an anonymous caller its client address when the
   * platform gives one (anonymous callers would otherwise share one tenant-wide allowance).
   */
  readonly quotaHolder: string;
  readonly limits: CallLimits;
  readonly quotas: Quotas;
  /** The span this request runs under, when it is traced: what a tool service or object joins. */
  readonly trace?: TraceCarrier;
}

/**
 * Serialises an Admission for an object that runs the request elsewhere (a session object).
 * The JSON is pure ASCII (other characters are `\u` escapes), so it can travel in a header.
 */
export function encodeAdmission(admission: Admission): string {
  return JSON.stringify(admission).replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * Reads an Admission written by {@link encodeAdmission}. Only the Worker writes it (on requests
 * it forwards to its own Durable Objects, never copied from a client); the shape is still
 * checked, so a malformed record is refused rather than half-trusted.
 */
export function decodeAdmission(text: string | null): Admission | undefined {
  if (text === null) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || typeof value["tenant"] !== "string" || typeof value["caller"] !== "string" || typeof value["quotaHolder"] !== "string")
    return undefined;
  const principal = value["principal"];
  if (
    principal !== undefined &&
    !(isRecord(principal) && typeof principal["issuer"] === "string" && typeof principal["subject"] === "string" && Array.isArray(principal["scopes"]))
  ) {
    return undefined;
  }
  if (!isRecord(value["limits"]) || !isRecord(value["quotas"])) return undefined;
  return value as unknown as Admission;
}
