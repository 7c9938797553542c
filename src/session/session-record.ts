/** What a legacy (2025-era) session keeps, and the storage a session needs from its host. */

import type { JsonObject } from "../core/types.ts";

export interface SessionRecord {
  /** SHA-256 (hex) of the full session id: a request must present the id, not just reach the object. */
  idHash: string;
  /** The tenant that serves the session. */
  tenant: string;
  /** The admission's caller key (tenant and principal) that created the session; anyone else gets 404. */
  caller: string;
  /** The revision negotiated by `initialize`. */
  protocolVersion: string;
  clientCapabilities: JsonObject;
  clientInfo: JsonObject | undefined;
  /** Set by `logging/setLevel`; info and above until then. */
  logLevel: string | undefined;
  /** URIs from `resources/subscribe`. */
  subscriptions: string[];
  createdAt: number;
  lastSeen: number;
}

/** One persisted SSE event of a session stream (for `Last-Event-ID` replay). */
export interface StoredEvent {
  seq: number;
  data: string;
}

/** Storage of one session, provided by its host (a Durable Object with SQLite storage). */
export interface SessionStorage {
  loadRecord(): Promise<SessionRecord | undefined>;
  saveRecord(record: SessionRecord): Promise<void>;
  /** Appends an event of a stream; the log keeps the most recent events only (bounded). */
  appendEvent(stream: string, seq: number, data: string): void;
  /** The events of a stream after `seq`, oldest first. */
  eventsAfter(stream: string, seq: number): StoredEvent[];
  /** Runs `expire` at `at` (epoch ms); the host's alarm. */
  scheduleExpiry(at: number): Promise<void>;
  /** Deletes everything the session stored. */
  deleteAll(): Promise<void>;
}

/** Session storage in memory, for tests and single-isolate development. */
export function createMemorySessionStorage(maxEvents = 1000): SessionStorage & { expiry: number | undefined } {
  let record: SessionRecord | undefined;
  let events: { stream: string; seq: number; data: string }[] = [];
  const storage = {
    expiry: undefined as number | undefined,
    async loadRecord() {
      return record === undefined ? undefined : structuredClone(record);
    },
    async saveRecord(next: SessionRecord) {
      record = structuredClone(next);
    },
    appendEvent(stream: string, seq: number, data: string) {
      events.push({ stream, seq, data });
      if (events.length > maxEvents) events = events.slice(-maxEvents);
    },
    eventsAfter(stream: string, seq: number) {
      return events.filter((e) => e.stream === stream && e.seq > seq).map(({ seq: s, data }) => ({ seq: s, data }));
    },
    async scheduleExpiry(at: number) {
      storage.expiry = at;
    },
    async deleteAll() {
      record = undefined;
      events = [];
      storage.expiry = undefined;
    },
  };
  return storage;
}
