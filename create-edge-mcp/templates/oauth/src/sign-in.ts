/** How users sign in: the upstream OpenID provider, the scopes clients may ask for, and which tool needs which. */

import { oauthSignIn, oidcUpstream, type OAuthEnv } from "edge-mcp/oauth";
import type { McpEnv } from "edge-mcp/workers";

export interface Env extends McpEnv, OAuthEnv {
  OIDC_ISSUER: string;
  OIDC_CLIENT_ID: string;
  /** A Worker secret (`wrangler secret put OIDC_CLIENT_SECRET`); `npm run dev` passes the local provider's. */
  OIDC_CLIENT_SECRET?: string;
  /** Development only (`npm run dev` sets it): clients may publish their metadata document on a loopback host. */
  OAUTH_DEV_LOOPBACK_CIMD?: string;
}

declare module "edge-mcp" {
  interface HandlerEnv extends Env {}
}

export const signIn = oauthSignIn<Env>({
  upstream: oidcUpstream({ issuer: (env) => env.OIDC_ISSUER, clientId: (env) => env.OIDC_CLIENT_ID, clientSecret: (env) => env.OIDC_CLIENT_SECRET }),
  upstreamName: "your identity provider",
  serverName: "{{name}}",
  scopes: ["profile:read"],
  toolScopes: { profile: ["profile:read"] },
  cimd: { allowLoopback: (env) => env.OAUTH_DEV_LOOPBACK_CIMD === "true" },
});
