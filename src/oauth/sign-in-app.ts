/** The interactive part of the authorization server, as a small Hono app: consent, then upstream sign-in, then the grant. */

import { AuthorizationError, CimdFetchError, authorizationErrorRedirect, type AuthRequest, type OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { Hono, type Context } from "hono";
import { randomToken, sha256, toBase64Url } from "../core/bytes.ts";
import { PAGE_HEADERS, consentPage, errorPage } from "./consent-page.ts";
import type { GrantProps } from "./signed-in.ts";
import { type Upstream, UpstreamError } from "./upstream.ts";
import { userIdOf } from "./user-id.ts";

/** The path of the upstream provider's callback, on this Worker's origin (register `<origin>/oauth/callback` upstream). */
export const CALLBACK_PATH = "/oauth/callback";

/** Settings of the sign-in app. */
export interface SignInAppSettings<E> {
  readonly upstream: Upstream<E>;
  /** Scopes this server grants (the client's request is cut to these). */
  readonly scopes: readonly string[];
  readonly serverName: string;
  readonly upstreamName: string;
  /** Where the authorization server's endpoints are (a path-routed tenant's prefix, `/t/acme`); default the origin's root. */
  readonly basePath?: string;
}

interface UpstreamData {
  readonly verifier: string;
  readonly nonce: string;
}

type Bindings = { OAUTH_PROVIDER: OAuthHelpers };

function html(body: string, status: number, headers?: Headers): Response {
  const response = new Response(body, { status, headers: headers ?? {} });
  for (const [name, value] of Object.entries(PAGE_HEADERS)) response.headers.set(name, value);
  return response;
}

function redirect(location: string, headers?: Headers): Response {
  const response = new Response(null, { status: 302, headers: headers ?? {} });
  response.headers.set("location", location);
  response.headers.set("cache-control", "no-store");
  return response;
}

/** An authorization error: back to the client when the library validated where to (RFC 6749 §4.1.2.1), else a page here. */
function refusal(error: unknown): Response {
  if (error instanceof AuthorizationError)
    return error.redirectTo !== undefined ? redirect(error.redirectTo) : html(errorPage(error.code, error.description), 400);
  if (error instanceof CimdFetchError) return html(errorPage("invalid_client", "The client's metadata document could not be used."), 400);
  throw error;
}

/** An upstream failure: the provider's answer goes to the log only; the client learns that sign-in failed (RFC 6749 §4.1.2.1). */
function upstreamFailure(error: unknown, request: AuthRequest, kind: string, headers?: Headers): Response {
  if (!(error instanceof UpstreamError)) throw error;
  console.warn(`edge-mcp oauth: upstream sign-in (${kind}) failed: ${error.code}: ${error.message}`);
  const code = error.code === "ERR_UPSTREAM_REFUSED" ? "access_denied" : "temporarily_unavailable";
  return redirect(authorizationErrorRedirect(request, code, "The sign-in at the identity provider failed"), headers);
}

/** A POST from another site (Origin or Sec-Fetch-Site says so): refused before the handle is looked at. */
function crossSite(c: Context): boolean {
  const origin = c.req.header("origin");
  if (origin !== undefined && origin !== "null" && origin !== new URL(c.req.url).origin) return true;
  const site = c.req.header("sec-fetch-site");
  return site !== undefined && site !== "same-origin" && site !== "none";
}

/**
 * The app behind `/authorize` and the upstream callback. GET `/authorize` parses and checks the
 * request (the library: client, exact redirect URI, PKCE S256, resource), then shows the consent
 * page with a handle bound to this browser by a `__Host-` cookie (the CSRF token). POST `/authorize`
 * takes the handle once and sends the browser upstream with a fresh PKCE verifier and nonce, under
 * a `state` bound to the browser the same way. The callback takes the state once, signs the user
 * in upstream, and completes the grant with the upstream tokens in its (encrypted) props.
 */
export function createSignInApp<E>(settings: SignInAppSettings<E>): Hono<{ Bindings: Bindings }> {
  const app = new Hono<{ Bindings: Bindings }>();
  const offered = new Set(settings.scopes);
  const base = settings.basePath ?? "";
  const callbackPath = `${base}${CALLBACK_PATH}`;

  app.get(`${base}/authorize`, async (c) => {
    const helpers = c.env.OAUTH_PROVIDER;
    let request: AuthRequest;
    try {
      request = await helpers.parseAuthRequest(c.req.raw);
    } catch (error) {
      return refusal(error);
    }
    // OAuth 2.1 and MCP: PKCE with S256, for every client (the library already refuses `plain`).
    if (request.codeChallenge === undefined || request.codeChallengeMethod !== "S256") {
      return redirect(authorizationErrorRedirect(request, "invalid_request", "PKCE with code_challenge_method=S256 is required"));
    }
    // The client's request cut to the scopes this server grants: the page shows, and the grant gets, no more.
    const offer = { ...request, scope: request.scope.filter((s) => offered.has(s)) };
    const description = await helpers.describeConsent(offer);
    const { handle, headers } = await helpers.beginConsent(offer);
    return html(
      consentPage({ description, handle, serverName: settings.serverName, upstreamName: settings.upstreamName, action: `${base}/authorize` }),
      200,
      headers,
    );
  });

  app.post(`${base}/authorize`, async (c) => {
    if (crossSite(c)) return html(errorPage("invalid_request", "The consent form was posted from another site."), 403);
    const helpers = c.env.OAUTH_PROVIDER;
    const form = await c.req.formData().catch(() => undefined);
    const handle = form?.get("handle");
    if (typeof handle !== "string" || handle === "") return html(errorPage("invalid_request", "The consent form came without its handle."), 400);
    try {
      if (form?.get("decision") !== "approve") {
        const denied = await helpers.denyConsent(c.req.raw, handle);
        return redirect(denied.redirectTo, denied.headers);
      }
      const approved = await helpers.approveConsent(c.req.raw, handle);
      const data: UpstreamData = { verifier: randomToken(32), nonce: randomToken(24) };
      const { state, headers } = await helpers.beginUpstream(approved.request, { data, headers: approved.headers });
      const codeChallenge = toBase64Url(await sha256(data.verifier));
      const redirectUri = new URL(callbackPath, c.req.url).href;
      try {
        const location = await settings.upstream.authorizationUrl({ redirectUri, state, nonce: data.nonce, codeChallenge }, c.env as unknown as E);
        return redirect(location, headers);
      } catch (error) {
        return upstreamFailure(error, approved.request, settings.upstream.kind);
      }
    } catch (error) {
      return refusal(error);
    }
  });

  app.get(callbackPath, async (c) => {
    const helpers = c.env.OAUTH_PROVIDER;
    let resumed: Awaited<ReturnType<OAuthHelpers["finishUpstream"]>>;
    try {
      // The state must be one this browser started (its cookie), and it works once; where to go next
      // comes only from the request the library stored, never from this URL (no open redirect).
      resumed = await helpers.finishUpstream(c.req.raw);
    } catch (error) {
      return refusal(error);
    }
    const request = resumed.request;
    const query = new URL(c.req.url).searchParams;
    const code = query.get("code");
    if (query.get("error") !== null || code === null) {
      return redirect(authorizationErrorRedirect(request, "access_denied", "The sign-in at the identity provider did not complete"), resumed.headers);
    }
    const data = resumed.data as UpstreamData;
    try {
      const iss = query.get("iss");
      const identity = await settings.upstream.signIn(
        { code, redirectUri: new URL(callbackPath, c.req.url).href, codeVerifier: data.verifier, nonce: data.nonce, ...(iss === null ? {} : { iss }) },
        c.env as unknown as E,
      );
      const props: GrantProps = { upstreamIssuer: identity.issuer, upstreamSubject: identity.subject, claims: identity.claims, upstream: identity.tokens };
      const userId = await userIdOf(identity.issuer, identity.subject);
      const { redirectTo } = await helpers.completeAuthorization({
        request,
        userId,
        metadata: { upstream: settings.upstream.kind },
        scope: request.scope,
        props,
      });
      return redirect(redirectTo, resumed.headers);
    } catch (error) {
      return upstreamFailure(error, request, settings.upstream.kind, resumed.headers);
    }
  });

  app.notFound(() => new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } }));
  return app;
}
