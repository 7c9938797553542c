/** A tenant's authorization settings: their JSON shape, the normalized form, and the validator. */

import type { JWK } from "jose";
import { DefinitionError } from "../core/definition-error.ts";
import { isObject } from "../core/json.ts";
import { closestName } from "../core/suggest.ts";
import { checkAlgorithms, checkApiKeys, type ApiKeyEntry, checkResource, checkToolScopes, scopeList, urlList } from "./auth-config-fields.ts";
import { checkPublicJwk, isHttpsOrLoopback } from "./config-checks.ts";
import { parseDpopConfig, type DpopConfig } from "./dpop-config.ts";
import { parseGrants, patternList, type ClaimGrant } from "./grants.ts";

/**
 * How granted scopes cover required ones. `"none"`: exact match only. `"colon"`: a granted scope
 * also covers every scope below it at a `:` boundary (`tools` covers `tools:read`).
 */
export type ScopeHierarchy = "none" | "colon";

/**
 * What an anonymous caller of a tenant with public tools sees in `tools/list`, tool search and code
 * mode's catalogue. `"all"` (the default): every tool, protected ones with their `securitySchemes`,
 * so a host learns that signing in gives more; calling a protected one answers 401 with the
 * challenge. `"public-only"`: the public tools only.
 */
export type AnonymousList = "all" | "public-only";

export type { ApiKeyEntry } from "./auth-config-fields.ts";

/** The `auth` member of a tenant config as written in JSON. {@link parseAuthConfig} checks it. */
export interface AuthConfigInput {
  resource: string;
  issuer?: string | string[];
  authorizationServers?: string[];
  jwksUri?: string;
  keys?: JWK[];
  algorithms?: string[];
  scopesSupported?: string[];
  toolScopes?: Record<string, string[]>;
  clockSkewSeconds?: number;
  /** Least time between two JWKS refetches caused by unknown `kid`s (default 30 s). */
  jwksCooldownSeconds?: number;
  apiKeys?: { id: string; sha256: string; scopes?: string[] }[];
  scopeHierarchy?: ScopeHierarchy;
  tokenType?: string;
  /** Claim values that grant tools and/or scopes (see docs/auth.md, "Grants from claims"). */
  grants?: { claim: string; value: string; tools?: string[]; scopes?: string[] }[];
  /** Tools (names and `prefix_*` patterns) callable without a token. */
  publicTools?: string[];
  /** DPoP (RFC 9449): `{}` honours `cnf.jkt` bindings; `required: true` refuses plain bearer tokens. */
  dpop?: { required?: boolean; algorithms?: string[]; maxAgeSeconds?: number };
  /** What anonymous callers see when some tools are public (default `"all"`). */
  anonymousList?: AnonymousList;
  /** Issuers with one placeholder and an allowlist of its values (multi-tenant identity providers such as Entra ID). */
  issuerTemplates?: { template: string; allowed: string[]; jwksUri?: string; keys?: JWK[] }[];
  /** RFC 7662 token introspection; the client secret is read from the named secret binding, or the tenant's named secret. */
  introspection?: {
    endpoint: string;
    clientId: string;
    clientSecretBinding?: string;
    clientSecretName?: string;
    issuer: string;
    requireAudience?: boolean;
    timeoutMs?: number;
    cacheSeconds?: number;
    negativeCacheSeconds?: number;
    cacheEntries?: number;
  };
  /** A workers-oauth-provider authorization server in another Worker, over the named Service Binding. */
  authorizationServer?: { binding: string; issuer: string; cacheSeconds?: number; negativeCacheSeconds?: number; cacheEntries?: number };
}

/** A validated tenant auth config with every default filled in. Build it with {@link parseAuthConfig}. */
export interface AuthConfig {
  /** The canonical resource URL: the audience every token must carry, exactly (RFC 8707). */
  readonly resource: string;
  /** Pinned issuers (`iss`); empty for a tenant that takes API keys only. */
  readonly issuers: readonly string[];
  /** `authorization_servers` of the metadata document; defaults to the issuers. */
  readonly authorizationServers: readonly string[];
  /** Remote key set (https, or http on a loopback host). */
  readonly jwksUri?: string;
  /** Inline public keys, tried before `jwksUri`. */
  readonly keys?: readonly JWK[];
  /** Accepted JWS algorithms: asymmetric only. */
  readonly algorithms: readonly string[];
  /** `scopes_supported` of the metadata document and `scope` of 401 challenges. */
  readonly scopesSupported?: readonly string[];
  /** Tool name → scopes it needs; the `"*"` entry applies to tools without their own. */
  readonly toolScopes: Readonly<Record<string, readonly string[]>>;
  /** Leeway for `exp` and `nbf`, in seconds. */
  readonly clockSkewSeconds: number;
  readonly jwksCooldownSeconds?: number;
  readonly apiKeys: readonly ApiKeyEntry[];
  readonly scopeHierarchy: ScopeHierarchy;
  /**
   * When set, a JWT's `typ` header must be this media type (RFC 9068 access tokens: `at+jwt`,
   * also accepted as `application/at+jwt`), so that ID tokens and other JWTs signed by the same
   * issuer cannot be used as access tokens. Off by default: not every provider sets `typ`.
   */
  readonly tokenType?: string;
  /** Claim values that grant tools and/or scopes; they combine with the token's scopes. */
  readonly grants: readonly ClaimGrant[];
  /** Tool names and `prefix_*` patterns anyone may list and call, with or without a token. */
  readonly publicTools: readonly string[];
  /** DPoP settings, when the tenant honours sender-constrained tokens. */
  readonly dpop?: DpopConfig;
  /** What anonymous callers see when some tools are public. */
  readonly anonymousList: AnonymousList;
  /**
   * Issuers with a placeholder, each with its allowed values and keys: as written, checked in full by
   * the opt-in that verifies them (`configuredTokenSources`, `tokenSources()`), as `introspection` is.
   */
  readonly issuerTemplates?: readonly Readonly<Record<string, unknown>>[];
  /**
   * Opaque tokens checked by RFC 7662 introspection: the object as written, checked in full by the
   * opt-in that verifies them (`configuredTokenSources`, `tokenSources()`), so a Worker without it bundles none of that.
   */
  readonly introspection?: Readonly<Record<string, unknown>>;
  /** Opaque tokens checked by a workers-oauth-provider authorization server over a Service Binding (as written; see `introspection`). */
  readonly authorizationServer?: Readonly<Record<string, unknown>>;
}

/** Used when a config names no `algorithms`. */
export const DEFAULT_ALGORITHMS: readonly string[] = ["RS256", "ES256", "EdDSA"];
const DEFAULT_CLOCK_SKEW_SECONDS = 60;
const MAX_CLOCK_SKEW_SECONDS = 300;
const FIELDS = new Set([
  "resource",
  "issuer",
  "authorizationServers",
  "jwksUri",
  "keys",
  "algorithms",
  "scopesSupported",
  "toolScopes",
  "clockSkewSeconds",
  "jwksCooldownSeconds",
  "apiKeys",
  "scopeHierarchy",
  "tokenType",
  "grants",
  "publicTools",
  "dpop",
  "anonymousList",
  "issuerTemplates",
  "introspection",
  "authorizationServer",
]);
/** The fields that let a caller in; a misspelling of one is not also reported as "no way in". */
const WAYS_IN = new Set(["issuer", "jwksUri", "keys", "apiKeys", "issuerTemplates", "introspection", "authorizationServer"]);
const HINTS: Record<string, string> = {
  audience: "resource",
  aud: "resource",
  issuers: "issuer",
  jwks_uri: "jwksUri",
  jwks: "keys",
  scopes: "scopesSupported",
};

/**
 * Validates a tenant's `auth` object and fills in the defaults. Throws one {@link DefinitionError}
 * naming the tenant and listing every problem (`auth.<field>: <problem>`), so a broken config is
 * fixed in one pass. Call it once when the tenant config is loaded, not per request.
 */
export function parseAuthConfig(value: unknown, tenantId: string): AuthConfig {
  const issues: string[] = [];
  const fail = (field: string, problem: string): void => void issues.push(`auth.${field}: ${problem}`);
  if (!isObject(value)) throw new DefinitionError(`tenant "${tenantId}": auth must be an object`);

  // A misspelt way in (`apikeys`) is reported as itself, not again as "needs at least one way in".
  let meantWayIn = false;
  for (const key of Object.keys(value)) {
    if (FIELDS.has(key)) continue;
    const meant = Object.hasOwn(HINTS, key) ? HINTS[key] : closestName(key, FIELDS);
    fail(key, `unknown field${meant === undefined ? "" : `; did you mean "${meant}"?`}`);
    if (meant !== undefined && WAYS_IN.has(meant)) meantWayIn = true;
  }

  const resource = checkResource(value["resource"], fail);
  const issuers = urlList(value["issuer"], "issuer", fail, true);
  const templates = value["issuerTemplates"];
  if (templates !== undefined && (!Array.isArray(templates) || templates.length === 0 || !templates.every(isObject)))
    fail("issuerTemplates", "must be a non-empty array of { template, allowed, jwksUri }");
  const issuerTemplates = Array.isArray(templates) ? (templates as Record<string, unknown>[]) : undefined;
  // Opaque-token settings are checked in full by the opt-in that verifies them (src/auth/tokens): here, their shape only.
  const opaque = (field: string): Readonly<Record<string, unknown>> | undefined => {
    const settings = value[field];
    if (settings === undefined || isObject(settings)) return settings;
    fail(field, "must be an object (see docs/auth.md)");
    return undefined;
  };
  const introspection = opaque("introspection");
  const authorizationServer = opaque("authorizationServer");
  if (introspection && authorizationServer) fail("introspection", "a tenant checks opaque tokens one way: set introspection or authorizationServer, not both");
  const opaqueIssuer = (introspection ?? authorizationServer)?.["issuer"];
  const authorizationServers =
    value["authorizationServers"] === undefined
      ? [...new Set([...issuers, ...(typeof opaqueIssuer === "string" ? [opaqueIssuer] : [])])]
      : urlList(value["authorizationServers"], "authorizationServers", fail, false);
  const anonymousList = value["anonymousList"] ?? "all";
  if (anonymousList !== "all" && anonymousList !== "public-only") fail("anonymousList", `must be "all" or "public-only"`);

  const jwksUri = value["jwksUri"];
  if (jwksUri !== undefined && !isHttpsOrLoopback(jwksUri)) fail("jwksUri", "must be an https URL (http only on 127.0.0.1, localhost or [::1])");
  const keys = value["keys"];
  if (keys !== undefined) {
    if (!Array.isArray(keys) || keys.length === 0) fail("keys", "must be a non-empty array of public JWKs");
    else keys.forEach((jwk: unknown, i) => checkPublicJwk(jwk, (problem) => fail(`keys[${i}]`, problem)));
  }

  const algorithms = value["algorithms"] === undefined ? DEFAULT_ALGORITHMS : checkAlgorithms(value["algorithms"], fail);
  const scopesSupported = value["scopesSupported"] === undefined ? undefined : scopeList(value["scopesSupported"], "scopesSupported", fail);
  if (scopesSupported?.includes("offline_access"))
    fail("scopesSupported", `must not list "offline_access" (MCP 2026-07-28 authorization: the resource server should not advertise it)`);
  const toolScopes = checkToolScopes(value["toolScopes"], fail);
  const apiKeys = checkApiKeys(value["apiKeys"], fail);

  const skew = value["clockSkewSeconds"] ?? DEFAULT_CLOCK_SKEW_SECONDS;
  if (typeof skew !== "number" || !Number.isInteger(skew) || skew < 0 || skew > MAX_CLOCK_SKEW_SECONDS)
    fail("clockSkewSeconds", `must be an integer from 0 to ${MAX_CLOCK_SKEW_SECONDS}`);
  const cooldown = value["jwksCooldownSeconds"];
  if (cooldown !== undefined && (typeof cooldown !== "number" || !Number.isInteger(cooldown) || cooldown < 0 || cooldown > 3600))
    fail("jwksCooldownSeconds", "must be an integer from 0 to 3600");
  const hierarchy = value["scopeHierarchy"] ?? "none";
  if (hierarchy !== "none" && hierarchy !== "colon") fail("scopeHierarchy", `must be "none" or "colon"`);

  const tokenType = value["tokenType"];
  if (tokenType !== undefined && (typeof tokenType !== "string" || !/^[A-Za-z0-9!#$&^_.+-]{1,64}$/.test(tokenType)))
    fail("tokenType", `must be a media type such as "at+jwt" (RFC 9068)`);

  const grants = parseGrants(value["grants"], fail);
  const publicTools = patternList(value["publicTools"], "publicTools", fail);
  const dpop = value["dpop"] === undefined ? undefined : parseDpopConfig(value["dpop"], fail);

  const hasKeySource = jwksUri !== undefined || keys !== undefined;
  if (issuers.length > 0 && !hasKeySource) fail("jwksUri", "a tenant with an issuer needs jwksUri or keys to verify its tokens");
  if (issuers.length === 0 && hasKeySource) fail("issuer", "is required when jwksUri or keys are set: tokens are accepted only from pinned issuers");
  const otherWays = issuerTemplates !== undefined || value["introspection"] !== undefined || value["authorizationServer"] !== undefined;
  // Keys written but refused are reported entry by entry, not again as a missing way in.
  const keysWritten = value["apiKeys"] !== undefined && !(Array.isArray(value["apiKeys"]) && value["apiKeys"].length === 0);
  if (issuers.length === 0 && !keysWritten && value["issuer"] === undefined && !otherWays && !meantWayIn)
    fail("issuer", "set issuer (with jwksUri or keys), issuerTemplates, introspection, authorizationServer and/or apiKeys: auth needs at least one way in");

  if (issues.length > 0) throw new DefinitionError(`tenant "${tenantId}" has an invalid auth config: ${issues.join("; ")}`);
  const config: AuthConfig = {
    resource,
    issuers,
    authorizationServers,
    algorithms,
    toolScopes,
    clockSkewSeconds: skew as number,
    apiKeys,
    scopeHierarchy: hierarchy as ScopeHierarchy,
    grants,
    publicTools,
    anonymousList: anonymousList as AnonymousList,
    ...(issuerTemplates === undefined ? {} : { issuerTemplates }),
    ...(introspection === undefined ? {} : { introspection }),
    ...(authorizationServer === undefined ? {} : { authorizationServer }),
    ...(dpop === undefined ? {} : { dpop }),
    ...(typeof jwksUri === "string" ? { jwksUri } : {}),
    ...(Array.isArray(keys) ? { keys: keys as JWK[] } : {}),
    ...(scopesSupported === undefined ? {} : { scopesSupported }),
    ...(cooldown === undefined ? {} : { jwksCooldownSeconds: cooldown as number }),
    ...(typeof tokenType === "string" ? { tokenType } : {}),
  };
  return config;
}
