/** Byte helpers every layer needs: base64url, hex, SHA-256, random tokens, constant-time compare. */

const encoder = new TextEncoder();

/** Standard base64 (with padding) of some bytes. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  // In chunks: one fromCharCode call per 32 KiB, well under the engine's argument limit.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Unpadded base64url (RFC 4648 §5) of some bytes. */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Decodes unpadded base64url; undefined for text that is not base64url. */
export function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** Lowercase hex of some bytes. */
export function toHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** Bytes of an even-length hex string (validate the text first: other characters read as 0). */
export function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16) || 0;
  return bytes;
}

/** SHA-256 of text (UTF-8) or bytes. */
export async function sha256(data: string | Uint8Array): Promise<Uint8Array> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

/** Lowercase hex SHA-256 of text (UTF-8) or bytes. */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  return toHex(await sha256(data));
}

/**
 * A random token of `bytes` random bytes in base64url (24 bytes = 192 bits = 32 characters),
 * for ids that must be unguessable: handles, session secrets, task ids, stream ids.
 */
export function randomToken(bytes = 24): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/**
 * Compares two byte strings or strings without an early exit: the time taken depends only on
 * the length, never on where they first differ. Compare digests, not secrets of varying length.
 */
export function constantTimeEqual(a: Uint8Array | string, b: Uint8Array | string): boolean {
  if (typeof a === "string" && typeof b === "string") {
    // Two strings are equal exactly when their UTF-16 code units are: compared without encoding
    // either (a session id is compared on every request of its session).
    let diff = a.length ^ b.length;
    const length = Math.max(a.length, b.length);
    for (let i = 0; i < length; i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
    return diff === 0;
  }
  const x = typeof a === "string" ? encoder.encode(a) : a;
  const y = typeof b === "string" ? encoder.encode(b) : b;
  let diff = x.length ^ y.length;
  const length = Math.max(x.length, y.length);
  for (let i = 0; i < length; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
