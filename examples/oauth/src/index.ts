/** An MCP Worker that signs its users in with an OpenID provider, and calls the provider's API as the user. */

import { env } from "cloudflare:workers";
import { createServer, defineTool } from "edge-mcp";
import { createWorker, type McpEnv } from "edge-mcp/workers";
import { createOAuthWorker, oauthSignIn, oidcUpstream, type OAuthEnv } from "edge-mcp/oauth";

interface Env extends McpEnv, OAuthEnv {
  OIDC_ISSUER: string;
  OIDC_CLIENT_ID: string;
  /** A Worker secret (`wrangler secret put OIDC_CLIENT_SECRET`); npm run dev:oauth passes the local provider's. */
  OIDC_CLIENT_SECRET?: string;
  /** The upstream API the `profile` tool calls (default: the provider's userinfo endpoint, `<issuer>/me` for oidc-provider). */
  UPSTREAM_API_URL?: string;
  OAUTH_DEV_LOOPBACK_CIMD?: string;
}

const signIn = oauthSignIn<Env>({
  upstream: oidcUpstream({ issuer: (e) => e.OIDC_ISSUER, clientId: (e) => e.OIDC_CLIENT_ID, clientSecret: (e) => e.OIDC_CLIENT_SECRET }),
  upstreamName: "the local OpenID provider",
  serverName: "the sign-in example",
  scopes: ["profile:read"],
  toolScopes: { profile: ["profile:read"] },
  cimd: { allowLoopback: (e) => e.OAUTH_DEV_LOOPBACK_CIMD === "true" },
});

const whoami = defineTool({
  name: "whoami",
  description: "Says who is signed in: the user's name and email at the identity provider.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  annotations: { readOnlyHint: true },
  handler: (_args, ctx) => {
    const user = signIn.user(ctx);
    if (user === undefined) return "Nobody is signed in.";
    const name = typeof user.claims["name"] === "string" ? user.claims["name"] : user.upstreamSubject;
    const email = typeof user.claims["email"] === "string" ? user.claims["email"] : "no email";
    return `You are ${name} (${email}), signed in with ${user.upstreamIssuer} as user ${user.principal.subject}.`;
  },
});

const profile = defineTool({
  name: "profile",
  description: "Reads the signed-in user's profile from the identity provider's API, as the user.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  annotations: { readOnlyHint: true, openWorldHint: true },
  handler: async (_args, ctx) => {
    const e = env as Env;
    const url = e.UPSTREAM_API_URL ?? `${e.OIDC_ISSUER.replace(/\/$/, "")}/me`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${signIn.upstreamToken(ctx)}`, accept: "application/json" }, signal: ctx.signal });
    if (!response.ok) return { content: [{ type: "text", text: `The identity provider answered HTTP ${response.status}.` }], isError: true };
    const claims = await response.json<Record<string, unknown>>();
    return { content: [{ type: "text", text: JSON.stringify(claims) }], structuredContent: claims };
  },
});

const server = createServer({ info: { name: "oauth-example", version: "1.0.0" }, tools: [whoami, profile] });

export default createOAuthWorker(createWorker<Env>(server, { authorizer: signIn.authorizer }), signIn);
