/** A resumable SSE stream of a session: event ids, a priming event, and replay from the event log. */

import { randomToken } from "../core/bytes.ts";
import type { ResponseStream } from "../http/exchange.ts";
import { SseStream } from "../http/sse-stream.ts";
import type { SessionStorage } from "./session-record.ts";

/** Splits a `Last-Event-ID` into the stream it belongs to and the last event seen. */
export function parseEventId(value: string): { stream: string; seq: number } | undefined {
  const at = value.lastIndexOf(".");
  if (at <= 0) return undefined;
  const seq = Number(value.slice(at + 1));
  return Number.isSafeInteger(seq) && seq >= 0 ? { stream: value.slice(0, at), seq } : undefined;
}

export interface SessionStreamOptions {
  storage: SessionStorage;
  /** The `retry` (ms) sent in the priming event: how long a client waits before reconnecting. */
  retryMs: number;
  /**
   * Writes an SSE comment this often while the stream is open. Workers notice a client that left
   * only when they next write, so idle streams need a heartbeat to be cleaned up.
   */
  keepAliveMs?: number;
}

/**
 * One logical stream, which may outlive its HTTP connection. Every event gets an id
 * `<stream>.<seq>` (unique across the session) and is logged before it is written, so a client
 * that reconnects with `Last-Event-ID` gets what it missed (2025-11-25 transports, resumability).
 * A client going away only detaches the connection: in 2025 a disconnect is not a cancellation.
 */
export class SessionStream implements ResponseStream {
  readonly id = randomToken(9);
  readonly #options: SessionStreamOptions;
  #seq = 0;
  #connection: SseStream | undefined;
  #done = false;
  /** The first connection's response, opened with a priming event (id, empty data, retry). */
  readonly response: Response;

  #keepAlive: ReturnType<typeof setInterval> | undefined;

  constructor(options: SessionStreamOptions) {
    this.#options = options;
    this.response = this.#connect(undefined);
    if (options.keepAliveMs !== undefined) this.#keepAlive = setInterval(() => this.#connection?.comment("keep-alive"), options.keepAliveMs);
  }

  get done(): boolean {
    return this.#done;
  }

  /** A new connection that replays the events after `afterSeq`, then goes on live (or ends if done). */
  resume(afterSeq: number): Response {
    return this.#connect(afterSeq);
  }

  send(json: string): void {
    if (this.#done) return;
    const seq = ++this.#seq;
    this.#options.storage.appendEvent(this.id, seq, json);
    this.#connection?.raw(this.#event(seq, json));
  }

  close(): void {
    this.#done = true;
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    this.#connection?.close();
    this.#connection = undefined;
  }

  /** Ends the current connection without ending the stream: the client reconnects and resumes. */
  disconnect(): void {
    this.#connection?.close();
    this.#connection = undefined;
  }

  #event(seq: number, json: string): string {
    return `id: ${this.id}.${seq}\nevent: message\ndata: ${json}\n\n`;
  }

  #connect(afterSeq: number | undefined): Response {
    this.#connection?.close();
    const connection = new SseStream(() => {
      if (this.#connection === connection) this.#connection = undefined;
    });
    if (afterSeq === undefined) {
      // Priming event (SEP-1699): an id to resume from, empty data, and how long to wait.
      connection.raw(`id: ${this.id}.${this.#seq}\nretry: ${this.#options.retryMs}\ndata: \n\n`);
    } else {
      for (const event of this.#options.storage.eventsAfter(this.id, afterSeq)) connection.raw(this.#event(event.seq, event.data));
    }
    if (this.#done) connection.close();
    else this.#connection = connection;
    return connection.response;
  }
}
