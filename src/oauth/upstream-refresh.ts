/**
 * The upstream token kept fresh through the grant. An MCP access token lives no longer than the
 * upstream token it carries, so a client's refresh comes before the upstream token runs out, and
 * that refresh trades the upstream refresh token too (the library's `tokenExchangeCallback`).
 */

import { GrantType, OAuthError, type TokenExchangeCallbackOptions, type TokenExchangeCallbackResult } from "@cloudflare/workers-oauth-provider";
import type { GrantProps } from "./signed-in.ts";
import { type Upstream, UpstreamError } from "./upstream.ts";

/** The library's shortest access token lifetime (KV's shortest expiry), in seconds. */
const MIN_ACCESS_SECONDS = 60;
/** An upstream token with less than this left is refreshed with the MCP token (the shortest MCP lifetime and a margin). */
const REFRESH_AHEAD_SECONDS = 120;
/** The MCP token ends this long before the upstream token, for clock skew and a call in flight. */
const SKEW_SECONDS = 30;

/** The access token lifetime that keeps the MCP token within the upstream token's life, or undefined to keep the default. */
function lifetimeWithin(expiresAt: number | undefined, defaultSeconds: number, now: number): number | undefined {
  if (expiresAt === undefined) return undefined;
  return Math.min(defaultSeconds, Math.max(MIN_ACCESS_SECONDS, expiresAt - now - SKEW_SECONDS));
}

/**
 * The `tokenExchangeCallback` of a Worker that signs users in upstream. At the code exchange it
 * shortens the MCP access token to the upstream token's life. At a refresh it refreshes the upstream
 * token when that has less than two minutes left. Both only where the provider gave a refresh token
 * and the upstream can use it (`Upstream.refresh`). A provider
 * that refuses the refresh ends the grant (`invalid_grant`: the user signs in again); one that
 * cannot answer (or a missing setting) gets `temporarily_unavailable`, and the grant stays for the next try.
 */
export function upstreamRefresh<E>(
  upstream: Upstream<E>,
  defaultSeconds: number,
): (options: TokenExchangeCallbackOptions<E>) => Promise<TokenExchangeCallbackResult | undefined> {
  return async (options) => {
    const props = options.props as GrantProps | undefined;
    const tokens = props?.upstream;
    if (props === undefined || tokens === undefined) return undefined;
    // Without a way to refresh, a shorter MCP token would not help: the upstream token lives as it lives.
    if (tokens.refreshToken === undefined || upstream.refresh === undefined) return undefined;
    const now = Math.floor(Date.now() / 1000);
    const due = tokens.expiresAt !== undefined && tokens.expiresAt - now < REFRESH_AHEAD_SECONDS;
    if (options.grantType === GrantType.AUTHORIZATION_CODE || (options.grantType === GrantType.REFRESH_TOKEN && !due)) {
      const accessTokenTTL = lifetimeWithin(tokens.expiresAt, defaultSeconds, now);
      return accessTokenTTL === undefined ? undefined : { accessTokenTTL };
    }
    if (options.grantType !== GrantType.REFRESH_TOKEN) return undefined;
    let fresh;
    try {
      fresh = await upstream.refresh(tokens.refreshToken, options.env);
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      // The provider's words go to the log only; the client learns what to do.
      console.warn(`edge-mcp oauth: the ${upstream.kind} upstream refused to refresh a grant's token: ${error.message}`);
      // Only the provider's refusal ends the grant; a provider that cannot answer, or a setting of ours, is not the user's doing.
      if (error.code !== "ERR_UPSTREAM_REFUSED") {
        throw new OAuthError("temporarily_unavailable", {
          description: "the upstream identity provider did not answer; try again shortly",
          statusCode: 503,
          headers: { "retry-after": "30" },
        });
      }
      throw new OAuthError("invalid_grant", { description: "the upstream sign-in has ended; sign in again" });
    }
    const accessTokenTTL = lifetimeWithin(fresh.expiresAt, defaultSeconds, now);
    const newProps: GrantProps = { ...props, upstream: fresh };
    return accessTokenTTL === undefined ? { newProps } : { newProps, accessTokenTTL };
  };
}
