/**
 * Who the browser that follows a connect link is: it signs in through the Worker's own sign-in
 * (where there is one) before the confirmation page, so that a link forwarded to someone else
 * cannot link their account to the principal it was minted for (2025-11-25 URL elicitation,
 * security considerations: account linking confusion).
 */

import { randomToken, sha256, toBase64Url } from "../../core/bytes.ts";
import type { AccountKeys } from "./account-keys.ts";
import type { ConnectState } from "./connect-state.ts";

/** The Worker's sign-in, as the connect routes use it: `signIn.browserSignIn` of `edge-mcp/oauth` is one. */
export interface BrowserSignIn<E> {
  /** Where to send the browser to sign in; the provider returns it to `redirectUri` (register `<origin>/accounts/identify` there). */
  authorizationUrl(request: { redirectUri: string; state: string; nonce: string; codeChallenge: string }, env: E): Promise<string>;
  /** Exchanges the code and answers the principal (issuer and subject, as admission names them) the browser signed in as. */
  principal(
    callback: { code: string; redirectUri: string; codeVerifier: string; nonce: string; iss?: string },
    env: E,
    origin: string,
  ): Promise<{ issuer: string; subject: string }>;
}

export const IDENTIFY_PATH = "/accounts/identify";
/** A random value bound to the browser before it leaves for the sign-in: a sign-in finished in another browser does not count here. */
export const BROWSER_COOKIE = "mcp_accounts_browser";
/** Proof that this browser signed in as the principal of one connect link. */
const SIGNED_IN_COOKIE = "mcp_accounts_signed_in";
/** Proof that this browser confirmed one connect link: the callback counts only in the browser that confirmed. */
const CONFIRMED_COOKIE = "mcp_accounts_confirmed";
export const COOKIE_ATTRIBUTES = "Path=/accounts; HttpOnly; SameSite=Lax; Max-Age=600";

export function cookieOf(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

export function secureFlag(baseUrl: string): string {
  return baseUrl.startsWith("https:") ? "; Secure" : "";
}

/** The PKCE verifier and OIDC nonce of the sign-in for one link in one browser: derived under the key, so nothing is stored. */
async function derived(keys: AccountKeys, nonce: string, browser: string): Promise<{ verifier: string; oidcNonce: string }> {
  return { verifier: await keys.sign(`identify-verifier\n${nonce}\n${browser}`), oidcNonce: await keys.sign(`identify-nonce\n${nonce}\n${browser}`) };
}

/** True when this browser signed in as the link's principal (the cookie the identify callback set for this link). */
export async function signedInFor(request: Request, keys: AccountKeys, state: ConnectState): Promise<boolean> {
  const browser = cookieOf(request, BROWSER_COOKIE);
  const proof = cookieOf(request, SIGNED_IN_COOKIE);
  if (browser === undefined || proof === undefined) return false;
  return keys.verify(`signed-in\n${state.nonce}\n${browser}\n${state.issuer}\n${state.subject}`, proof);
}

/** Sends the browser to sign in, bound to it by a fresh cookie. */
export async function identifyRedirect<E>(
  signIn: BrowserSignIn<E>,
  keys: AccountKeys,
  env: E,
  baseUrl: string,
  state: ConnectState,
  stateText: string,
): Promise<Response> {
  const browser = randomToken();
  const { verifier, oidcNonce } = await derived(keys, state.nonce, browser);
  const location = await signIn.authorizationUrl(
    { redirectUri: `${baseUrl}${IDENTIFY_PATH}`, state: stateText, nonce: oidcNonce, codeChallenge: toBase64Url(await sha256(verifier)) },
    env,
  );
  return new Response(null, {
    status: 303,
    headers: { location, "cache-control": "no-store", "set-cookie": `${BROWSER_COOKIE}=${browser}; ${COOKIE_ATTRIBUTES}${secureFlag(baseUrl)}` },
  });
}

/**
 * The sign-in's callback: the code is exchanged with the verifier of this browser (another
 * browser's callback fails PKCE at the provider), and the principal it names must be the link's.
 * Answers the redirect back to the confirmation, or "mismatch" / "failed".
 */
export async function identifyCallback<E>(
  signIn: BrowserSignIn<E>,
  keys: AccountKeys,
  env: E,
  baseUrl: string,
  request: Request,
  state: ConnectState,
  stateText: string,
): Promise<Response | "mismatch" | "failed"> {
  const url = new URL(request.url);
  const code = url.searchParams.get("code");
  const browser = cookieOf(request, BROWSER_COOKIE);
  if (code === null || code === "" || code.length > 2048 || browser === undefined || !/^[A-Za-z0-9_-]{32}$/.test(browser)) return "failed";
  const { verifier, oidcNonce } = await derived(keys, state.nonce, browser);
  const iss = url.searchParams.get("iss");
  let principal: { issuer: string; subject: string };
  try {
    principal = await signIn.principal(
      { code, redirectUri: `${baseUrl}${IDENTIFY_PATH}`, codeVerifier: verifier, nonce: oidcNonce, ...(iss === null ? {} : { iss }) },
      env,
      new URL(baseUrl).origin,
    );
  } catch (error) {
    console.warn(JSON.stringify({ event: "accounts.identify_failed", tenant: state.tenant, reason: error instanceof Error ? error.message : "unknown" }));
    return "failed";
  }
  if (principal.issuer !== state.issuer || principal.subject !== state.subject) return "mismatch";
  const proof = await keys.sign(`signed-in\n${state.nonce}\n${browser}\n${state.issuer}\n${state.subject}`);
  return new Response(null, {
    status: 303,
    headers: {
      location: `${baseUrl}/accounts/connect?state=${encodeURIComponent(stateText)}`,
      "cache-control": "no-store",
      "set-cookie": `${SIGNED_IN_COOKIE}=${proof}; ${COOKIE_ATTRIBUTES}${secureFlag(baseUrl)}`,
    },
  });
}

/**
 * The cookies a confirmation sets: the browser's random value (kept when it has one) and the proof
 * that it confirmed this link. A provider URL forwarded to another browser after the confirmation
 * ends at a callback that browser cannot complete.
 */
export async function confirmationCookies(request: Request, keys: AccountKeys, nonce: string, baseUrl: string): Promise<string[]> {
  const existing = cookieOf(request, BROWSER_COOKIE);
  const browser = existing !== undefined && /^[A-Za-z0-9_-]{32}$/.test(existing) ? existing : randomToken();
  const proof = await keys.sign(`confirmed\n${nonce}\n${browser}`);
  const attributes = `${COOKIE_ATTRIBUTES}${secureFlag(baseUrl)}`;
  return [`${BROWSER_COOKIE}=${browser}; ${attributes}`, `${CONFIRMED_COOKIE}=${proof}; ${attributes}`];
}

/** True when this browser confirmed the link (see {@link confirmationCookies}). */
export async function confirmedFor(request: Request, keys: AccountKeys, nonce: string): Promise<boolean> {
  const browser = cookieOf(request, BROWSER_COOKIE);
  const proof = cookieOf(request, CONFIRMED_COOKIE);
  if (browser === undefined || proof === undefined) return false;
  return keys.verify(`confirmed\n${nonce}\n${browser}`, proof);
}
