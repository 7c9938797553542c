/** A provider users connect accounts at (OAuth 2 / OIDC): its declaration, its resolved endpoints, and the token endpoint calls. */

import { toBase64 } from "../../core/bytes.ts";

/** A setting given directly, or read from the Worker's env. */
export type AccountSetting<E> = string | ((env: E) => string | undefined);

/** A provider of connected accounts, declared in code. Give `issuer` (discovery) or both endpoints. */
export interface AccountProvider<E = Record<string, unknown>> {
  /** Its name on the pages ("GitHub"); default the key it is declared under. */
  readonly title?: string;
  /** An OIDC / RFC 8414 issuer: the endpoints come from its metadata (read once per isolate). */
  readonly issuer?: AccountSetting<E>;
  readonly authorizationEndpoint?: AccountSetting<E>;
  readonly tokenEndpoint?: AccountSetting<E>;
  readonly clientId: AccountSetting<E>;
  /**
   * The client secret: the name of the Worker secret that holds it (`{ binding: "GITHUB_CLIENT_SECRET" }`),
   * or, for a provider of a tenant's config, one of the tenant's own secrets (`{ tenantSecret: "github" }`). None for a public client.
   */
  readonly clientSecret?: { readonly binding: string } | { readonly tenantSecret: string };
  /** How the client authenticates at the token endpoint (default `basic`, RFC 6749 §2.3.1). */
  readonly tokenAuth?: "basic" | "post";
  readonly scopes?: readonly string[];
  /** Extra authorization request parameters (`{ access_type: "offline" }` for Google's refresh tokens). */
  readonly authorizationParams?: Readonly<Record<string, string>>;
}

/** A provider with its settings read for one env: what the accounts object needs. Holds the client secret: never logged. */
export interface ResolvedProvider {
  readonly name: string;
  readonly title: string;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  readonly clientId: string;
  readonly clientSecret?: string;
  readonly tokenAuth: "basic" | "post";
  readonly scopes: readonly string[];
  readonly authorizationParams: Readonly<Record<string, string>>;
}

/** Tokens of an account as the token endpoint gave them. */
export interface AccountTokens {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** Seconds since the epoch; absent when the provider did not say. */
  readonly expiresAt?: number;
  /** When the token endpoint gave them, in seconds since the epoch. */
  readonly obtainedAt: number;
  readonly scope?: string;
}

/** A token endpoint call that failed: `revoked` (invalid_grant: connect again) or `unavailable` (try later). */
export class AccountTokenError extends Error {
  override readonly name = "AccountTokenError";
  constructor(
    readonly code: "revoked" | "unavailable",
    message: string,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 64 * 1024;
/** Discovered endpoints, per issuer, for the isolate's life. */
const discovered = new Map<string, Promise<{ authorizationEndpoint: string; tokenEndpoint: string }>>();

function settingOf<E>(value: AccountSetting<E> | undefined, env: E): string | undefined {
  const resolved = typeof value === "function" ? value(env) : value;
  return resolved === "" ? undefined : resolved;
}

async function discover(issuer: string): Promise<{ authorizationEndpoint: string; tokenEndpoint: string }> {
  const base = issuer.replace(/\/$/, "");
  for (const path of ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"]) {
    const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "manual" }).catch(() => undefined);
    if (response?.ok !== true) continue;
    const metadata = await boundedJson(response);
    const authorizationEndpoint = metadata?.["authorization_endpoint"];
    const tokenEndpoint = metadata?.["token_endpoint"];
    if (typeof authorizationEndpoint === "string" && typeof tokenEndpoint === "string") return { authorizationEndpoint, tokenEndpoint };
  }
  throw new AccountTokenError("unavailable", `the provider's metadata at ${base} names no authorization and token endpoints`);
}

/** Reads one provider's settings for this env (a tenant's secrets through `tenantSecret`); throws naming the setting that is missing. */
export async function resolveProvider<E>(
  name: string,
  provider: AccountProvider<E>,
  env: E,
  tenantSecret?: (name: string) => Promise<string>,
): Promise<ResolvedProvider> {
  let authorizationEndpoint = settingOf(provider.authorizationEndpoint, env);
  let tokenEndpoint = settingOf(provider.tokenEndpoint, env);
  if (authorizationEndpoint === undefined || tokenEndpoint === undefined) {
    const issuer = settingOf(provider.issuer, env);
    if (issuer === undefined) throw new Error(`connected account provider "${name}" needs issuer, or authorizationEndpoint and tokenEndpoint`);
    let metadata = discovered.get(issuer);
    if (metadata === undefined) {
      metadata = discover(issuer);
      discovered.set(issuer, metadata);
      // A failed discovery is not kept: the next call tries again.
      metadata.catch(() => discovered.delete(issuer));
    }
    const found = await metadata;
    authorizationEndpoint ??= found.authorizationEndpoint;
    tokenEndpoint ??= found.tokenEndpoint;
  }
  const clientId = settingOf(provider.clientId, env);
  if (clientId === undefined) throw new Error(`connected account provider "${name}" has an empty clientId`);
  let clientSecret: string | undefined;
  if (provider.clientSecret !== undefined && "tenantSecret" in provider.clientSecret) {
    if (tenantSecret === undefined) throw new Error(`connected account provider "${name}" reads a tenant secret, and this Worker has no tenant secrets`);
    clientSecret = await tenantSecret(provider.clientSecret.tenantSecret);
  } else if (provider.clientSecret !== undefined) {
    const value = (env as Record<string, unknown>)[provider.clientSecret.binding];
    if (typeof value !== "string" || value === "")
      throw new Error(`connected account provider "${name}" reads its client secret from ${provider.clientSecret.binding}, which is not set`);
    clientSecret = value;
  }
  return {
    name,
    title: provider.title ?? name,
    authorizationEndpoint,
    tokenEndpoint,
    clientId,
    ...(clientSecret === undefined ? {} : { clientSecret }),
    tokenAuth: provider.tokenAuth ?? "basic",
    scopes: provider.scopes ?? [],
    authorizationParams: provider.authorizationParams ?? {},
  };
}

async function boundedJson(response: Response): Promise<Record<string, unknown> | undefined> {
  const text = await response.text();
  if (text.length > MAX_ANSWER_BYTES) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Calls the provider's token endpoint (RFC 6749 §4.1.3, §6; RFC 8693) with the client's authentication. Its error text is never relayed. */
export async function tokenRequest(provider: ResolvedProvider, params: Record<string, string>): Promise<AccountTokens> {
  const body = new URLSearchParams(params);
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
  if (provider.clientSecret !== undefined && provider.tokenAuth === "basic") {
    // RFC 6749 §2.3.1: both parts form-encoded before base64.
    const user = encodeURIComponent(provider.clientId);
    const password = encodeURIComponent(provider.clientSecret);
    headers["authorization"] = `Basic ${toBase64(new TextEncoder().encode(`${user}:${password}`))}`;
  } else {
    body.set("client_id", provider.clientId);
    if (provider.clientSecret !== undefined) body.set("client_secret", provider.clientSecret);
  }
  let response: Response;
  try {
    response = await fetch(provider.tokenEndpoint, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch {
    throw new AccountTokenError("unavailable", `the token endpoint of ${provider.title} did not answer`);
  }
  const answer = await boundedJson(response);
  if (!response.ok || answer === undefined) {
    const error = answer?.["error"];
    if (error === "invalid_grant") throw new AccountTokenError("revoked", `${provider.title} refused the grant (invalid_grant)`);
    throw new AccountTokenError(
      "unavailable",
      `the token endpoint of ${provider.title} answered HTTP ${response.status}${typeof error === "string" ? ` (${error.slice(0, 40)})` : ""}`,
    );
  }
  const accessToken = answer["access_token"];
  if (typeof accessToken !== "string" || accessToken === "") throw new AccountTokenError("unavailable", `${provider.title} answered without an access_token`);
  const refreshToken = answer["refresh_token"];
  const expiresIn = answer["expires_in"];
  const scope = answer["scope"];
  return {
    accessToken,
    obtainedAt: Math.floor(Date.now() / 1000),
    ...(typeof refreshToken === "string" && refreshToken !== "" ? { refreshToken } : {}),
    ...(typeof expiresIn === "number" && expiresIn > 0 ? { expiresAt: Math.floor(Date.now() / 1000) + expiresIn } : {}),
    ...(typeof scope === "string" ? { scope } : {}),
  };
}
