/**
 * The usage records of an isolate's requests, sent to the roll-up object together: the first
 * request with a record opens a short window and sends what the requests of that window wrote, one
 * call per tenant, under its own `waitUntil`; later requests only add theirs. Each send carries an
 * id, so a retried send that had in fact arrived is not counted twice.
 */

import { SendWindow } from "../otlp/send-window.ts";
import type { UsageRecord } from "./usage-record.ts";

/** How long a window stays open: records reach the roll-ups at most this much later. */
export const USAGE_WINDOW_MS = 100;
/** A window holding this many records is sent at once. */
export const MAX_BATCH_RECORDS = 256;

/** Sends one tenant's records; `sendId` is the same when a failed send is retried. */
export type SendUsage = (tenant: string, records: readonly UsageRecord[], sendId: string) => Promise<void>;

const warn = (error: unknown): void => console.warn(`edge-mcp: usage records not rolled up: ${error instanceof Error ? error.message : String(error)}`);

export class UsageBatch {
  readonly #send: SendUsage;
  /** Records per tenant (a tenant id comes from the Worker's config, never from the client). */
  #pending = new Map<string, UsageRecord[]>();
  #count = 0;
  readonly #window = new SendWindow(USAGE_WINDOW_MS, () => this.#flush());

  constructor(send: SendUsage) {
    this.#send = send;
  }

  /**
   * Adds a request's records. Returns the send to wait for when this request opened the window or
   * filled it, else undefined: the request that opened the window sends them (its `waitUntil`
   * holds the window open), so no record is left behind when an invocation ends.
   */
  add(records: readonly UsageRecord[]): Promise<void> | undefined {
    if (records.length === 0) return undefined;
    for (const record of records) {
      const list = this.#pending.get(record.tenant);
      if (list) list.push(record);
      else this.#pending.set(record.tenant, [record]);
      this.#count++;
    }
    return this.#window.added(this.#count >= MAX_BATCH_RECORDS);
  }

  #flush(): Promise<void> {
    const pending = this.#pending;
    this.#pending = new Map();
    this.#count = 0;
    const sends: Promise<void>[] = [];
    for (const [tenant, records] of pending) sends.push(this.#sendOnce(tenant, records));
    return Promise.all(sends).then(() => undefined);
  }

  /** Sends with one retry under the same id; a second failure is logged, never thrown. */
  async #sendOnce(tenant: string, records: readonly UsageRecord[]): Promise<void> {
    const id = crypto.randomUUID();
    try {
      await this.#send(tenant, records, id);
    } catch {
      await this.#send(tenant, records, id).catch(warn);
    }
  }
}
