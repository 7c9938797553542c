/** The identity provider users sign in with: what the authorization server asks of it. */

import type { UpstreamTokens } from "./signed-in.ts";

/** What the authorization server sends the browser upstream with (all of it fresh per sign-in). */
export interface UpstreamRequest {
  /** Our callback URL, exactly as registered at the upstream provider. */
  readonly redirectUri: string;
  /** Bound to this browser by the library's upstream cookie; checked at the callback. */
  readonly state: string;
  /** OIDC `nonce`, checked in the ID token. */
  readonly nonce: string;
  /** PKCE S256 challenge toward the upstream provider. */
  readonly codeChallenge: string;
}

/** What the callback proves about the user, after the code exchange. */
export interface UpstreamIdentity {
  readonly issuer: string;
  readonly subject: string;
  /** Claims kept for handlers (never tokens). */
  readonly claims: Record<string, unknown>;
  readonly tokens: UpstreamTokens;
}

/** The code exchange at the callback. */
export interface UpstreamCallback {
  readonly code: string;
  readonly redirectUri: string;
  readonly codeVerifier: string;
  readonly nonce: string;
  /** The `iss` parameter of the callback (RFC 9207), when the provider sent one. */
  readonly iss?: string;
}

/** An upstream identity provider (`oidcUpstream`, `githubUpstream`, or your own). `env` carries the secrets. */
export interface Upstream<E = unknown> {
  /** A name for logs and errors ("oidc", "github"). */
  readonly kind: string;
  /** Where to send the browser to sign in. */
  authorizationUrl(request: UpstreamRequest, env: E): Promise<string>;
  /** Exchanges the code and establishes who signed in; throws {@link UpstreamError} when it cannot. */
  signIn(callback: UpstreamCallback, env: E): Promise<UpstreamIdentity>;
  /**
   * Trades a refresh token for fresh tokens (`grant_type=refresh_token`). Throws
   * {@link UpstreamError}: ERR_UPSTREAM_REFUSED when the provider refused it for good (the grant is
   * over), ERR_UPSTREAM_UNAVAILABLE when it could not answer (try again later). Without it, an
   * upstream token is never refreshed.
   */
  refresh?(refreshToken: string, env: E): Promise<UpstreamTokens>;
}

/** An upstream sign-in that failed: the provider's answer was refused (its text is logged, never shown). */
export class UpstreamError extends Error {
  readonly code: "ERR_UPSTREAM_REFUSED" | "ERR_UPSTREAM_UNAVAILABLE" | "ERR_UPSTREAM_CONFIG";
  constructor(code: UpstreamError["code"], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "UpstreamError";
    this.code = code;
  }
}

/** The longest an upstream call may take, in ms. */
export const UPSTREAM_TIMEOUT_MS = 10_000;
/** The largest upstream JSON answer read, in bytes. */
const UPSTREAM_MAX_BYTES = 256 * 1024;

/** Reads a JSON object from an upstream answer, bounded in size; throws {@link UpstreamError}. */
export async function upstreamJson(response: Response, what: string): Promise<Record<string, unknown>> {
  const text = await response.text();
  if (text.length > UPSTREAM_MAX_BYTES) throw new UpstreamError("ERR_UPSTREAM_REFUSED", `${what}: the answer is larger than ${UPSTREAM_MAX_BYTES} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UpstreamError("ERR_UPSTREAM_REFUSED", `${what}: the answer (HTTP ${response.status}) is not JSON`, { cause: error });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new UpstreamError("ERR_UPSTREAM_REFUSED", `${what}: the answer is not a JSON object`);
  if (!response.ok) {
    const code = typeof (value as Record<string, unknown>)["error"] === "string" ? String((value as Record<string, unknown>)["error"]) : "no error code";
    throw new UpstreamError("ERR_UPSTREAM_REFUSED", `${what}: HTTP ${response.status} (${code})`);
  }
  return value as Record<string, unknown>;
}

/** Fetches with the upstream time limit; a network failure is ERR_UPSTREAM_UNAVAILABLE. */
export async function upstreamFetch(url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS) });
  } catch (error) {
    throw new UpstreamError("ERR_UPSTREAM_UNAVAILABLE", `${what}: ${url} did not answer`, { cause: error });
  }
}

/**
 * A refresh at a token endpoint: a provider that cannot answer (a network failure, HTTP 5xx) is
 * ERR_UPSTREAM_UNAVAILABLE; any other refusal is ERR_UPSTREAM_REFUSED. A provider that rotates refresh
 * tokens sends a new one; one that does not keeps the old one valid, so it is kept.
 */
export async function refreshAt(url: string, init: RequestInit, refreshToken: string, what: string): Promise<UpstreamTokens> {
  const response = await upstreamFetch(url, init, what);
  if (response.status >= 500) {
    await response.body?.cancel();
    throw new UpstreamError("ERR_UPSTREAM_UNAVAILABLE", `${what}: HTTP ${response.status}`);
  }
  const answer = await upstreamJson(response, what);
  // GitHub answers a refused grant with 200 and an `error` member.
  if (typeof answer["error"] === "string") throw new UpstreamError("ERR_UPSTREAM_REFUSED", `${what}: ${answer["error"]}`);
  const tokens = tokensOf(answer, what);
  return tokens.refreshToken === undefined ? { ...tokens, refreshToken } : tokens;
}

/** The upstream tokens of a token endpoint answer. */
export function tokensOf(answer: Record<string, unknown>, what: string): UpstreamTokens {
  const accessToken = answer["access_token"];
  if (typeof accessToken !== "string" || accessToken === "") throw new UpstreamError("ERR_UPSTREAM_REFUSED", `${what}: no access_token in the answer`);
  const refreshToken = answer["refresh_token"];
  const expiresIn = answer["expires_in"];
  const tokenType = answer["token_type"];
  return {
    accessToken,
    ...(typeof refreshToken === "string" ? { refreshToken } : {}),
    ...(typeof expiresIn === "number" ? { expiresAt: Math.floor(Date.now() / 1000) + expiresIn } : {}),
    ...(typeof tokenType === "string" ? { tokenType } : {}),
  };
}

/** A secret or setting given directly or read from env by name. */
export type EnvValue<E> = string | ((env: E) => string | undefined);

/** The value of a setting for this env; throws ERR_UPSTREAM_CONFIG naming it when it is missing. */
export function valueOf<E>(value: EnvValue<E>, env: E, name: string): string {
  const resolved = typeof value === "function" ? value(env) : value;
  if (resolved === undefined || resolved === "")
    throw new UpstreamError("ERR_UPSTREAM_CONFIG", `the upstream setting ${name} is empty: set it (or the var or secret it reads)`);
  return resolved;
}
