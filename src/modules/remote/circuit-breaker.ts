/** A circuit breaker per remote module and isolate: stops calling an upstream that keeps failing, and tries it again after a cooldown. */

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit (default 5). */
  failures?: number;
  /** How long an open circuit refuses calls before one trial call is let through, in ms (default 30000). */
  cooldownMs?: number;
  now?: () => number;
}

export const DEFAULT_BREAKER_FAILURES = 5;
export const DEFAULT_BREAKER_COOLDOWN_MS = 30_000;

/**
 * Closed: calls go through, failures are counted. After `failures` in a row it opens: calls are
 * refused for `cooldownMs`. Then it is half-open: one trial call goes through; its success closes
 * the circuit, its failure opens it again for another cooldown.
 */
export class CircuitBreaker {
  readonly #limit: number;
  readonly #cooldownMs: number;
  readonly #now: () => number;
  #failures = 0;
  #openedAt: number | undefined;
  #trial = false;

  constructor(options: CircuitBreakerOptions = {}) {
    this.#limit = options.failures ?? DEFAULT_BREAKER_FAILURES;
    this.#cooldownMs = options.cooldownMs ?? DEFAULT_BREAKER_COOLDOWN_MS;
    this.#now = options.now ?? Date.now;
  }

  /** "closed", "open" or "half-open" (the cooldown is over; the next call is the trial). */
  get state(): "closed" | "open" | "half-open" {
    if (this.#openedAt === undefined) return "closed";
    return this.#now() - this.#openedAt >= this.#cooldownMs ? "half-open" : "open";
  }

  /** Ms until an open circuit lets a trial call through (0 when not open). */
  retryInMs(): number {
    return this.#openedAt === undefined ? 0 : Math.max(0, this.#openedAt + this.#cooldownMs - this.#now());
  }

  /** Whether a call may go now; in half-open state only one trial call at a time. */
  admit(): boolean {
    const state = this.state;
    if (state === "closed") return true;
    if (state === "open" || this.#trial) return false;
    this.#trial = true;
    return true;
  }

  /** Ends a trial call that neither succeeded nor failed (the caller went away): the next call is the trial. */
  release(): void {
    this.#trial = false;
  }

  success(): void {
    this.#failures = 0;
    this.#openedAt = undefined;
    this.#trial = false;
  }

  failure(): void {
    this.#failures += 1;
    if (this.#trial || this.#failures >= this.#limit) this.#openedAt = this.#now();
    this.#trial = false;
  }
}
