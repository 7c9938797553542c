/** Small predicates shared by the auth config validator and the verifier. */

import { isObject } from "../core/json.ts";

/**
 * JWS algorithms a tenant may allow: asymmetric only. `none` is unsigned, and HS* would let
 * anyone holding the public key (which is public) forge tokens with it as the HMAC secret.
 */
export const ASYMMETRIC_ALGORITHMS: ReadonlySet<string> = new Set([
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
]);

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);
// RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
// Members that only private or symmetric JWKs have (RFC 7518 §6).
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k", "priv"];
const PUBLIC_KTY = new Set(["RSA", "EC", "OKP"]);

function parseUrl(value: unknown): URL | undefined {
  if (typeof value !== "string") return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** Reports one problem of a config field (`field` as the user wrote it, e.g. `keys[0]`). */
export type ConfigFail = (field: string, problem: string) => void;

/** True for an absolute http(s) URL. */
export function isUrl(value: unknown): boolean {
  const url = parseUrl(value);
  return url !== undefined && (url.protocol === "https:" || url.protocol === "http:");
}

/** True for an https URL, or an http URL whose host is a loopback name (local development). */
export function isHttpsOrLoopback(value: unknown): boolean {
  const url = parseUrl(value);
  if (url === undefined) return false;
  return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname));
}

/** True for a single OAuth scope name (RFC 6749 §3.3). */
export function isScopeToken(value: unknown): value is string {
  return typeof value === "string" && SCOPE_TOKEN.test(value);
}

/** Reports through `fail` why a value is not a public signature JWK; silent when it is one. */
export function checkPublicJwk(jwk: unknown, fail: (problem: string) => void): void {
  if (!isObject(jwk)) return fail("must be a JWK object");
  if (typeof jwk["kty"] !== "string" || !PUBLIC_KTY.has(jwk["kty"])) return fail(`kty must be RSA, EC or OKP (symmetric "oct" keys are refused)`);
  const secret = PRIVATE_MEMBERS.filter((member) => member in jwk);
  if (secret.length > 0) return fail(`is a private key (has ${secret.join(", ")}); configure the public key only`);
  if (jwk["alg"] !== undefined && (typeof jwk["alg"] !== "string" || !ASYMMETRIC_ALGORITHMS.has(jwk["alg"]))) fail(`alg must be an asymmetric JWS algorithm`);
  if (jwk["use"] !== undefined && jwk["use"] !== "sig") fail(`use must be "sig"`);
  if (jwk["kid"] !== undefined && typeof jwk["kid"] !== "string") fail("kid must be a string");
}
