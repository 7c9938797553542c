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
 * One pending wake-up at a time: `wait()` resolves at the next `ring()`. Create and await it
 * inside the request that owns the stream it guards; any request may ring it.
 */
export class Doorbell {
  #promise: Promise<void> | undefined;
  #resolve: (() => void) | undefined;

  /** Resolves at the next ring, or after `pollMs` when given (the fallback without cross-request wake-ups). */
  wait(pollMs?: number): Promise<void> {
    if (!this.#promise) this.#promise = new Promise<void>((resolve) => (this.#resolve = resolve));
    if (pollMs === undefined) return this.#promise;
    return Promise.race([this.#promise, new Promise<void>((resolve) => setTimeout(resolve, pollMs))]);
  }

  ring(): void {
    const resolve = this.#resolve;
    this.#promise = undefined;
    this.#resolve = undefined;
    resolve?.();
  }
}
