/** A least-recently-used cache bounded in entries and in bytes, whose entries also expire. */

interface Slot<V> {
  value: V;
  bytes: number;
  expiresAt: number;
}

/** Bounds of a {@link BoundedCache}. */
export interface CacheBounds {
  /** Most entries held; the least recently used goes first. */
  maxEntries: number;
  /** Most bytes held, as the caller counts them for each entry. */
  maxBytes: number;
}

/**
 * Map order is insertion order: a read moves its entry to the end, so the first key is always
 * the least recently used one, and eviction is a walk from the front.
 */
export class BoundedCache<V> {
  readonly #slots = new Map<string, Slot<V>>();
  readonly #bounds: CacheBounds;
  #bytes = 0;

  constructor(bounds: CacheBounds) {
    this.#bounds = bounds;
  }

  /** The entry under `key` when it has not expired at `now`, marked as just used. */
  get(key: string, now: number): V | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined) return undefined;
    if (slot.expiresAt <= now) return undefined;
    this.#slots.delete(key);
    this.#slots.set(key, slot);
    return slot.value;
  }

  /** The entry under `key` whether or not it expired (a refresh compares against it), without marking it used. */
  peek(key: string): V | undefined {
    return this.#slots.get(key)?.value;
  }

  /** Holds `value` until `expiresAt`; an entry larger than the whole byte bound is not held. */
  set(key: string, value: V, bytes: number, expiresAt: number): void {
    this.delete(key);
    if (bytes > this.#bounds.maxBytes) return;
    this.#slots.set(key, { value, bytes, expiresAt });
    this.#bytes += bytes;
    for (const [oldest, slot] of this.#slots) {
      if (this.#slots.size <= this.#bounds.maxEntries && this.#bytes <= this.#bounds.maxBytes) break;
      this.#slots.delete(oldest);
      this.#bytes -= slot.bytes;
    }
  }

  delete(key: string): void {
    const slot = this.#slots.get(key);
    if (slot === undefined) return;
    this.#slots.delete(key);
    this.#bytes -= slot.bytes;
  }

  clear(): void {
    this.#slots.clear();
    this.#bytes = 0;
  }

  get size(): number {
    return this.#slots.size;
  }

  get bytes(): number {
    return this.#bytes;
  }
}
