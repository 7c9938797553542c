/** OAuth exports (`edge-mcp/oauth`): the MCP Worker as its own authorization server, with sign-in upstream. Needs `@cloudflare/workers-oauth-provider` 1.2.3 and `hono` installed; Worker-only. */

export { createOAuthWorker, oauthSignIn, type OAuthEnv, type OAuthSignIn, type OAuthSignInOptions } from "./create-oauth-worker.ts";
export { oidcUpstream, type OidcUpstreamOptions } from "./oidc-upstream.ts";
export { githubUpstream, type GithubUpstreamOptions } from "./github-upstream.ts";
export { UpstreamError, type EnvValue, type Upstream, type UpstreamCallback, type UpstreamIdentity, type UpstreamRequest } from "./upstream.ts";
export { NotSignedInError, type SignedInUser, type UpstreamTokens } from "./signed-in.ts";
export { type EndpointGuardOptions } from "./endpoint-guard.ts";
export { tenantSignIn, type TenantSignIn, type TenantSignInOptions } from "./tenant-sign-in.ts";
