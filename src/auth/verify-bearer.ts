/** Bearer authentication of one request: an API key, or a JWT checked for this tenant's resource. */

import { jwtVerify, type CryptoKey, type JWTVerifyOptions } from "jose";
import { createApiKeyMatcher } from "./api-keys.ts";
import type { AuthConfig } from "./auth-config.ts";
import { AuthError } from "./auth-error.ts";
import { readCompactJwt } from "./compact-jwt.ts";
import { grantsOf, type ClaimGrant } from "./grants.ts";
import { ASYMMETRIC_ALGORITHMS } from "./config-checks.ts";
import { fromJoseError, joseCode, shown } from "./jose-errors.ts";
import { createKeyResolver, type KeyResolver, type KeySourceOptions } from "./key-source.ts";
import type { TemplateIssuers, TokenVerifier } from "./token-verifier.ts";
import { DefinitionError } from "../core/definition-error.ts";
import { API_KEY_ISSUER, type Principal } from "../core/principal.ts";

/** Options of {@link createBearerVerifier}: JWKS tuning, and a clock for tests. */
export interface BearerVerifierOptions extends KeySourceOptions {
  /** Current time in ms, for `exp`/`nbf` checks (default `Date.now`). */
  now?: () => number;
  /**
   * Verifies the tokens that are not JWTs of the tenant's issuers (opaque tokens): required when the
   * config names `introspection` or `authorizationServer` (see `configuredTokenSources`), and usable
   * alone from code (`createIntrospectionVerifier`, `createAuthorizationServerVerifier`).
   */
  tokenVerifier?: TokenVerifier | undefined;
  /** The issuers of `auth.issuerTemplates`: required when the config names templates (see `configuredTokenSources`). */
  issuerTemplates?: TemplateIssuers | undefined;
}

/** A verified credential: its principal, the token, the scheme it came with, and its DPoP binding. */
export interface VerifiedCredential {
  principal: Principal;
  token: string;
  scheme: "bearer" | "dpop";
  /** `cnf.jkt` of a DPoP-bound token (RFC 9449 §6.1). */
  jkt?: string;
}

/** Verifies the `Authorization` header of a request for one tenant. */
export interface BearerVerifier {
  /** Resolves to the principal of an unbound Bearer token, or rejects with an {@link AuthError} (a DPoP-bound token included). */
  verify(authorization: string | null | undefined, served?: string): Promise<Principal>;
  /**
   * Like `verify`, with what DPoP checks need; the `DPoP` scheme is accepted on every tenant, so a caller
   * that uses `verify` alone must refuse the `dpop` scheme and bound tokens itself (the authorizer checks both).
   * `served`: the resource as the client reached it (a loopback dev server on another port), accepted as `aud` too.
   */
  verifyCredential(authorization: string | null | undefined, served?: string): Promise<VerifiedCredential>;
}

// RFC 6750 §2.1: credentials = "Bearer" 1*SP b64token; the scheme is case-insensitive (RFC 9110 §11.1).
const SCHEME = /^(\S+)(?: +|$)/;
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
// workers-oauth-provider's tokens are `userId:grantId:secret`: a tenant that takes opaque tokens accepts `:` too.
const OPAQUE_TOKEN = /^[A-Za-z0-9\-._~+/:]+=*$/;
// Larger than any real access token; refuses giant headers before hashing or decoding them.
const MAX_TOKEN_LENGTH = 16_384;

/** What a client is told to send: DPoP where the tenant requires it (RFC 9449 §7.1), Bearer elsewhere. */
export function credentialHint(dpopRequired: boolean): string {
  return dpopRequired ? "send Authorization: DPoP <token> with a DPoP proof in the DPoP header" : "send Authorization: Bearer <token>";
}

/** The token and its scheme: Bearer, or DPoP on every tenant (the authorizer checks the binding either way); `opaque`: `:` allowed. */
function readBearer(header: string | null | undefined, dpopRequired: boolean, opaque: boolean): { token: string; scheme: "bearer" | "dpop" } {
  const value = header?.trim() ?? "";
  if (value === "") throw new AuthError("ERR_NO_TOKEN", `this resource requires an access token: ${credentialHint(dpopRequired)}`);
  const scheme = SCHEME.exec(value);
  const name = scheme?.[1]?.toLowerCase();
  if (!scheme || (name !== "bearer" && name !== "dpop"))
    throw new AuthError(
      "ERR_NO_TOKEN",
      `the Authorization header does not use the ${dpopRequired ? "DPoP" : "Bearer"} scheme: ${credentialHint(dpopRequired)}`,
    );
  const token = value.slice(scheme[0].length);
  if (!(opaque ? OPAQUE_TOKEN : B64TOKEN).test(token))
    throw new AuthError("ERR_MALFORMED_TOKEN", "the bearer token is empty or has characters a token cannot have (RFC 6750 section 2.1)");
  if (token.length > MAX_TOKEN_LENGTH) throw new AuthError("ERR_MALFORMED_TOKEN", `the bearer token is longer than ${MAX_TOKEN_LENGTH} characters`);
  return { token, scheme: name === "dpop" ? "dpop" : "bearer" };
}

/** `cnf.jkt` of a verified payload, when the token is DPoP-bound. */
function jktOf(payload: Record<string, unknown>): string | undefined {
  const cnf = payload["cnf"];
  const jkt = typeof cnf === "object" && cnf !== null ? (cnf as Record<string, unknown>)["jkt"] : undefined;
  return typeof jkt === "string" ? jkt : undefined;
}

function scopesOf(payload: Record<string, unknown>): string[] {
  const raw = payload["scope"] ?? payload["scp"];
  const list = typeof raw === "string" ? raw.split(" ") : Array.isArray(raw) ? raw : [];
  return [...new Set(list.filter((scope): scope is string => typeof scope === "string" && scope !== ""))];
}

function principalOf(payload: Record<string, unknown>, grants: readonly ClaimGrant[]): Principal {
  const subject = payload["sub"];
  if (typeof subject !== "string" || subject === "") throw new AuthError("ERR_MALFORMED_TOKEN", "the token's sub claim is not a non-empty string");
  const clientId = payload["client_id"] ?? payload["azp"];
  // jose has checked `iss` against the configured issuers, so it is present.
  const issuer = payload["iss"];
  const exp = payload["exp"];
  // Scopes and grants combine: granted scopes join the token's, granted tools are kept apart.
  const granted = grantsOf(grants, payload);
  return {
    issuer: typeof issuer === "string" ? issuer : "",
    subject,
    scopes: granted.scopes.length === 0 ? scopesOf(payload) : [...new Set([...scopesOf(payload), ...granted.scopes])],
    via: "jwt",
    ...(granted.tools.length === 0 ? {} : { tools: granted.tools }),
    ...(typeof clientId === "string" ? { clientId } : {}),
    ...(typeof exp === "number" ? { expiresAt: exp } : {}),
  };
}

/**
 * A token without `kid` may match several keys of the set: jose then throws an error that
 * iterates over the candidates, and the token is valid if any of them verifies it.
 */
async function verifyWithCandidates(token: string, error: unknown, options: JWTVerifyOptions): Promise<Record<string, unknown>> {
  const candidates = error as AsyncIterable<CryptoKey>;
  let last: unknown = error;
  for await (const key of candidates) {
    try {
      return (await jwtVerify(token, key, options)).payload;
    } catch (attempt) {
      last = attempt;
      if (joseCode(attempt) !== "ERR_JWS_SIGNATURE_VERIFICATION_FAILED") break;
    }
  }
  throw last;
}

/**
 * Builds the verifier for one tenant config. Build it once per config and reuse it: it holds the
 * JWKS cache. Order of checks: Bearer syntax; API keys (constant-time digest compare); a token that
 * is not a JWT (or any token, on a tenant without JWT issuers) goes to `options.tokenVerifier`; JWT
 * shape; `alg` allowlist (before any key lookup, so `none` and HS* never reach a key); `iss` one of
 * the pinned issuers or fitting an issuer template with an allowed value (before any key lookup);
 * then jose checks the signature with that issuer's keys, `iss`, `aud` (must name `config.resource`
 * exactly), `exp` and `nbf` with the configured clock skew; and a template's claim (`tid`) must
 * name the directory of the token's `iss`.
 *
 * @example
 * const verifier = createBearerVerifier(parseAuthConfig(tenant.auth, tenant.id));
 * const principal = await verifier.verify(request.headers.get("authorization"));
 */
export function createBearerVerifier(config: AuthConfig, options: BearerVerifierOptions = {}): BearerVerifier {
  const matchApiKey = createApiKeyMatcher(config.apiKeys);
  const { tokenVerifier, issuerTemplates } = options;
  const takesJwt = config.issuers.length > 0 || issuerTemplates !== undefined;
  // Re-checked here so a config built by hand can never allow none or HMAC.
  const algorithms = config.algorithms.filter((alg) => ASYMMETRIC_ALGORITHMS.has(alg));
  const resolver: KeyResolver | undefined = config.issuers.length > 0 ? createKeyResolver(config, options) : undefined;
  const missing =
    (config.introspection ?? config.authorizationServer) && tokenVerifier === undefined
      ? config.introspection
        ? "introspection"
        : "authorizationServer"
      : config.issuerTemplates && issuerTemplates === undefined
        ? "issuerTemplates"
        : undefined;
  if (missing !== undefined) {
    throw new DefinitionError(
      `auth.${missing} needs its verifier: createAuthorizer(config, configuredTokenSources(config, env)), or tokenSources() in createMultiTenantWorker`,
    );
  }
  const now = options.now ?? Date.now;

  const verifyCredential = async (authorization: string | null | undefined, served = config.resource): Promise<VerifiedCredential> => {
    const { token, scheme } = readBearer(authorization, config.dpop?.required === true, tokenVerifier !== undefined);
    const apiKey = await matchApiKey(token);
    if (apiKey !== undefined)
      return { token, scheme, principal: { issuer: API_KEY_ISSUER, subject: apiKey.id, scopes: apiKey.scopes, clientId: apiKey.id, via: "api-key" } };
    const jwtShaped = token.split(".").length === 3;
    // A token that is not a JWT this tenant's issuers could sign goes to the opaque-token verifier.
    if (tokenVerifier !== undefined && (!jwtShaped || !takesJwt)) {
      const verified = await tokenVerifier.verify(token, { configured: config.resource, served });
      return { token, scheme, principal: verified.principal, ...(verified.jkt === undefined ? {} : { jkt: verified.jkt }) };
    }
    if (!takesJwt || (!jwtShaped && config.apiKeys.length > 0)) {
      throw new AuthError("ERR_BAD_API_KEY", "the bearer token is not a valid API key for this resource");
    }

    const { header, payload } = readCompactJwt(token);
    if (typeof header["alg"] !== "string") throw new AuthError("ERR_MALFORMED_TOKEN", "the token header has no alg");
    if (!algorithms.includes(header["alg"])) {
      throw new AuthError("ERR_ALGORITHM", `the token is signed with alg "${shown(header["alg"])}"; this resource accepts ${algorithms.join(", ")}`);
    }
    // A pinned issuer first; else an issuer template whose placeholder value is allowed.
    const pinned = config.issuers.includes(payload["iss"] as string);
    const matched = pinned ? undefined : issuerTemplates?.match(payload["iss"]);
    const keys = pinned ? resolver : matched?.resolver;
    // Refused before any key lookup: an issuer this tenant does not trust says nothing about keys.
    if (keys === undefined) {
      throw new AuthError(
        "ERR_WRONG_ISSUER",
        payload["iss"] === undefined
          ? "the token has no iss claim; only tokens from this resource's issuers are accepted"
          : `the token's issuer "${shown(payload["iss"])}" is not trusted by this resource`,
      );
    }
    const verifyOptions: JWTVerifyOptions = {
      algorithms,
      issuer: matched === undefined ? [...config.issuers] : (payload["iss"] as string),
      audience: served === config.resource ? config.resource : [config.resource, served],
      clockTolerance: config.clockSkewSeconds,
      currentDate: new Date(now()),
      requiredClaims: ["exp", "sub"],
      ...(config.tokenType === undefined ? {} : { typ: config.tokenType }),
    };
    let verified: Record<string, unknown>;
    try {
      try {
        verified = (await jwtVerify(token, keys, verifyOptions)).payload;
      } catch (error) {
        if (joseCode(error) !== "ERR_JWKS_MULTIPLE_MATCHING_KEYS") throw error;
        verified = await verifyWithCandidates(token, error, verifyOptions);
      }
    } catch (error) {
      throw fromJoseError(error, payload);
    }
    // The directory claim (Entra's tid), where the token has it, must name the directory of its iss.
    if (matched !== undefined && verified[matched.claim] !== undefined && verified[matched.claim] !== matched.value) {
      throw new AuthError("ERR_WRONG_ISSUER", `the token's ${matched.claim} claim does not match the ${matched.claim} of its issuer`);
    }
    const jkt = jktOf(verified);
    return { token, scheme, principal: principalOf(verified, config.grants ?? []), ...(jkt === undefined ? {} : { jkt }) };
  };
  return {
    verifyCredential,
    // Without the request, no proof can be checked: a bound token or the DPoP scheme is refused here.
    verify: async (authorization, served) => {
      const credential = await verifyCredential(authorization, served);
      if (credential.jkt !== undefined || credential.scheme === "dpop") throw new AuthError("ERR_DPOP", "this token is DPoP-bound: it needs a DPoP proof");
      return credential.principal;
    },
  };
}
