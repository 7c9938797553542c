/** Decoding of MCP request-metadata header values (2026-07-28 Streamable HTTP "Value encoding"). */

const PREFIX = "=?base64?";
const SUFFIX = "?=";
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decodes a header value that may use the `=?base64?…?=` form for values that are not safe as
 * plain header text. Returns `undefined` when the encoded form is malformed.
 */
export function decodeHeaderValue(raw: string): string | undefined {
  if (!raw.startsWith(PREFIX) || !raw.endsWith(SUFFIX) || raw.length < PREFIX.length + SUFFIX.length) return raw;
  const encoded = raw.slice(PREFIX.length, raw.length - SUFFIX.length);
  // Strict base64: whole quanta with padding; atob alone would also accept unpadded input.
  if (encoded.length % 4 !== 0 || !BASE64.test(encoded)) return undefined;
  try {
    const binary = atob(encoded);
    const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
}
