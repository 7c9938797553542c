/** An MCP Worker that signs its users in with an OpenID provider, and calls the provider's API as the user. */

import { env } from "cloudflare:workers";
import { createServer, defineTool } from "edge-mcp";
import { connectedAccounts, createWorker, observability, type McpEnv } from "edge-mcp/workers";
import { createOAuthWorker, oauthSignIn, oidcUpstream, type OAuthEnv } from "edge-mcp/oauth";

interface Env extends McpEnv, OAuthEnv {
  OIDC_ISSUER: string;
  OIDC_CLIENT_ID: string;
  /** A Worker secret (`wrangler secret put OIDC_CLIENT_SECRET`); npm run dev:oauth passes the local provider's. */
  OIDC_CLIENT_SECRET?: string;
  /** The upstream API the `profile` tool calls (default: the provider's userinfo endpoint, `<issuer>/me` for oidc-provider). */
  UPSTREAM_API_URL?: string;
  OAUTH_DEV_LOOPBACK_CIMD?: string;
  /** The Worker's public origin: connect links and the accounts provider's redirect URI start with it. */
  PUBLIC_URL: string;
  /** The client of this Worker at the provider users connect (`fixture`: the local OpenID provider again, under another client). */
  FIXTURE_CLIENT_ID: string;
  /** A Worker secret: the `fixture` client's secret. */
  FIXTURE_CLIENT_SECRET?: string;
  /** A Worker secret: the keys that seal connected accounts' tokens (first seals, all open). */
  MCP_ACCOUNTS_KEY?: string;
  /** The API `whoami_upstream` calls as the user (default: the provider's userinfo, `<issuer>/me`). */
  FIXTURE_API_URL?: string;
  /** The API `whoami_exchanged` calls with a token exchanged for its audience (default: the local provider's `<issuer>/dev/fixture-api/me`). */
  FIXTURE_EXCHANGE_API_URL?: string;
}

/** The audience the fixture API's tokens are exchanged for (RFC 8693). */
const FIXTURE_API_AUDIENCE = "https://api.fixture.example";

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

// Connected accounts: tools act for their user at another provider, with a token of the user's own.
const accounts = connectedAccounts<Env>({
  providers: {
    fixture: {
      title: "the fixture provider",
      issuer: (e) => e.OIDC_ISSUER,
      clientId: (e) => e.FIXTURE_CLIENT_ID,
      clientSecret: { binding: "FIXTURE_CLIENT_SECRET" },
      scopes: ["openid", "profile", "email"],
    },
  },
  baseUrl: (e) => e.PUBLIC_URL,
  // The browser that opens a connect link signs in here first: a link forwarded to someone else is refused.
  signIn: signIn.browserSignIn,
});

const whoamiUpstream = defineTool({
  name: "whoami_upstream",
  description: "Says who the user is at the fixture provider, by calling its API with the user's connected account.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  annotations: { readOnlyHint: true, openWorldHint: true },
  handler: async (_args, ctx) => {
    const e = env as Env;
    const token = await (ctx.accounts as NonNullable<typeof ctx.accounts>).token("fixture");
    const url = e.FIXTURE_API_URL ?? `${e.OIDC_ISSUER.replace(/\/$/, "")}/me`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: "application/json" }, signal: ctx.signal });
    if (!response.ok) return { content: [{ type: "text", text: `The fixture API answered HTTP ${response.status}.` }], isError: true };
    const claims = await response.json<Record<string, unknown>>();
    const name = typeof claims["name"] === "string" ? claims["name"] : String(claims["sub"]);
    return `At the fixture provider you are ${name} (sub ${String(claims["sub"])}).`;
  },
});

const whoamiExchanged = defineTool({
  name: "whoami_exchanged",
  description: "Says who the user is at the fixture API, with the connected account's token exchanged for one of the API's audience (RFC 8693).",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  annotations: { readOnlyHint: true, openWorldHint: true },
  handler: async (_args, ctx) => {
    const e = env as Env;
    const token = await (ctx.accounts as NonNullable<typeof ctx.accounts>).exchange("fixture", { audience: FIXTURE_API_AUDIENCE });
    const url = e.FIXTURE_EXCHANGE_API_URL ?? `${e.OIDC_ISSUER.replace(/\/$/, "")}/dev/fixture-api/me`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: "application/json" }, signal: ctx.signal });
    if (!response.ok) return { content: [{ type: "text", text: `The fixture API answered HTTP ${response.status}.` }], isError: true };
    const answer = await response.json<{ sub?: unknown; aud?: unknown }>();
    return `At the fixture API (audience ${String(answer.aud)}) you are sub ${String(answer.sub)}.`;
  },
});

const server = createServer({
  info: { name: "oauth-example", version: "1.0.0" },
  tools: [whoami, profile, whoamiUpstream, whoamiExchanged],
  features: [accounts.feature],
});

// Traces (OTEL_EXPORTER_OTLP_ENDPOINT) and usage roll-ups (MCP_USAGE_ROLLUPS) when the env turns them on.
const mcp = createWorker<Env>(server, { authorizer: signIn.authorizer, observe: observability() });
const oauth = createOAuthWorker(mcp, signIn);
// The usage view (/admin/usage, behind MCP_ADMIN_TOKEN) is the MCP Worker's own route: the authorization server answers only its paths and /mcp.
export default accounts.routes({
  fetch: (request: Request, e: Env, ctx: ExecutionContext) =>
    new URL(request.url).pathname === "/admin/usage" ? mcp.fetch(request as Parameters<typeof mcp.fetch>[0], e, ctx) : oauth.fetch(request, e, ctx),
});
export { McpAccountsObject, McpUsageObject } from "edge-mcp/workers";
