/** SHA-256 digests and UTF-8 sizes of skill files (SEP-2640 "Integrity and verification"). */

import { sha256Hex } from "../../core/bytes.ts";

const encoder = new TextEncoder();

/** The bytes a client hashes for a text file: its UTF-8 encoding. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Length of the UTF-8 encoding of `text` without allocating it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3; // other BMP characters; a lone surrogate encodes as U+FFFD (3 bytes)
  }
  return bytes;
}

/** `sha256:` followed by the 64 lowercase hex digits of the SHA-256 of `bytes`. */
export async function skillDigest(bytes: Uint8Array): Promise<string> {
  return `sha256:${await sha256Hex(bytes)}`;
}

export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;
