/** The `auth.introspection` and `auth.authorizationServer` fields, checked when a Worker opts in to them (`tokenSources()`, `configuredTokenSources`). */

import { isObject } from "../../core/json.ts";
import { isHttpsOrLoopback, isUrl, type ConfigFail } from "../config-checks.ts";

/** How long verified and refused tokens are remembered, and how many. */
export interface TokenCacheConfig {
  /** An active token is answered from the cache for at most this many seconds (never past its `exp`); 0 turns it off. */
  readonly cacheSeconds: number;
  /** A refused token is answered from the cache for this many seconds; 0 turns it off. */
  readonly negativeCacheSeconds: number;
  /** Most tokens held at once (the oldest go first). */
  readonly cacheEntries: number;
}

/** RFC 7662 token introspection: where to ask, and as which client. */
export interface IntrospectionConfig extends TokenCacheConfig {
  /** The introspection endpoint (https, or http on a loopback host). */
  readonly endpoint: string;
  /** This resource server's client id at the authorization server. */
  readonly clientId: string;
  /** The name of the secret binding (env) that holds the client secret; the secret is never configured. */
  readonly clientSecretBinding?: string | undefined;
  /** Or the name of the tenant's own secret that holds it (tenant secrets, with keyedTenants() and MCP_SECRETS_KEY). */
  readonly clientSecretName?: string | undefined;
  /** The authorization server's issuer identifier: the principal's `issuer`; a response naming another `iss` is refused. */
  readonly issuer: string;
  /** When true (the default), a response must name this resource in `aud`. */
  readonly requireAudience: boolean;
  /** Abort an introspection request after this many ms. */
  readonly timeoutMs: number;
}

/** A workers-oauth-provider authorization server in another Worker, reached over a Service Binding (`validateToken`). */
export interface AuthorizationServerBindingConfig extends TokenCacheConfig {
  /** The Service Binding to the authorization server's `WorkerEntrypoint`. */
  readonly binding: string;
  /** The authorization server's issuer identifier: the principal's `issuer`. */
  readonly issuer: string;
}

const BINDING = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const CLIENT_ID = /^[\x21-\x7E]{1,256}$/;
const SECRET_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

function integer(value: unknown, field: string, min: number, max: number, fallback: number, fail: ConfigFail): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    fail(field, `must be an integer from ${min} to ${max}`);
    return fallback;
  }
  return value;
}

function refuseUnknown(value: Record<string, unknown>, known: readonly string[], field: string, fail: ConfigFail): void {
  for (const key of Object.keys(value)) if (!known.includes(key)) fail(`${field}.${key}`, `unknown field; known: ${known.join(", ")}`);
}

function cacheOf(value: Record<string, unknown>, field: string, fail: ConfigFail): TokenCacheConfig {
  return {
    cacheSeconds: integer(value["cacheSeconds"], `${field}.cacheSeconds`, 0, 3600, 30, fail),
    negativeCacheSeconds: integer(value["negativeCacheSeconds"], `${field}.negativeCacheSeconds`, 0, 60, 5, fail),
    cacheEntries: integer(value["cacheEntries"], `${field}.cacheEntries`, 1, 100_000, 1000, fail),
  };
}

function issuerOf(value: unknown, field: string, fail: ConfigFail): string {
  if (!isUrl(value)) fail(`${field}.issuer`, "must be the authorization server's issuer identifier (an http(s) URL)");
  return typeof value === "string" ? value : "";
}

const INTROSPECTION_FIELDS = [
  "endpoint",
  "clientId",
  "clientSecretBinding",
  "clientSecretName",
  "issuer",
  "requireAudience",
  "timeoutMs",
  "cacheSeconds",
  "negativeCacheSeconds",
  "cacheEntries",
];

/** `auth.introspection`: `{ endpoint, clientId, clientSecretBinding, issuer, … }`. */
export function parseIntrospection(value: unknown, fail: ConfigFail): IntrospectionConfig | undefined {
  if (!isObject(value)) {
    fail("introspection", "must be an object { endpoint, clientId, clientSecretBinding, issuer }");
    return undefined;
  }
  refuseUnknown(value, INTROSPECTION_FIELDS, "introspection", fail);
  const { endpoint, clientId, clientSecretBinding, clientSecretName, requireAudience } = value;
  if (!isHttpsOrLoopback(endpoint)) fail("introspection.endpoint", "must be an https URL (http only on 127.0.0.1, localhost or [::1])");
  if (typeof clientId !== "string" || !CLIENT_ID.test(clientId)) fail("introspection.clientId", "must be a client id (1-256 visible ASCII characters)");
  if ((clientSecretBinding === undefined) === (clientSecretName === undefined))
    fail("introspection", "needs exactly one of clientSecretBinding (a secret binding's name) and clientSecretName (a tenant secret's name)");
  else if (clientSecretBinding !== undefined && (typeof clientSecretBinding !== "string" || !BINDING.test(clientSecretBinding)))
    fail("introspection.clientSecretBinding", "must be the name of a secret binding (e.g. INTROSPECTION_SECRET), never the secret itself");
  else if (clientSecretName !== undefined && (typeof clientSecretName !== "string" || !SECRET_NAME.test(clientSecretName)))
    fail("introspection.clientSecretName", "must be the name of one of the tenant's secrets (1-64 letters, digits, _, - or .), never the secret itself");
  if (requireAudience !== undefined && typeof requireAudience !== "boolean") fail("introspection.requireAudience", "must be true or false");
  return {
    endpoint: endpoint as string,
    clientId: clientId as string,
    ...(clientSecretBinding === undefined ? {} : { clientSecretBinding: clientSecretBinding as string }),
    ...(clientSecretName === undefined ? {} : { clientSecretName: clientSecretName as string }),
    issuer: issuerOf(value["issuer"], "introspection", fail),
    requireAudience: requireAudience !== false,
    timeoutMs: integer(value["timeoutMs"], "introspection.timeoutMs", 100, 30_000, 5000, fail),
    ...cacheOf(value, "introspection", fail),
  };
}

/** `auth.authorizationServer`: `{ binding, issuer, … }`. */
export function parseAuthorizationServer(value: unknown, fail: ConfigFail): AuthorizationServerBindingConfig | undefined {
  if (!isObject(value)) {
    fail("authorizationServer", "must be an object { binding, issuer }");
    return undefined;
  }
  refuseUnknown(value, ["binding", "issuer", "cacheSeconds", "negativeCacheSeconds", "cacheEntries"], "authorizationServer", fail);
  const binding = value["binding"];
  if (typeof binding !== "string" || !BINDING.test(binding))
    fail("authorizationServer.binding", "must be the name of a Service Binding to the authorization server");
  return { binding: binding as string, issuer: issuerOf(value["issuer"], "authorizationServer", fail), ...cacheOf(value, "authorizationServer", fail) };
}
