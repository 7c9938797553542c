/**
 * One hub subscription shared by the listeners of an isolate: one of them (the holder) reads the
 * hub's stream inside its own request and fans each notification out to the others; when the
 * holder leaves, another listener takes the subscription over and resumes where it stopped.
 */

import type { JsonObject } from "../../core/types.ts";
import type { ChangeSink, ChangeSource } from "./change-hub.ts";
import { REFRESH_WINDOW_MS } from "./refresh-notifications.ts";
import { wants, type SubscriptionFilter } from "./subscription-filter.ts";

/** A place in one hub's sequence of notifications (the epoch changes when the hub restarts). */
export interface HubPosition {
  epoch: string;
  seq: number;
}

/**
 * Opens the hub's stream of NDJSON lines: first `{"hub": {epoch, seq, resumed}}`, then
 * `{"seq", "method", "params"}` per notification and blank heartbeat lines. With `after`, the hub
 * replays what followed that position (`resumed: true`) or says it cannot (`resumed: false`).
 */
export type OpenHubStream = (after: HubPosition | undefined, signal: AbortSignal) => Promise<ReadableStream<Uint8Array>>;

/** How often a listener without its own timer (`sink.watch`) checks that the holder still hears the hub. */
const WATCHDOG_MS = 5_000;
/** The hub writes a heartbeat every 5 s: this much silence means the holder's request is gone. */
const SILENCE_MS = 15_000;
/**
 * Takeovers that fail before the hub answers (the successor's request was ending too, as when many
 * clients leave at once) are passed to another listener this many times in a row, then every
 * subscription ends.
 */
const MAX_FAILED_TAKEOVERS = 5;

interface Member {
  filter: SubscriptionFilter;
  sink: ChangeSink;
  ready: boolean;
  left: boolean;
  /** Its request could not open the hub stream: not asked again until the stream is live. */
  unfit: boolean;
}

interface Connection {
  holder: Member;
  controller: AbortController;
  /** The hub answered (its first line arrived). */
  answered: boolean;
}

type State = "idle" | "opening" | "live" | "handover";

interface HubHello {
  /** `restartedAgo`: set when this hub replaced an instance that had listeners; ms since it started. */
  hub: { epoch: string; seq: number; resumed: boolean; restartedAgo?: number };
}

interface HubLine {
  seq: number;
  method: string;
  params: JsonObject;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A {@link ChangeSource} over one hub stream per isolate. Workers rules it follows: the stream is
 * opened, read and cancelled only inside the holder's request; other listeners are only queued to
 * and woken (`ChangeSink`), and a takeover runs inside the successor's request (`sink.run`).
 * Listeners see every notification once, in order, while they are subscribed: the holder resumes
 * after the last sequence number seen, and a hub that cannot replay ends every subscription.
 * Listeners that join soon after such an end, or soon after the hub replaced an instance that had
 * listeners, are told that they may have missed changes (`ready(true)`).
 */
export class SharedSubscription implements ChangeSource {
  readonly #open: OpenHubStream;
  readonly #members = new Set<Member>();
  #state: State = "idle";
  #since = 0;
  #connection: Connection | undefined;
  #position: HubPosition | undefined;
  #heardAt = 0;
  #successor: Member | undefined;
  #failedTakeovers = 0;
  /** Until then, a listener that joins may have missed changes (a gap, or a hub that just restarted). */
  #refreshUntil = 0;

  constructor(open: OpenHubStream) {
    this.#open = open;
  }

  /** Listeners subscribed, and whether a hub stream is being read (diagnostics and tests). */
  get stats(): { members: number; state: State } {
    return { members: this.#members.size, state: this.#state };
  }

  subscribe(filter: SubscriptionFilter, sink: ChangeSink): () => void {
    const member: Member = { filter, sink, ready: false, left: false, unfit: false };
    this.#members.add(member);
    if (this.#state === "idle") this.#connect(member, undefined);
    else if (this.#stalled()) this.#takeOver(member);
    else if (this.#state === "live") this.#makeReady(member);
    // Opening or handing over: the member is acknowledged once the stream is live.
    this.#watch(member);
    return () => this.#leave(member);
  }

  /** True when the stream should have spoken by now: its holder's request ended without leaving. */
  #stalled(): boolean {
    const now = Date.now();
    if (this.#state === "live") return now - this.#heardAt > SILENCE_MS;
    return this.#state !== "idle" && now - this.#since > SILENCE_MS;
  }

  /** A check in the member's own request, now and then: if the holder stalls, this member takes over. */
  #watch(member: Member): void {
    const check = () => {
      if (!member.left && this.#connection?.holder !== member && this.#stalled()) this.#takeOver(member);
    };
    if (member.sink.watch) return member.sink.watch(check);
    const timer = setInterval(() => {
      // Cleared here, in the request that set it (a timer cannot be cleared from another request).
      if (member.left) clearInterval(timer);
      else check();
    }, WATCHDOG_MS);
  }

  #setState(state: State): void {
    this.#state = state;
    this.#since = Date.now();
  }

  /**
   * Acknowledges a member. Within the refresh window it is told that changes may have passed it
   * by: it is most likely a client back from a subscription that ended, and nothing is kept
   * between subscriptions (2026-07-28 subscriptions), so it cannot be told what it missed.
   */
  #makeReady(member: Member): void {
    if (member.ready || member.left) return;
    member.ready = true;
    try {
      member.sink.ready?.(Date.now() < this.#refreshUntil);
    } catch (error) {
      console.error("edge-mcp: a change listener failed", error);
    }
  }

  /** Opens the hub stream inside `holder`'s request (the caller runs there), resuming after `after`. */
  #connect(holder: Member, after: HubPosition | undefined): void {
    const connection = { holder, controller: new AbortController(), answered: false };
    this.#connection = connection;
    this.#successor = undefined;
    this.#setState("opening");
    void this.#read(connection, after);
  }

  #takeOver(member: Member): void {
    // A stalled holder's stream is left alone (its request is gone); it stops at its next read.
    this.#connect(member, this.#position);
  }

  async #read(connection: Connection, after: HubPosition | undefined): Promise<void> {
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    try {
      const body = await this.#open(after, connection.controller.signal);
      // A plain reader and a TextDecoder, not pipeThrough(TextDecoderStream): on workerd
      // 1.20260426 a pipe whose source was aborted when its request went away kept about 2 KiB
      // reachable per subscription (measured: 100 subscriptions per cycle, heap after a full GC).
      reader = body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        if (this.#connection !== connection) break;
        const { value, done } = await reader.read();
        if (this.#connection !== connection) break;
        if (done) {
          this.#fail("the notification hub closed the subscription");
          return;
        }
        this.#heardAt = Date.now();
        buffer += decoder.decode(value, { stream: true });
        for (let end = buffer.indexOf("\n"); end !== -1 && this.#connection === connection; end = buffer.indexOf("\n")) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 1);
          if (line.trim() === "") continue;
          connection.answered = true;
          this.#line(JSON.parse(line) as HubHello | HubLine, after);
        }
      }
      // Replaced (handed over, or the last listener left): this request lets go of its stream.
      void reader.cancel().catch(() => {});
    } catch (error) {
      if (this.#connection !== connection || connection.controller.signal.aborted) return;
      if (!connection.answered && this.#failedTakeovers < MAX_FAILED_TAKEOVERS) {
        // The holder's request could not open the stream (it is most likely ending): another takes over.
        connection.holder.unfit = true;
        this.#failedTakeovers++;
        this.#connection = undefined;
        this.#setState("handover");
        if (this.#handOver()) return;
      }
      this.#fail(`the notification hub subscription failed: ${messageOf(error)}`);
    }
  }

  #line(message: HubHello | HubLine, after: HubPosition | undefined): void {
    if ("hub" in message) {
      if (after && !message.hub.resumed) {
        this.#fail("the notification hub restarted or no longer holds the notifications missed during a handover");
        return;
      }
      this.#position = after ?? { epoch: message.hub.epoch, seq: message.hub.seq };
      // A hub that replaced one with listeners may have lost what was published while it restarted.
      const ago = message.hub.restartedAgo;
      if (typeof ago === "number") this.#refreshUntil = Math.max(this.#refreshUntil, Date.now() - ago + REFRESH_WINDOW_MS);
      this.#setState("live");
      this.#failedTakeovers = 0;
      for (const member of this.#members) member.unfit = false;
      for (const member of this.#members) this.#makeReady(member);
      return;
    }
    const position = this.#position;
    if (!position || message.seq <= position.seq) return; // replayed twice: delivered already
    position.seq = message.seq;
    for (const member of this.#members) {
      if (!member.ready || !wants(member.filter, message.method, message.params)) continue;
      try {
        member.sink.send(message.method, message.params);
      } catch (error) {
        console.error("edge-mcp: a change listener failed", error);
      }
    }
  }

  /** The stream ended or lost notifications: every subscription ends (its listener reconnects). */
  #fail(reason: string): void {
    // The listeners ended here will be back, having missed whatever comes in between.
    this.#refreshUntil = Date.now() + REFRESH_WINDOW_MS;
    const connection = this.#connection;
    this.#connection = undefined;
    this.#successor = undefined;
    this.#position = undefined;
    this.#failedTakeovers = 0;
    this.#setState("idle");
    // Runs in the holder's request (its read loop): cancelling its own stream is allowed.
    connection?.controller.abort();
    const ended = [...this.#members];
    this.#members.clear();
    if (ended.length > 0) console.warn(`edge-mcp: ended ${ended.length} change subscription(s): ${reason}`);
    for (const member of ended) {
      member.left = true;
      try {
        member.sink.end?.(reason);
      } catch (error) {
        console.error("edge-mcp: a change listener failed to end", error);
      }
    }
  }

  /** Called from the leaving member's own request (its stream closed or its client went away). */
  #leave(member: Member): void {
    if (member.left) return;
    member.left = true;
    this.#members.delete(member);
    const holding = this.#connection?.holder === member;
    if (holding) {
      this.#connection?.controller.abort();
      this.#connection = undefined;
    }
    if (this.#members.size === 0) {
      // Nobody listens: the next listener starts afresh (a stalled holder's stream stops at its next read).
      this.#connection = undefined;
      this.#successor = undefined;
      this.#position = undefined;
      this.#failedTakeovers = 0;
      this.#setState("idle");
      return;
    }
    if (holding) this.#setState("handover");
    if ((holding || this.#successor === member) && !this.#handOver()) this.#fail("no listener left could hold the notification hub subscription");
  }

  /** Asks another member to take the stream over inside its own request; false when none can. */
  #handOver(): boolean {
    let successor: Member | undefined;
    for (const member of this.#members) if (!member.unfit) successor = member; // the newest: likely to stay longest
    if (!successor) return false;
    this.#successor = successor;
    const chosen = successor;
    const takeOver = () => {
      if (this.#successor === chosen && !chosen.left && this.#state === "handover") this.#takeOver(chosen);
    };
    if (chosen.sink.run) chosen.sink.run(takeOver);
    else takeOver(); // a sink without its own request (one Durable Object) runs it here
    return true;
  }
}
