/** The `auth` fields for tokens beyond pinned-issuer JWTs: issuer templates, RFC 7662 introspection, an authorization server over a Service Binding. */

import type { JWK } from "jose";
import { isObject } from "../core/json.ts";
import { checkPublicJwk, isHttpsOrLoopback, isUrl, type ConfigFail } from "./config-checks.ts";

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
  readonly clientSecretBinding: string;
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

/**
 * An issuer with one placeholder, such as `https://login.microsoftonline.com/{tid}/v2.0`: a token's
 * `iss` must match it with a placeholder value in `allowed`, and the claim named like the
 * placeholder, when the token has it, must equal that value.
 */
export interface IssuerTemplate {
  readonly template: string;
  /** The placeholder's name, also the claim checked against it (`tid`). */
  readonly claim: string;
  /** The placeholder values accepted (directory ids). */
  readonly allowed: ReadonlySet<string>;
  readonly jwksUri?: string;
  readonly keys?: readonly JWK[];
  /** The template's text before and after the placeholder. */
  readonly prefix: string;
  readonly suffix: string;
}

const BINDING = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const CLIENT_ID = /^[\x21-\x7E]{1,256}$/;
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]{0,31})\}/g;
const PLACEHOLDER_VALUE = /^[A-Za-z0-9._-]{1,128}$/;
const MAX_TEMPLATES = 16;
const MAX_ALLOWED = 10_000;

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
  const { endpoint, clientId, clientSecretBinding, requireAudience } = value;
  if (!isHttpsOrLoopback(endpoint)) fail("introspection.endpoint", "must be an https URL (http only on 127.0.0.1, localhost or [::1])");
  if (typeof clientId !== "string" || !CLIENT_ID.test(clientId)) fail("introspection.clientId", "must be a client id (1-256 visible ASCII characters)");
  if (typeof clientSecretBinding !== "string" || !BINDING.test(clientSecretBinding))
    fail("introspection.clientSecretBinding", "must be the name of a secret binding (e.g. INTROSPECTION_SECRET), never the secret itself");
  if (requireAudience !== undefined && typeof requireAudience !== "boolean") fail("introspection.requireAudience", "must be true or false");
  return {
    endpoint: endpoint as string,
    clientId: clientId as string,
    clientSecretBinding: clientSecretBinding as string,
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
  if (typeof binding !== "string" || !BINDING.test(binding)) fail("authorizationServer.binding", "must be the name of a Service Binding to the authorization server");
  return { binding: binding as string, issuer: issuerOf(value["issuer"], "authorizationServer", fail), ...cacheOf(value, "authorizationServer", fail) };
}

function parseTemplate(value: unknown, field: string, fail: ConfigFail): IssuerTemplate | undefined {
  if (!isObject(value)) {
    fail(field, `must be an object { template, allowed, jwksUri }`);
    return undefined;
  }
  refuseUnknown(value, ["template", "allowed", "jwksUri", "keys"], field, fail);
  const { template, allowed, jwksUri, keys } = value;
  const placeholders = typeof template === "string" ? [...template.matchAll(PLACEHOLDER)] : [];
  const [placeholder] = placeholders;
  if (typeof template !== "string" || placeholders.length !== 1 || placeholder?.[1] === undefined) {
    fail(`${field}.template`, `must be an issuer URL with exactly one placeholder, e.g. "https://login.microsoftonline.com/{tid}/v2.0"`);
    return undefined;
  }
  const prefix = template.slice(0, placeholder.index);
  const suffix = template.slice(placeholder.index + placeholder[0].length);
  if (!isUrl(`${prefix}x${suffix}`) || !/^https?:\/\/[^/{]+\//.test(prefix))
    fail(`${field}.template`, "must be an http(s) URL whose placeholder comes after the host (in the path)");
  if (!Array.isArray(allowed) || allowed.length === 0 || allowed.length > MAX_ALLOWED) {
    fail(`${field}.allowed`, `must list the accepted values of {${placeholder[1]}} (1 to ${MAX_ALLOWED}); there is no wildcard`);
  } else {
    allowed.forEach((item: unknown, i) => {
      if (typeof item !== "string" || !PLACEHOLDER_VALUE.test(item)) fail(`${field}.allowed[${i}]`, "must be 1-128 characters of A-Z a-z 0-9 . _ -");
    });
  }
  if (jwksUri !== undefined && !isHttpsOrLoopback(jwksUri)) fail(`${field}.jwksUri`, "must be an https URL (http only on 127.0.0.1, localhost or [::1])");
  if (keys !== undefined) {
    if (!Array.isArray(keys) || keys.length === 0) fail(`${field}.keys`, "must be a non-empty array of public JWKs");
    else keys.forEach((jwk: unknown, i) => checkPublicJwk(jwk, (problem) => fail(`${field}.keys[${i}]`, problem)));
  }
  if (jwksUri === undefined && keys === undefined) fail(`${field}.jwksUri`, "each template needs jwksUri or keys to verify its tokens");
  return {
    template,
    claim: placeholder[1],
    allowed: new Set(Array.isArray(allowed) ? allowed.filter((item): item is string => typeof item === "string") : []),
    prefix,
    suffix,
    ...(typeof jwksUri === "string" ? { jwksUri } : {}),
    ...(Array.isArray(keys) ? { keys: keys as JWK[] } : {}),
  };
}

/** `auth.issuerTemplates`: a list of templates. */
export function parseIssuerTemplates(value: unknown, fail: ConfigFail): readonly IssuerTemplate[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_TEMPLATES) {
    fail("issuerTemplates", `must be a non-empty array of at most ${MAX_TEMPLATES} { template, allowed, jwksUri }`);
    return [];
  }
  return value.map((item: unknown, i) => parseTemplate(item, `issuerTemplates[${i}]`, fail)).filter((item): item is IssuerTemplate => item !== undefined);
}

/** The allowed value of the template's placeholder in `iss`, or undefined when `iss` does not fit the template or names another value. */
export function templateValue(template: IssuerTemplate, iss: string): { matches: boolean; value?: string } {
  if (iss.length <= template.prefix.length + template.suffix.length || !iss.startsWith(template.prefix) || !iss.endsWith(template.suffix))
    return { matches: false };
  const value = iss.slice(template.prefix.length, iss.length - template.suffix.length);
  if (!PLACEHOLDER_VALUE.test(value)) return { matches: false };
  return template.allowed.has(value) ? { matches: true, value } : { matches: true };
}
