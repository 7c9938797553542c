// A request body from text (as UTF-8) and raw byte runs, for tests of malformed UTF-8.

/** The bytes of `parts` in order: strings as UTF-8, number arrays as they are. */
export function bodyBytes(...parts: (string | number[])[]): Uint8Array {
  const chunks = parts.map((part) => (typeof part === "string" ? new TextEncoder().encode(part) : new Uint8Array(part)));
  const all = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}
