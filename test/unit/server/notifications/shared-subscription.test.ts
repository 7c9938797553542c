// One hub subscription per isolate: shared by listeners, handed over when its holder leaves, ended with the hub.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChangeSink } from "../../../../src/server/notifications/change-hub.ts";
import { SharedSubscription, type HubPosition } from "../../../../src/server/notifications/shared-subscription.ts";

const encoder = new TextEncoder();

/** A hub stand-in: each `open` gives a stream the test writes NDJSON lines into. */
function fakeHub() {
  const opened: { after: HubPosition | undefined; signal: AbortSignal; write(line: unknown): void; end(): void }[] = [];
  const open = async (after: HubPosition | undefined, signal: AbortSignal) => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    opened.push({
      after,
      signal,
      write: (line) => controller.enqueue(encoder.encode(typeof line === "string" ? line : `${JSON.stringify(line)}\n`)),
      end: () => controller.close(),
    });
    return body;
  };
  return { open, opened };
}

interface Recorded {
  sink: Required<Pick<ChangeSink, "send" | "ready" | "end" | "run">> & ChangeSink;
  events: string[];
  tasks: (() => void)[];
}

function recorder(): Recorded {
  const events: string[] = [];
  const tasks: (() => void)[] = [];
  return {
    events,
    tasks,
    sink: {
      send: (method, params) => events.push(`${method} ${JSON.stringify(params)}`),
      ready: (missed) => events.push(missed === true ? "ready, may have missed changes" : "ready"),
      end: (reason) => events.push(`end: ${reason}`),
      run: (task) => tasks.push(task),
    },
  };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const hello = (seq: number, resumed = false) => ({ hub: { epoch: "e1", seq, resumed } });
const updated = (seq: number, uri: string) => ({ seq, method: "notifications/resources/updated", params: { uri } });
const TOOLS = { toolsListChanged: true };
const ALL = { toolsListChanged: true, resourceSubscriptions: ["a://"] };

afterEach(() => {
  vi.useRealTimers();
});

describe("SharedSubscription", () => {
  it("opens one hub stream for every listener and acknowledges them once the hub speaks", async () => {
    const hub = fakeHub();
    const pool = new SharedSubscription(hub.open);
    const a = recorder();
    const b = recorder();
    pool.subscribe(TOOLS, a.sink);
    pool.subscribe(ALL, b.sink);
    await flush();
    expect(hub.opened).toHaveLength(1);
    expect(a.events).toEqual([]);
    hub.opened[0]?.write(hello(7));
    hub.opened[0]?.write({ seq: 8, method: "notifications/tools/list_changed", params: {} });
    hub.opened[0]?.write(updated(9, "a://x"));
    await flush();
    expect(a.events).toEqual(["ready", "notifications/tools/list_changed {}"]);
    expect(b.events).toEqual(["ready", "notifications/tools/list_changed {}", 'notifications/resources/updated {"uri":"a://x"}']);
  });

  it("acknowledges a listener that joins a live stream at once, and gives it only what follows", async () => {
    const hub = fakeHub();
    const pool = new SharedSubscription(hub.open);
    pool.subscribe(TOOLS, recorder().sink);
    await flush();
    hub.opened[0]?.write(hello(0));
    hub.opened[0]?.write(updated(1, "a://before"));
    await flush();
    const late = recorder();
    pool.subscribe(ALL, late.sink);
    hub.opened[0]?.write(updated(2, "a://after"));
    await flush();
    expect(late.events).toEqual(["ready", 'notifications/resources/updated {"uri":"a://after"}']);
    expect(hub.opened).toHaveLength(1);
  });

  it("hands the stream to another listener inside that listener's request, resuming after the last notification once", async () => {
    const hub = fakeHub();
    const pool = new SharedSubscription(hub.open);
    const holder = recorder();
    const other = recorder();
    const leave = pool.subscribe(ALL, holder.sink);
    pool.subscribe(ALL, other.sink);
    await flush();
    hub.opened[0]?.write(hello(3));
    hub.opened[0]?.write(updated(4, "a://1"));
    await flush();
    leave();
    expect(hub.opened[0]?.signal.aborted).toBe(true);
    // Nothing is opened until the successor runs the takeover in its own request.
    await flush();
    expect(hub.opened).toHaveLength(1);
    expect(other.tasks).toHaveLength(1);
    other.tasks[0]?.();
    await flush();
    expect(hub.opened[1]?.after).toEqual({ epoch: "e1", seq: 4 });
    hub.opened[1]?.write(hello(5, true));
    hub.opened[1]?.write(updated(4, "a://1")); // already delivered
    hub.opened[1]?.write(updated(5, "a://2"));
    await flush();
    expect(other.events).toEqual(["ready", 'notifications/resources/updated {"uri":"a://1"}', 'notifications/resources/updated {"uri":"a://2"}']);
    expect(pool.stats).toEqual({ members: 1, state: "live" });
  });

  it("ends every subscription when the hub stream ends, and starts afresh for the next listener", async () => {
    const hub = fakeHub();
    const pool = new SharedSubscription(hub.open);
    const a = recorder();
    const b = recorder();
    pool.subscribe(TOOLS, a.sink);
    pool.subscribe(TOOLS, b.sink);
    await flush();
    hub.opened[0]?.write(hello(1));
    await flush();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    hub.opened[0]?.end();
    await flush();
    warn.mockRestore();
    expect(a.events).toEqual(["ready", "end: the notification hub closed the subscription"]);
    expect(b.events.at(-1)).toMatch(/^end: /);
    expect(pool.stats).toEqual({ members: 0, state: "idle" });
    pool.subscribe(TOOLS, recorder().sink);
    await flush();
    expect(hub.opened).toHaveLength(2);
    expect(hub.opened[1]?.after).toBeUndefined();
  });

  it("ends every subscription when the hub cannot replay what a handover missed", async () => {
    const hub = fakeHub();
    const pool = new SharedSubscription(hub.open);
    const leave = pool.subscribe(TOOLS, recorder().sink);
    const other = recorder();
    pool.subscribe(TOOLS, other.sink);
    await flush();
    hub.opened[0]?.write(hello(1));
    await flush();
    leave();
    other.tasks[0]?.();
    await flush();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    hub.opened[1]?.write({ hub: { epoch: "e2", seq: 0, resumed: false } });
    await flush();
    warn.mockRestore();
    expect(other.events.at(-1)).toMatch(/^end: the notification hub restarted/);
    expect(hub.opened[1]?.signal.aborted).toBe(true);
  });

  it("lets go of the hub stream when the last listener leaves", async () => {
    const hub = fakeHub();
    const pool = new SharedSubscription(hub.open);
    const leaveA = pool.subscribe(TOOLS, recorder().sink);
    const leaveB = pool.subscribe(TOOLS, recorder().sink);
    await flush();
    hub.opened[0]?.write(hello(1));
    await flush();
    leaveB();
    expect(hub.opened[0]?.signal.aborted).toBe(false);
    leaveA();
    leaveA();
    expect(hub.opened[0]?.signal.aborted).toBe(true);
    expect(pool.stats).toEqual({ members: 0, state: "idle" });
  });

  it("passes the handover on when the chosen successor leaves before taking over", async () => {
    const hub = fakeHub();
    const pool = new SharedSubscription(hub.open);
    const leaveHolder = pool.subscribe(TOOLS, recorder().sink);
    const first = recorder();
    pool.subscribe(TOOLS, first.sink);
    const second = recorder();
    const leaveSecond = pool.subscribe(TOOLS, second.sink);
    await flush();
    hub.opened[0]?.write(hello(1));
    await flush();
    leaveHolder();
    expect(second.tasks).toHaveLength(1); // the newest member is asked first
    leaveSecond();
    second.tasks[0]?.(); // too late: it left
    expect(first.tasks).toHaveLength(1);
    first.tasks[0]?.();
    await flush();
    expect(hub.opened).toHaveLength(2);
  });

  it("passes a takeover that cannot open the stream to another listener, and keeps the position", async () => {
    let failNext = false;
    const hub = fakeHub();
    const pool = new SharedSubscription((after, signal) =>
      failNext ? ((failNext = false), Promise.reject(new Error("ending request"))) : hub.open(after, signal),
    );
    const leaveHolder = pool.subscribe(TOOLS, recorder().sink);
    const steady = recorder();
    pool.subscribe(TOOLS, steady.sink);
    const ending = recorder();
    pool.subscribe(TOOLS, ending.sink);
    await flush();
    hub.opened[0]?.write(hello(4));
    await flush();
    leaveHolder();
    failNext = true;
    ending.tasks[0]?.(); // the newest, asked first: its request cannot open the stream
    await flush();
    expect(steady.tasks).toHaveLength(1);
    steady.tasks[0]?.();
    await flush();
    expect(hub.opened[1]?.after).toEqual({ epoch: "e1", seq: 4 });
    hub.opened[1]?.write(hello(4, true));
    hub.opened[1]?.write({ seq: 5, method: "notifications/tools/list_changed", params: {} });
    await flush();
    expect(steady.events).toEqual(["ready", "notifications/tools/list_changed {}"]);
    expect(ending.events).toEqual(["ready", "notifications/tools/list_changed {}"]);
  });

  it("ends listeners that were never acknowledged when the hub cannot be reached", async () => {
    const pool = new SharedSubscription(() => Promise.reject(new Error("no route")));
    const a = recorder();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    pool.subscribe(TOOLS, a.sink);
    await flush();
    warn.mockRestore();
    expect(a.events).toEqual(["end: the notification hub subscription failed: no route"]);
    expect(pool.stats).toEqual({ members: 0, state: "idle" });
  });

  it("checks the holder from a listener's own timer when the listener offers one, and sets none itself", async () => {
    vi.useFakeTimers();
    const hub = fakeHub();
    const pool = new SharedSubscription(hub.open);
    pool.subscribe(TOOLS, recorder().sink); // its request dies without leaving
    const checks: (() => void)[] = [];
    pool.subscribe(TOOLS, { ...recorder().sink, watch: (check) => checks.push(check) });
    await vi.advanceTimersByTimeAsync(0);
    hub.opened[0]?.write(hello(2));
    await vi.advanceTimersByTimeAsync(0);
    expect(checks).toHaveLength(1);
    vi.setSystemTime(Date.now() + 16_000);
    checks[0]?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(hub.opened).toHaveLength(2);
    expect(hub.opened[1]?.after).toEqual({ epoch: "e1", seq: 2 });
  });

  it("takes over from a holder whose request went silent (no heartbeat for 15 s)", async () => {
    vi.useFakeTimers();
    const hub = fakeHub();
    const pool = new SharedSubscription(hub.open);
    pool.subscribe(TOOLS, recorder().sink); // its request dies without leaving
    const survivor = recorder();
    pool.subscribe(TOOLS, survivor.sink);
    await vi.advanceTimersByTimeAsync(0);
    hub.opened[0]?.write(hello(2));
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(13_000);
    expect(hub.opened).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(8_000);
    expect(hub.opened).toHaveLength(2);
    expect(hub.opened[1]?.after).toEqual({ epoch: "e1", seq: 2 });
  });
});

describe("SharedSubscription after a gap", () => {
  const MISSED = ["ready, may have missed changes"];

  it("tells listeners that join within 30 s of the hub stream's end that they may have missed changes, and later ones nothing", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const hub = fakeHub();
    const pool = new SharedSubscription(hub.open);
    const before = recorder();
    pool.subscribe(ALL, before.sink);
    await flush();
    hub.opened[0]?.write(hello(0));
    await flush();
    expect(before.events).toEqual(["ready"]);
    hub.opened[0]?.end(); // the hub went away: every subscription ends, clients come back
    await flush();
    expect(before.events.at(-1)).toMatch(/^end: /);

    vi.setSystemTime(Date.now() + 3_000);
    const back = recorder();
    pool.subscribe(ALL, back.sink);
    await flush();
    hub.opened[1]?.write({ hub: { epoch: "e2", seq: 0, resumed: false } });
    await flush();
    expect(back.events).toEqual(MISSED);

    vi.setSystemTime(Date.now() + 30_000);
    hub.opened[1]?.write("\n"); // a heartbeat: the stream is live
    await flush();
    const later = recorder();
    pool.subscribe(ALL, later.sink);
    await flush();
    expect(later.events).toEqual(["ready"]);
  });

  it("tells them so when the hub replaced an instance that had listeners less than 30 s ago, not otherwise", async () => {
    const hub = fakeHub();
    const joined = async (line: unknown) => {
      const listener = recorder();
      new SharedSubscription(hub.open).subscribe(ALL, listener.sink);
      await flush();
      hub.opened.at(-1)?.write(line);
      await flush();
      return listener.events;
    };
    expect(await joined({ hub: { epoch: "e1", seq: 0, resumed: false, restartedAgo: 2_000 } })).toEqual(MISSED);
    expect(await joined({ hub: { epoch: "e1", seq: 0, resumed: false, restartedAgo: 40_000 } })).toEqual(["ready"]);
    expect(await joined({ hub: { epoch: "e1", seq: 0, resumed: false } })).toEqual(["ready"]);
  });
});
