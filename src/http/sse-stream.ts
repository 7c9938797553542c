/** A server-sent-events response that carries JSON-RPC messages (one `message` event each). */

const encoder = new TextEncoder();

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  // Proxies must not buffer the stream (2026-07-28 Streamable HTTP "Receiving").
  "x-accel-buffering": "no",
};

export interface SseStreamOptions {
  headers?: Record<string, string>;
  /**
   * Writes an SSE comment after this long without other writes. On Workers a client that went
   * away is only noticed when a write to its connection fails, so this bounds how long that takes.
   * Off when absent or 0.
   */
  keepAliveMs?: number;
}

const KEEP_ALIVE = ": keep-alive\n\n";

/**
 * The stream is pull-based: `send` only queues text, and the stream's own `pull` writes it, so
 * every write happens in the context of the request that owns the response.
 */
export class SseStream {
  readonly response: Response;
  readonly #queue: string[] = [];
  readonly #keepAliveMs: number | undefined;
  #wake: (() => void) | undefined;
  #ended = false;
  #open = true;

  /** `onCancel` runs when the client goes away before the stream ends. */
  constructor(onCancel: () => void, options: SseStreamOptions = {}) {
    this.#keepAliveMs = options.keepAliveMs || undefined;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          while (this.#queue.length === 0 && !this.#ended && this.#open) {
            let keepAlive: ReturnType<typeof setTimeout> | undefined;
            await new Promise<void>((resolve) => {
              this.#wake = resolve;
              if (this.#keepAliveMs === undefined) return;
              keepAlive = setTimeout(() => {
                this.#queue.push(KEEP_ALIVE);
                resolve();
              }, this.#keepAliveMs);
            });
            if (keepAlive !== undefined) clearTimeout(keepAlive);
          }
          if (!this.#open) return;
          if (this.#queue.length > 0) controller.enqueue(encoder.encode(this.#queue.splice(0).join("")));
          else controller.close();
        },
        cancel: () => {
          this.#open = false;
          this.#flush();
          onCancel();
        },
      },
      { highWaterMark: 0 },
    );
    this.response = new Response(stream, { status: 200, headers: { ...SSE_HEADERS, ...options.headers } });
  }

  get open(): boolean {
    return this.#open && !this.#ended;
  }

  /** Queues one JSON-RPC message as an SSE event; a no-op once the stream has ended. */
  send(json: string): void {
    this.#push(`event: message\ndata: ${json}\n\n`);
  }

  /** Queues already formatted SSE text (one or more complete events). */
  raw(text: string): void {
    this.#push(text);
  }

  /** Queues an SSE comment line (ignored by clients): keeps idle connections open through proxies. */
  comment(text: string): void {
    this.#push(`: ${text}\n\n`);
  }

  /** Ends the stream once everything queued has been written. */
  close(): void {
    this.#ended = true;
    this.#flush();
  }

  #push(text: string): void {
    if (!this.open) return;
    this.#queue.push(text);
    this.#flush();
  }

  #flush(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
