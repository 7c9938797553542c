/** DPoP proofs (RFC 9449 §4.3, §7): checking a proof against its request and token (the challenge is in challenge.ts). */

import { EmbeddedJWK, base64url, calculateJwkThumbprint, jwtVerify, type JWK } from "jose";
import { isObject } from "../core/json.ts";
import { AuthError } from "./auth-error.ts";
import { checkPublicJwk } from "./config-checks.ts";
import type { DpopConfig } from "./dpop-config.ts";
import { shown } from "./jose-errors.ts";

/** Remembers proof ids (`jti`) for their window, so that each proof is used once. */
export interface ReplayGuard {
  /** True the first time `key` is seen before `expiresAt` (epoch ms); false for a replay. */
  firstUse(key: string, expiresAt: number): Promise<boolean>;
}

/** What a proof is checked against. */
export interface ProofContext {
  /** The `DPoP` request header (null when absent). */
  proof: string | null;
  method: string;
  url: string;
  /** The access token the proof must name (`ath`). */
  token: string;
  /** The token's `cnf.jkt`: the thumbprint of the key that must have signed the proof. */
  jkt: string;
}

const MAX_PROOF_LENGTH = 8192;
const encoder = new TextEncoder();

function invalid(why: string): AuthError {
  return new AuthError("ERR_DPOP", `invalid DPoP proof: ${why}`);
}

/** A URL as `htu` compares it: scheme, host and path, no query or fragment (RFC 9449 §4.3 item 9). */
function normalisedUrl(value: string): string | undefined {
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return undefined;
  }
}

function decodedHeader(proof: string): Record<string, unknown> {
  const part = proof.split(".")[0] ?? "";
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(base64url.decode(part)));
    if (isObject(value)) return value;
  } catch {
    // reported below
  }
  throw invalid("its header is not base64url-encoded JSON");
}

/**
 * Checks a proof, in order: one compact JWS; `typ` dpop+jwt; `alg` on the allowlist; a public
 * `jwk` (a private key in the header is refused); the signature with that key; `htm` and `htu`
 * of this request; `iat` within the window; `ath` of this token; the key's thumbprint equals the
 * token's `cnf.jkt`; and last, `jti` never seen in the window (so refused proofs use no storage).
 * Throws `ERR_DPOP`.
 */
export async function verifyDpopProof(context: ProofContext, config: DpopConfig, guard: ReplayGuard, now: number = Date.now()): Promise<void> {
  const { proof } = context;
  if (proof === null || proof.trim() === "") throw invalid("this token is DPoP-bound: send a DPoP proof in the DPoP header");
  if (proof.length > MAX_PROOF_LENGTH || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(proof))
    throw invalid("the DPoP header must hold exactly one compact JWS");
  const header = decodedHeader(proof);
  if (header["typ"] !== "dpop+jwt") throw invalid(`typ must be "dpop+jwt", got ${shown(header["typ"])}`);
  const alg = header["alg"];
  if (typeof alg !== "string" || !config.algorithms.includes(alg)) throw invalid(`alg ${shown(alg)} is not one of ${config.algorithms.join(" ")}`);
  let keyProblem: string | undefined;
  checkPublicJwk(header["jwk"], (problem) => (keyProblem ??= problem));
  if (keyProblem !== undefined) throw invalid(`the header's jwk ${keyProblem}`);

  let claims: Record<string, unknown>;
  try {
    claims = (await jwtVerify(proof, EmbeddedJWK, { typ: "dpop+jwt", algorithms: [...config.algorithms], currentDate: new Date(now) })).payload;
  } catch {
    throw invalid("its signature does not verify with the key in its header");
  }
  if (claims["htm"] !== context.method) throw invalid(`htm must be ${context.method}`);
  const htu = typeof claims["htu"] === "string" ? normalisedUrl(claims["htu"]) : undefined;
  if (htu === undefined || htu !== normalisedUrl(context.url)) throw invalid("htu does not name this URL");
  const iat = claims["iat"];
  if (typeof iat !== "number" || Math.abs(now / 1000 - iat) > config.maxAgeSeconds) throw invalid(`iat must be within ${config.maxAgeSeconds} s of now`);
  const jti = claims["jti"];
  if (typeof jti !== "string" || jti === "" || jti.length > 256) throw invalid("jti must be a string of 1-256 characters");
  const ath = base64url.encode(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(context.token))));
  if (claims["ath"] !== ath) throw invalid("ath is not the hash of this access token");
  if ((await calculateJwkThumbprint(header["jwk"] as JWK, "sha256")) !== context.jkt)
    throw invalid("it is not signed by the key the token is bound to (cnf.jkt)");
  const key = base64url.encode(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(`${context.jkt} ${jti}`))));
  if (!(await guard.firstUse(key, (iat + config.maxAgeSeconds) * 1000 + 1000))) throw invalid("this proof was used before (jti replay)");
}
