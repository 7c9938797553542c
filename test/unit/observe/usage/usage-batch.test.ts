// Usage records of an isolate's requests sent to the roll-up object together (one call per tenant per window).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_BATCH_RECORDS, USAGE_WINDOW_MS, UsageBatch, type SendUsage } from "../../../../src/observe/usage/usage-batch.ts";
import type { UsageRecord } from "../../../../src/observe/usage/usage-record.ts";

function record(tenant: string, tool = "add"): UsageRecord {
  return {
    tenant,
    caller: "c",
    method: "tools/call",
    tool,
    outcome: "ok",
    errorCode: 0,
    durationMs: 1,
    bytesIn: 2,
    bytesOut: 3,
    era: "modern",
    session: false,
    at: 0,
  };
}

describe("UsageBatch", () => {
  let sent: { tenant: string; count: number; id: string }[];
  let send: ReturnType<typeof vi.fn<SendUsage>>;
  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    send = vi.fn<SendUsage>(async (tenant, records, id) => {
      sent.push({ tenant, count: records.length, id });
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("sends a window's records in one call per tenant, held by the request that opened the window", async () => {
    const batch = new UsageBatch(send);
    let openerDone = false;
    const opener = batch.add([record("acme")])?.then(() => (openerDone = true));
    expect(opener).toBeInstanceOf(Promise);
    // Later requests of the window have nothing to wait for: the opener sends their records.
    expect(batch.add([record("acme"), record("acme", "echo")])).toBeUndefined();
    expect(batch.add([record("globex")])).toBeUndefined();
    expect(send).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(USAGE_WINDOW_MS);
    await opener;
    expect(openerDone).toBe(true);
    expect(sent.map(({ tenant, count }) => [tenant, count])).toEqual([
      ["acme", 3],
      ["globex", 1],
    ]);
    // The next record opens a new window.
    const next = batch.add([record("acme")]);
    expect(next).toBeInstanceOf(Promise);
    await vi.advanceTimersByTimeAsync(USAGE_WINDOW_MS);
    await next;
    expect(sent.map(({ count }) => count)).toEqual([3, 1, 1]);
  });

  it("sends a full window at once, under the request that filled it, and its timer sends nothing more", async () => {
    const batch = new UsageBatch(send);
    const opener = batch.add([record("acme")]);
    const many = Array.from({ length: MAX_BATCH_RECORDS - 1 }, () => record("acme"));
    const filler = batch.add(many);
    expect(filler).toBeInstanceOf(Promise);
    await filler;
    expect(sent.map(({ count }) => count)).toEqual([MAX_BATCH_RECORDS]);
    // A record after the early send opens a window of its own; the first window's timer does not send it early.
    const later = batch.add([record("acme")]);
    await vi.advanceTimersByTimeAsync(USAGE_WINDOW_MS);
    await opener;
    await later;
    expect(sent.map(({ count }) => count)).toEqual([MAX_BATCH_RECORDS, 1]);
  });

  it("retries a failed send once with the same id, and logs a second failure without throwing", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const ids: string[] = [];
    let failures = 1;
    const batch = new UsageBatch(async (_tenant, _records, id) => {
      ids.push(id);
      if (failures-- > 0) throw new Error("connection reset");
    });
    const first = batch.add([record("acme")]);
    await vi.advanceTimersByTimeAsync(USAGE_WINDOW_MS);
    await first;
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(ids[0]);
    expect(warn).not.toHaveBeenCalled();

    failures = 2;
    const second = batch.add([record("acme")]);
    await vi.advanceTimersByTimeAsync(USAGE_WINDOW_MS);
    await expect(second).resolves.toBeUndefined();
    expect(ids).toHaveLength(4);
    expect(ids[3]).toBe(ids[2]);
    expect(ids[2]).not.toBe(ids[0]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("usage records not rolled up: connection reset"));
  });

  it("adds nothing and waits for nothing for no records", () => {
    const batch = new UsageBatch(send);
    expect(batch.add([])).toBeUndefined();
    expect(send).not.toHaveBeenCalled();
  });
});
