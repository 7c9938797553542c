/** A batch's send window: the first request to add opens it; it is sent when full or when its time is up, whichever comes first. */

export class SendWindow {
  readonly #ms: number;
  readonly #send: () => Promise<void>;
  #open = false;
  /** The number of the window opened last. */
  #window = 0;

  /** `send` takes what the batch holds and sends it. */
  constructor(ms: number, send: () => Promise<void>) {
    this.#ms = ms;
    this.#send = send;
  }

  /**
   * Called after a request added to the batch. A `full` batch is sent at once. Otherwise the
   * request that opens the window gets the promise of its timed send (its `waitUntil` holds the
   * window open, so nothing is left behind when an invocation ends); later requests get undefined.
   */
  added(full: boolean): Promise<void> | undefined {
    if (full) return this.#flush();
    if (this.#open) return undefined;
    this.#open = true;
    const window = ++this.#window;
    // A window already sent because it filled up sends nothing more when its time is up.
    return new Promise<void>((resolve) => setTimeout(resolve, this.#ms)).then(() => (window === this.#window && this.#open ? this.#flush() : undefined));
  }

  #flush(): Promise<void> {
    this.#open = false;
    return this.#send();
  }
}
