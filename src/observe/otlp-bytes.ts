/**
 * The spans of an export as UTF-8 bytes, written as each span arrives: what waits for the export
 * is one buffer outside the JavaScript heap, reused from export to export, rather than a string
 * per span and a body of several hundred KiB built at once (a string that large is allocated
 * apart and makes the garbage collector run a full collection sooner).
 */

const encoder = new TextEncoder();
const COMMA = 0x2c;
/** The buffer's first size; it grows (doubling) to what a full batch needs and keeps that size. */
const FIRST_SIZE = 64 * 1024;

export class SpanBytes {
  #buffer = new Uint8Array(FIRST_SIZE);
  #length = 0;
  #count = 0;

  /** Spans written since the last {@link take}. */
  get count(): number {
    return this.#count;
  }

  /** Bytes written since the last {@link take}. */
  get size(): number {
    return this.#length;
  }

  /** Adds spans, each its OTLP JSON text (members of a JSON array: a comma goes between spans). */
  add(spans: readonly string[]): void {
    if (spans.length === 0) return;
    // One encoding per request rather than per span: encodeInto is a call into the runtime.
    const text = spans.length === 1 ? (spans[0] as string) : spans.join(",");
    // At most 3 bytes of UTF-8 per UTF-16 code unit: with this much room one encodeInto always fits.
    const needed = this.#length + 1 + 3 * text.length;
    if (needed > this.#buffer.length) this.#grow(needed);
    if (this.#count > 0) this.#buffer[this.#length++] = COMMA;
    this.#length += encoder.encodeInto(text, this.#buffer.subarray(this.#length)).written;
    this.#count += spans.length;
  }

  /** The spans written so far between `before` and `after` (a copy: the buffer is reused), and empties it. */
  take(before: Uint8Array, after: Uint8Array): Uint8Array {
    const body = new Uint8Array(before.length + this.#length + after.length);
    body.set(before);
    body.set(this.#buffer.subarray(0, this.#length), before.length);
    body.set(after, before.length + this.#length);
    this.#length = 0;
    this.#count = 0;
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

/** UTF-8 bytes of a text (the constant parts of an export's body). */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}
