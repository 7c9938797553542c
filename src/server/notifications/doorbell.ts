/** A wake-up that another request may ring, for streams fed by other requests (listen streams, shared hub subscriptions). */

interface CompatibilityGlobal {
  Cloudflare?: { compatibilityFlags?: Record<string, boolean> };
}

/**
 * Whether a promise resolved by one request wakes its waiter inside the waiter's own request.
 * workerd does so under `handle_cross_request_promise_resolution` (on by default from compatibility
 * date 2024-10-14): the continuation is queued to the request that created the promise, so that
 * request writes its own stream. Before that date (or with `no_handle_cross_request_promise_resolution`)
 * the continuation would run in the resolving request, which may not touch the other's stream:
 * then streams fed by other requests must poll. Runtimes without the rule (Node) have no such limit.
 */
export function crossRequestWakeSupported(): boolean {
  const flags = (globalThis as CompatibilityGlobal).Cloudflare?.compatibilityFlags;
  return flags?.["handle_cross_request_promise_resolution"] !== false;
}

/**
 * One pending wake-up at a time: `wait()` resolves at the next `ring()`, or when its timeout
 * passes. Call `wait` inside the request that owns the stream it guards; any request may ring.
 *
 * Why a race: on workerd 1.20260426, with some 300 or more requests waiting at once, the
 * continuation of an `await` (or a `.then` callback) on a promise that another request resolved
 * was silently dropped after a few thousand wake-ups, and the waiters never woke again; the same
 * promise raced against one created by the waiter kept working (measured up to 800 waiters).
 */
export class Doorbell {
  #promise: Promise<void> | undefined;
  #resolve: (() => void) | undefined;

  /** Resolves with true at the next ring, with false when `timeoutMs` (polling, when given) passes first. */
  async wait(timeoutMs?: number): Promise<boolean> {
    if (!this.#promise) this.#promise = new Promise<void>((resolve) => (this.#resolve = resolve));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const own = new Promise<boolean>((resolve) => {
      if (timeoutMs !== undefined) timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      // The bell's own promise goes into the race as it is (a `.then` on it was dropped the same way).
      return (await Promise.race([this.#promise, own])) !== false;
    } finally {
      // In the waiter's request, which set the timer: a timer cannot be cleared from another.
      if (timer !== undefined) clearTimeout(timer);
    }
  }

  ring(): void {
    const resolve = this.#resolve;
    this.#promise = undefined;
    this.#resolve = undefined;
    resolve?.();
  }
}
