/** The `signIn` section of a tenant: its own authorization server, signing users in with its own OpenID provider. */

import { isObject } from "../core/json.ts";
import { refuseUnknown, stringList, type Fail } from "./config-fields.ts";

/** A tenant's own authorization server (with `tenantSignIn()` in `createMultiTenantWorker`). */
export interface TenantSignInConfig {
  /** The upstream OpenID provider's issuer (discovery at `<issuer>/.well-known/openid-configuration`): https, or http on a loopback host. */
  issuer: string;
  /** This tenant's client id at the upstream provider. */
  clientId: string;
  /** Its client secret, as one of the tenant's own secrets (`{"tenantSecret": "oidc-client"}`); without one the upstream client is public (PKCE only). */
  clientSecret?: { tenantSecret: string };
  /** Scopes asked upstream (default `openid profile email`). */
  upstreamScopes?: string[];
  /** Scopes this tenant's authorization server grants and advertises; a client's request is cut to these (default none). */
  scopes?: string[];
  /** Scopes a tool needs, by tool name (`"*"` for every tool without an entry of its own). */
  toolScopes?: Record<string, string[]>;
  /**
   * The MCP clients allowed to sign in, by `client_id`: an exact id, or a URL prefix ending in `/`
   * (`"https://claude.ai/"` admits that site's Client ID Metadata Documents). With a list, dynamic
   * registration is off. Default: any client, registered dynamically or by metadata document.
   */
  clients?: string[];
  /** Names on the consent page: this server's and the provider's. */
  serverName?: string;
  upstreamName?: string;
}

const FIELDS = ["issuer", "clientId", "clientSecret", "upstreamScopes", "scopes", "toolScopes", "clients", "serverName", "upstreamName"];
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/;
const SECRET_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

function url(value: unknown): URL | undefined {
  if (typeof value !== "string") return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

function text(value: unknown, field: string, fail: Fail): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "" || value.length > 256) fail(field, "must be a string of 1-256 characters");
  return value;
}

/** Validates a tenant's `signIn`; `fail` names the field ("signIn.clientSecret must be …"). */
export function parseSignIn(value: unknown, fail: Fail): TenantSignInConfig {
  if (!isObject(value)) return fail("signIn", "must be an object");
  refuseUnknown(
    Object.keys(value).filter((key) => !FIELDS.includes(key)),
    FIELDS,
    "signIn.",
    fail,
  );
  const issuer = url(value["issuer"]);
  if (!issuer || !(issuer.protocol === "https:" || (issuer.protocol === "http:" && LOOPBACK.test(issuer.hostname))) || issuer.search || issuer.hash)
    fail("signIn.issuer", "must be the OpenID provider's issuer URL: https (http only on a loopback host), no query or fragment");
  const config: TenantSignInConfig = {
    issuer: value["issuer"] as string,
    clientId: text(value["clientId"], "signIn.clientId", fail) ?? fail("signIn.clientId", "is required"),
  };
  const secret = value["clientSecret"];
  if (secret !== undefined) {
    if (!isObject(secret) || Object.keys(secret).length !== 1 || typeof secret["tenantSecret"] !== "string" || !SECRET_NAME.test(secret["tenantSecret"]))
      fail("signIn.clientSecret", `must be {"tenantSecret": "name"}, one of the tenant's own secrets (the config never holds the value itself)`);
    config.clientSecret = { tenantSecret: secret["tenantSecret"] };
  }
  const upstreamScopes = stringList(value["upstreamScopes"], "signIn.upstreamScopes", fail, SCOPE);
  if (upstreamScopes) config.upstreamScopes = upstreamScopes;
  const scopes = stringList(value["scopes"], "signIn.scopes", fail, SCOPE);
  if (scopes) config.scopes = scopes;
  const toolScopes = value["toolScopes"];
  if (toolScopes !== undefined) {
    if (!isObject(toolScopes)) fail("signIn.toolScopes", "must be an object of scope lists by tool name");
    for (const [tool, list] of Object.entries(toolScopes)) stringList(list, `signIn.toolScopes.${tool}`, fail, SCOPE);
    config.toolScopes = toolScopes as Record<string, string[]>;
  }
  const clients = stringList(value["clients"], "signIn.clients", fail);
  if (clients) {
    if (clients.some((client) => client === "" || client.length > 512)) fail("signIn.clients", "must list client ids or URL prefixes of 1-512 characters");
    config.clients = clients;
  }
  const serverName = text(value["serverName"], "signIn.serverName", fail);
  if (serverName !== undefined) config.serverName = serverName;
  const upstreamName = text(value["upstreamName"], "signIn.upstreamName", fail);
  if (upstreamName !== undefined) config.upstreamName = upstreamName;
  return config;
}
