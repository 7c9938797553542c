/**
 * An export's body as UTF-8 bytes, written as the requests' spans arrive (a few dozen at a time:
 * encoding is a call into the runtime): what waits for the export is one buffer outside the
 * JavaScript heap, reused from export to export, rather than a string per span and a body of
 * several hundred KiB allocated at once for each export.
 */

const encoder = new TextEncoder();
const COMMA = 0x2c;
/** The buffer's first size; it grows (doubling) to what a full batch needs and keeps that size. */
const FIRST_SIZE = 64 * 1024;
/** Spans kept as text until this many wait, then encoded together (one runtime call, a short string). */
const ENCODE_EVERY = 32;

export class SpanBytes {
  /** The body's text before the spans (kept at the buffer's start) and after them. */
  readonly #before: number;
  readonly #after: Uint8Array;
  #buffer: Uint8Array;
  #length: number;
  /** Spans in the buffer. */
  #encoded = 0;
  /** Spans not encoded yet, and their length in UTF-16 code units. */
  #waiting: string[] = [];
  #waitingLength = 0;

  constructor(before: string, after: string) {
    const head = encoder.encode(before);
    this.#after = encoder.encode(after);
    this.#buffer = new Uint8Array(Math.max(FIRST_SIZE, 2 * (head.length + this.#after.length)));
    this.#buffer.set(head);
    this.#before = this.#length = head.length;
  }

  /** Spans written since the last {@link take}. */
  get count(): number {
    return this.#encoded + this.#waiting.length;
  }

  /** Bytes of spans written since the last {@link take}. */
  get size(): number {
    return this.#length - this.#before + this.#waitingLength;
  }

  /** Adds spans, each its OTLP JSON text (members of a JSON array: a comma goes between spans). */
  add(spans: readonly string[]): void {
    for (const span of spans) {
      this.#waiting.push(span);
      this.#waitingLength += span.length;
    }
    if (this.#waiting.length >= ENCODE_EVERY) this.#encode();
  }

  /** Writes the waiting spans into the buffer. */
  #encode(): void {
    const waiting = this.#waiting;
    if (waiting.length === 0) return;
    const text = waiting.join(",");
    // At most 3 bytes of UTF-8 per UTF-16 code unit: with this much room one encodeInto always fits.
    const needed = this.#length + 1 + 3 * text.length;
    if (needed > this.#buffer.length) this.#grow(needed);
    if (this.#encoded > 0) this.#buffer[this.#length++] = COMMA;
    this.#length += encoder.encodeInto(text, this.#buffer.subarray(this.#length)).written;
    this.#encoded += waiting.length;
    this.#waiting = [];
    this.#waitingLength = 0;
  }

  /**
   * The body (the text before, the spans, the text after) and empties the batch. It is a view of
   * the buffer, valid until the next {@link add}: pass it to `fetch` at once, which copies a body
   * given as bytes when it is called (Fetch standard, "extract a body"; workerd and undici do).
   */
  take(): Uint8Array {
    this.#encode();
    const end = this.#length + this.#after.length;
    if (end > this.#buffer.length) this.#grow(end);
    this.#buffer.set(this.#after, this.#length);
    const body = this.#buffer.subarray(0, end);
    this.#length = this.#before;
    this.#encoded = 0;
    return body;
  }

  #grow(needed: number): void {
    let size = this.#buffer.length * 2;
    while (size < needed) size *= 2;
    const buffer = new Uint8Array(size);
    buffer.set(this.#buffer.subarray(0, this.#length));
    this.#buffer = buffer;
  }
}
