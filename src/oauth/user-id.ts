/** The user id of a grant: the upstream issuer and subject hashed, because the id appears inside every code and token the library issues. */

import { sha256, toBase64Url } from "../core/bytes.ts";

/** A non-identifying, stable user id (32 base64url characters: no `:`, which the library's token format reserves). */
export async function userIdOf(issuer: string, subject: string): Promise<string> {
  return toBase64Url(await sha256(JSON.stringify([issuer, subject]))).slice(0, 32);
}
