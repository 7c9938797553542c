/** The `auth.issuerTemplates` field: issuers with one placeholder and an allowlist of its values (multi-tenant identity providers such as Entra ID). */

import type { JWK } from "jose";
import { isObject } from "../../core/json.ts";
import { AuthError } from "../auth-error.ts";
import { checkPublicJwk, isHttpsOrLoopback, isUrl, type ConfigFail } from "../config-checks.ts";
import { shown } from "../jose-errors.ts";
import { createKeyResolver, type KeyResolver, type KeySourceOptions } from "../key-source.ts";
import type { TemplateIssuers } from "../token-verifier.ts";

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

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]{0,31})\}/g;
const PLACEHOLDER_VALUE = /^[A-Za-z0-9._-]{1,128}$/;
const MAX_TEMPLATES = 16;
const MAX_ALLOWED = 10_000;

function refuseUnknown(value: Record<string, unknown>, known: readonly string[], field: string, fail: ConfigFail): void {
  for (const key of Object.keys(value)) if (!known.includes(key)) fail(`${field}.${key}`, `unknown field; known: ${known.join(", ")}`);
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

/** Whether `iss` fits the template, and the placeholder's value when it is an allowed one. */
function templateValue(template: IssuerTemplate, iss: string): { matches: boolean; value?: string } {
  if (iss.length <= template.prefix.length + template.suffix.length || !iss.startsWith(template.prefix) || !iss.endsWith(template.suffix))
    return { matches: false };
  const value = iss.slice(template.prefix.length, iss.length - template.suffix.length);
  if (!PLACEHOLDER_VALUE.test(value)) return { matches: false };
  return template.allowed.has(value) ? { matches: true, value } : { matches: true };
}

/**
 * The issuers of a list of templates, for `createBearerVerifier`: each template with its own key
 * set (Entra ID: one JWKS for every directory). `match` throws `ERR_WRONG_ISSUER` for an `iss` that
 * fits a template with a value outside its allowlist (another directory).
 */
export function createTemplateIssuers(templates: readonly IssuerTemplate[], options: KeySourceOptions = {}): TemplateIssuers {
  const entries = templates.map((template) => ({ template, resolver: createKeyResolver(template, options) as KeyResolver }));
  return {
    match(iss) {
      if (typeof iss !== "string") return undefined;
      for (const { template, resolver } of entries) {
        const found = templateValue(template, iss);
        if (!found.matches) continue;
        if (found.value === undefined)
          throw new AuthError("ERR_WRONG_ISSUER", `the token's issuer "${shown(iss)}" names a ${template.claim} this resource does not allow`);
        return { resolver, claim: template.claim, value: found.value };
      }
      return undefined;
    },
  };
}
