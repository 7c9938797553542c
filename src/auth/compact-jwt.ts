/** Structural reading of a compact JWT before any key is fetched: three base64url parts, JSON objects. */

import { isObject } from "../core/json.ts";
import { AuthError } from "./auth-error.ts";

/** The decoded, not yet verified, header and claims of a compact JWT. */
export interface CompactJwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

function decodePart(part: string, name: string): Record<string, unknown> {
  // Strict base64url (RFC 7515 §2): no padding, and a length of 1 mod 4 cannot encode whole bytes.
  if (part === "" || !BASE64URL.test(part) || part.length % 4 === 1) throw malformed(`its ${name} is not base64url`);
  let text: string;
  try {
    const binary = atob(part.replaceAll("-", "+").replaceAll("_", "/"));
    text = decoder.decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)));
  } catch (cause) {
    throw malformed(`its ${name} is not base64url-encoded UTF-8`, cause);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw malformed(`its ${name} is not JSON`, cause);
  }
  if (!isObject(value)) throw malformed(`its ${name} is not a JSON object`);
  return value;
}

function malformed(why: string, cause?: unknown): AuthError {
  return new AuthError("ERR_MALFORMED_TOKEN", `the bearer token is not a well-formed JWT: ${why}`, cause === undefined ? {} : { cause });
}

/**
 * Decodes a compact JWS (`header.payload.signature`) without verifying it, so that malformed
 * tokens are refused with `ERR_MALFORMED_TOKEN` before any key lookup or JWKS fetch. The result
 * must not be trusted: the verifier reads only `alg` from it, to refuse disallowed algorithms early.
 */
export function readCompactJwt(token: string): CompactJwt {
  const parts = token.split(".");
  if (parts.length !== 3) throw malformed(`it has ${parts.length} dot-separated parts instead of 3`);
  const [header, payload, signature] = parts as [string, string, string];
  if (!BASE64URL.test(signature)) throw malformed("its signature is not base64url");
  return { header: decodePart(header, "header"), payload: decodePart(payload, "payload") };
}
