/** A server-sent-events response that carries JSON-RPC messages (one `message` event each). */

const encoder = new TextEncoder();

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  // Proxies must not buffer the stream (2026-07-28 Streamable HTTP "Receiving").
  "x-accel-buffering": "no",
};

export class SseStream {
  readonly response: Response;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #open = true;

  /** `onCancel` runs when the client goes away before the stream ends. */
  constructor(onCancel: () => void, headers?: Record<string, string>) {
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => {
        this.#open = false;
        onCancel();
      },
    });
    this.response = new Response(stream, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
  }

  get open(): boolean {
    return this.#open;
  }

  /** Writes one JSON-RPC message as an SSE event; a no-op once the stream has ended. */
  send(json: string): void {
    if (this.#open) this.#controller.enqueue(encoder.encode(`event: message\ndata: ${json}\n\n`));
  }

  /** Writes an SSE comment line (ignored by clients): keeps idle connections open through proxies. */
  comment(text: string): void {
    if (this.#open) this.#controller.enqueue(encoder.encode(`: ${text}\n\n`));
  }

  close(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#controller.close();
  }
}
