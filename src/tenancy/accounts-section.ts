/**
 * The `accounts` section of a tenant's config: the providers its users connect accounts at
 * (connected accounts, docs/connected-accounts.md). Checked in full by the admin API and by the
 * Worker's `connectedAccounts()`; the document parser checks only that it is an object.
 */

import { isObject } from "../core/json.ts";
import { refuseUnknown, stringList, type Fail } from "./config-fields.ts";
import type { TenantSecretRef } from "./remote-section.ts";

/** One provider as a tenant declares it: `issuer` (discovery) or both endpoints, the client, the client secret by tenant secret name. */
export interface TenantAccountProvider {
  title?: string;
  issuer?: string;
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  clientId: string;
  /** The tenant's own sealed secret holding the client secret (`{"tenantSecret": "github-client-secret"}`); none for a public client. */
  clientSecret?: TenantSecretRef;
  tokenAuth?: "basic" | "post";
  scopes?: string[];
  authorizationParams?: Record<string, string>;
}

/** `accounts`: the tenant's providers, by name. */
export interface TenantAccounts {
  providers: Record<string, TenantAccountProvider>;
}

/** A provider's name: what `ctx.accounts.token(name)` passes. */
export const PROVIDER_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** A tenant secret's name, as the admin API stores it. */
const SECRET_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const PROVIDER_FIELDS = ["title", "issuer", "authorizationEndpoint", "tokenEndpoint", "clientId", "clientSecret", "tokenAuth", "scopes", "authorizationParams"];
/** Most providers one tenant declares. */
const MAX_PROVIDERS = 32;

/** An absolute https URL (http only to loopback, for a local provider in development). */
function endpoint(value: unknown, field: string, fail: Fail): string | undefined {
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = typeof value === "string" && value.length <= 2048 ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  const loopback = url?.hostname === "127.0.0.1" || url?.hostname === "localhost" || url?.hostname === "[::1]";
  if (url === undefined || !(url.protocol === "https:" || (url.protocol === "http:" && loopback)))
    fail(field, "must be an https URL (http only to 127.0.0.1 or localhost)");
  return value as string;
}

function text(value: unknown, field: string, fail: Fail, max = 256): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "" || value.length > max) fail(field, `must be a string of 1 to ${max} characters`);
  return value;
}

function parseProvider(value: unknown, field: string, fail: Fail): TenantAccountProvider {
  if (!isObject(value)) return fail(field, `must be an object such as {"issuer": "https://accounts.example.com", "clientId": "…"}`);
  const { title, issuer, authorizationEndpoint, tokenEndpoint, clientId, clientSecret, tokenAuth, scopes, authorizationParams, ...unknown } = value;
  refuseUnknown(Object.keys(unknown), PROVIDER_FIELDS, `${field}.`, fail);
  const provider: TenantAccountProvider = { clientId: text(clientId, `${field}.clientId`, fail) ?? fail(`${field}.clientId`, "is required") };
  const name = text(title, `${field}.title`, fail, 64);
  if (name !== undefined) provider.title = name;
  const discovered = endpoint(issuer, `${field}.issuer`, fail);
  const authorize = endpoint(authorizationEndpoint, `${field}.authorizationEndpoint`, fail);
  const token = endpoint(tokenEndpoint, `${field}.tokenEndpoint`, fail);
  if (discovered === undefined && (authorize === undefined || token === undefined)) fail(field, "needs issuer, or authorizationEndpoint and tokenEndpoint");
  if (discovered !== undefined) provider.issuer = discovered;
  if (authorize !== undefined) provider.authorizationEndpoint = authorize;
  if (token !== undefined) provider.tokenEndpoint = token;
  if (clientSecret !== undefined) {
    const secretName = isObject(clientSecret) && Object.keys(clientSecret).length === 1 ? clientSecret["tenantSecret"] : undefined;
    if (typeof secretName !== "string" || !SECRET_NAME.test(secretName))
      fail(`${field}.clientSecret`, `must be {"tenantSecret": "name"}, one of the tenant's own secrets (the config never holds the value itself)`);
    provider.clientSecret = { tenantSecret: secretName };
  }
  if (tokenAuth !== undefined) {
    if (tokenAuth !== "basic" && tokenAuth !== "post") fail(`${field}.tokenAuth`, `must be "basic" or "post"`);
    provider.tokenAuth = tokenAuth;
  }
  const list = stringList(scopes, `${field}.scopes`, fail, /^[\x21\x23-\x5B\x5D-\x7E]{1,128}$/);
  if (list !== undefined) provider.scopes = list;
  if (authorizationParams !== undefined) {
    if (!isObject(authorizationParams) || !Object.values(authorizationParams).every((v) => typeof v === "string" && v.length <= 256))
      fail(`${field}.authorizationParams`, "must be an object of strings");
    provider.authorizationParams = authorizationParams as Record<string, string>;
  }
  return provider;
}

/** Parses `accounts`; `fail` names the field ("tenant acme: accounts.providers.github.clientId is required"). */
export function parseAccountsSection(value: unknown, fail: Fail): TenantAccounts {
  if (!isObject(value)) return fail("accounts", `must be an object such as {"providers": {"github": {...}}}`);
  const { providers, ...unknown } = value;
  refuseUnknown(Object.keys(unknown), ["providers"], "accounts.", fail);
  if (!isObject(providers)) return fail("accounts.providers", "must be an object of providers by name");
  const names = Object.keys(providers);
  if (names.length > MAX_PROVIDERS) fail("accounts.providers", `declares ${names.length} providers; at most ${MAX_PROVIDERS}`);
  const parsed = names.map((name): [string, TenantAccountProvider] => {
    if (!PROVIDER_NAME.test(name)) fail(`accounts.providers.${name.slice(0, 64)}`, "is not a provider name: 1 to 64 of A-Z a-z 0-9 _ -");
    return [name, parseProvider(providers[name], `accounts.providers.${name}`, fail)];
  });
  // fromEntries defines own properties: a provider named __proto__ is a provider, not a prototype.
  return { providers: Object.fromEntries(parsed) };
}
