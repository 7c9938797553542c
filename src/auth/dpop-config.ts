/** A tenant's DPoP settings (RFC 9449): their validated form, and the validator. */

import { isObject } from "../core/json.ts";
import type { ConfigFail } from "./config-checks.ts";

/** DPoP settings with defaults filled in. */
export interface DpopConfig {
  /** When true, every JWT must be DPoP-bound (`cnf.jkt`); plain bearer tokens are refused. */
  readonly required: boolean;
  /** JWS algorithms accepted for proofs (the `algs` of the challenge). */
  readonly algorithms: readonly string[];
  /** How far a proof's `iat` may be from now, in seconds (each way); also how long its `jti` is held. */
  readonly maxAgeSeconds: number;
}

/** Proof algorithms a tenant may allow: asymmetric, as RFC 9449 §4.2 requires. */
export const DPOP_ALGORITHMS: ReadonlySet<string> = new Set(["ES256", "ES384", "ES512", "RS256", "PS256", "EdDSA", "Ed25519"]);
const DEFAULT_DPOP_ALGORITHMS = ["ES256", "EdDSA", "RS256", "PS256"];

/**
 * The settings a tenant without a `dpop` block checks bound tokens with: DPoP not required, the
 * default algorithms and window. A bound token (`cnf.jkt`) is honoured on every tenant (RFC 9449 §7.1).
 */
export const DEFAULT_DPOP_CONFIG: DpopConfig = Object.freeze({ required: false, algorithms: Object.freeze(DEFAULT_DPOP_ALGORITHMS), maxAgeSeconds: 60 });

/** Validates `auth.dpop` (`{ required?, algorithms?, maxAgeSeconds? }`); problems go to `fail`. */
export function parseDpopConfig(value: unknown, fail: ConfigFail): DpopConfig | undefined {
  if (!isObject(value)) {
    fail("dpop", "must be an object { required?, algorithms?, maxAgeSeconds? }");
    return undefined;
  }
  for (const key of Object.keys(value)) if (!["required", "algorithms", "maxAgeSeconds"].includes(key)) fail(`dpop.${key}`, "unknown field");
  const required = value["required"] ?? false;
  if (typeof required !== "boolean") fail("dpop.required", "must be true or false");
  const algorithms = value["algorithms"] ?? DEFAULT_DPOP_ALGORITHMS;
  if (!Array.isArray(algorithms) || algorithms.length === 0 || !algorithms.every((alg) => typeof alg === "string" && DPOP_ALGORITHMS.has(alg)))
    fail("dpop.algorithms", `must be a non-empty array of ${[...DPOP_ALGORITHMS].join(", ")}`);
  const maxAge = value["maxAgeSeconds"] ?? 60;
  if (typeof maxAge !== "number" || !Number.isInteger(maxAge) || maxAge < 5 || maxAge > 600) fail("dpop.maxAgeSeconds", "must be an integer from 5 to 600");
  return { required: required === true, algorithms: [...new Set(algorithms as string[])], maxAgeSeconds: maxAge as number };
}
