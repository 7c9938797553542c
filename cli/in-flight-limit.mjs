// A bound on the requests the stdio relay has in flight: beyond it, they wait in order of arrival.

/**
 * @typedef {{ key: string | undefined, start: () => Promise<unknown> }} Waiting
 */

/**
 * Runs at most `max` jobs at a time; the others wait, first come first served. The relay counts
 * requests (and lines it cannot read) here; it lets notifications and the host's answers to the
 * Worker's own requests pass at once, since a request in flight may be waiting for one of them.
 */
export class InFlightLimit {
  #max;
  #running = 0;
  /** @type {Waiting[]} */
  #waiting = [];
  #onStart;

  /**
   * @param {number} max At most this many jobs run at once.
   * @param {() => void} [onStart] Called each time a waiting job starts (the backlog shrank).
   */
  constructor(max, onStart) {
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`the in-flight limit must be a positive integer; received ${max}`);
    this.#max = max;
    this.#onStart = onStart;
  }

  /** How many jobs wait for room. */
  get waiting() {
    return this.#waiting.length;
  }

  /** How many jobs run. */
  get running() {
    return this.#running;
  }

  /**
   * Starts `start` now when fewer than `max` jobs run, or later, in order.
   * @param {string | undefined} key Names the job for {@link withdraw} (a request id).
   * @param {() => Promise<unknown>} start
   */
  admit(key, start) {
    if (this.#running < this.#max) this.#run(start);
    else this.#waiting.push({ key, start });
  }

  /**
   * Drops a job that has not started (its request was cancelled before it was sent).
   * @param {string} key
   * @returns {boolean} Whether a waiting job had that key.
   */
  withdraw(key) {
    const index = this.#waiting.findIndex((job) => job.key === key);
    if (index < 0) return false;
    this.#waiting.splice(index, 1);
    this.#onStart?.();
    return true;
  }

  /** Drops every waiting job (the relay is closing). */
  clear() {
    this.#waiting.length = 0;
  }

  /** @param {() => Promise<unknown>} start */
  #run(start) {
    this.#running++;
    void start().finally(() => {
      this.#running--;
      const next = this.#waiting.shift();
      if (next === undefined) return;
      this.#run(next.start);
      this.#onStart?.();
    });
  }
}
