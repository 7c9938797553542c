/** Reads a request body as UTF-8 text within a byte limit and a time limit, even without Content-Length. */

import { ErrorCode, ProtocolError } from "../../core/errors.ts";

function tooLarge(limit: number): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidRequest, `Request body is larger than the limit of ${limit} bytes`, { status: 413 });
}

function tooSlow(timeoutMs: number): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidRequest, `Request Timeout: the request body did not arrive within ${timeoutMs} ms; send it in one go`, {
    status: 408,
  });
}

/**
 * Returns the body text. Throws a 413 {@link ProtocolError} past `limit` bytes, a 408 when the
 * whole body has not arrived within `timeoutMs` (a client trickling bytes would otherwise hold
 * the request open as long as it likes), and a 400 for invalid UTF-8. `headers`: the request's,
 * when the caller has read them already.
 */
export function readBody(request: Request, limit: number, timeoutMs: number, headers: Headers = request.headers): Promise<string> {
  const declared = headers.get("content-length");
  if (declared !== null && Number(declared) > limit) return Promise.reject(tooLarge(limit));
  // With a declared length within the limit, one native read as text is much cheaper than a chunk
  // loop, or than bytes and a decoder (the runtime enforces Content-Length, so the body cannot grow
  // past it); a request without a body reads as empty.
  if (declared !== null && isDigits(declared)) return withinDeadline(request.text(), timeoutMs, Number(declared));
  const body = request.body;
  if (!body) return Promise.resolve("");
  // A request body's chunks are bytes; the Workers types leave them `any`.
  return withinDeadline(readChunks(body as ReadableStream<Uint8Array>, limit), timeoutMs);
}

/**
 * The text `reading` settles with, or a 408 after `timeoutMs`. One promise and one timer per
 * request (no Promise.race, no finally, no async function): the hot path of every POST. Text read
 * by the runtime (`declared`: its length in bytes) is checked for what its decoder replaced.
 */
function withinDeadline(reading: Promise<ArrayBuffer | Uint8Array | string>, timeoutMs: number, declared = 0): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(tooSlow(timeoutMs)), timeoutMs);
    reading.then(
      (body) => {
        clearTimeout(timer);
        try {
          // TextDecoder reads an ArrayBuffer as it is: no Uint8Array view to make per request.
          resolve(typeof body === "string" ? checkedText(body, declared) : decode(body));
        } catch (error) {
          reject(error);
        }
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * The runtime decodes a body as UTF-8 with replacement (U+FFFD) and drops a leading byte order
 * mark. A text without U+FFFD came from valid UTF-8. With one, the bytes were valid only if the
 * text encodes back to the declared length (or 3 bytes less: a dropped mark): a replaced byte
 * sequence of 1 or 2 bytes grows to 3. Only a 3-byte sequence cut short (a 4-byte character
 * without its last byte) keeps the length, and passes as U+FFFD.
 */
function checkedText(text: string, declared: number): string {
  if (!text.includes("\uFFFD")) return text;
  const length = utf8.encode(text).length;
  if (length === declared || length === declared - 3) return text;
  throw notUtf8();
}

/** Whether a header value is a non-empty run of ASCII digits (a well-formed Content-Length). */
function isDigits(value: string): boolean {
  if (value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** A body's bytes, at most `limit` of them: past it the read is cancelled and `tooBig` (default: 413) is thrown. */
export async function readChunks(body: ReadableStream<Uint8Array>, limit: number, tooBig: () => Error = () => tooLarge(limit)): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooBig();
    }
    chunks.push(value);
  }
  return concat(chunks, size);
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const utf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const utf8 = new TextEncoder();

function notUtf8(): ProtocolError {
  return new ProtocolError(ErrorCode.ParseError, "Parse error: the body is not valid UTF-8", { status: 400 });
}

function decode(bytes: ArrayBuffer | Uint8Array): string {
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    throw notUtf8();
  }
}
