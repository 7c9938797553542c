/** Publishing a change to a hub that is restarting: retried a few times before it is reported lost. */

/**
 * Waits before each retry of a publish. A hub object that is reset or redeployed is back within
 * milliseconds (its next call starts a new instance); a second and a third try, 100 ms and 1 s
 * later, outlast that without holding a request's `waitUntil` for long.
 */
export const PUBLISH_RETRY_DELAYS_MS: readonly number[] = [100, 1000];

/** A change that could not be published after every try (the caller logs it). */
export class PublishFailure extends Error {
  override readonly name = "PublishFailure";
  readonly code = "ERR_PUBLISH";
}

/** True for errors a retry cannot help: Workers flag an overloaded object (`overloaded`) as such. */
function hopeless(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { overloaded?: unknown }).overloaded === true;
}

/**
 * Runs `send` (which must get a fresh stub on each call: a stub that failed may stay broken) until
 * it succeeds, retrying after each delay; then throws a {@link PublishFailure} naming what was
 * lost, the number of tries and the last error.
 */
export async function publishWithRetries(
  what: string,
  send: () => Promise<unknown>,
  delays: readonly number[] = PUBLISH_RETRY_DELAYS_MS,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await send();
      return;
    } catch (error) {
      const delay = delays[attempt];
      if (delay === undefined || hopeless(error)) {
        throw new PublishFailure(`${what} was not published after ${attempt + 1} tries: ${error instanceof Error ? error.message : String(error)}`, {
          cause: error,
        });
      }
      await sleep(delay);
    }
  }
}
