/** Sign-in with GitHub: OAuth 2 without OpenID Connect, the user read from its API. */

import { isLoopbackUrl } from "./loopback.ts";
import { type EnvValue, type Upstream, type UpstreamIdentity, UpstreamError, refreshAt, tokensOf, upstreamFetch, upstreamJson, valueOf } from "./upstream.ts";

/** Options of {@link githubUpstream}. */
export interface GithubUpstreamOptions<E> {
  /** The GitHub OAuth App's (or GitHub App's) client id. */
  clientId: EnvValue<E>;
  /** Its client secret (a Worker secret). */
  clientSecret: EnvValue<E>;
  /** Scopes asked (default none: the public profile). `read:user user:email` adds private emails. */
  scopes?: string[];
  /**
   * Where GitHub is (default `https://github.com` and `https://api.github.com`); GitHub Enterprise
   * Server names its own. http only on a loopback host (a local stand-in in tests).
   */
  webOrigin?: EnvValue<E>;
  apiOrigin?: EnvValue<E>;
}

function checkedOrigin(value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch (error) {
    throw new UpstreamError("ERR_UPSTREAM_CONFIG", `githubUpstream ${what} is not a URL: ${value}`, { cause: error });
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackUrl(value))) {
    throw new UpstreamError("ERR_UPSTREAM_CONFIG", `githubUpstream ${what} must be https (http only on a loopback host): ${value}`);
  }
  return url.origin;
}

/**
 * GitHub as the upstream provider. GitHub has no OpenID Connect for users, so the user is who its
 * API says the access token belongs to (`GET /user`): the subject is the numeric user id (a login
 * can be renamed), the issuer the API origin. PKCE S256 and `state` protect the flow.
 */
export function githubUpstream<E = unknown>(options: GithubUpstreamOptions<E>): Upstream<E> {
  const origins = (env: E) => ({
    web: checkedOrigin(valueOf(options.webOrigin ?? "https://github.com", env, "webOrigin"), "webOrigin"),
    api: checkedOrigin(valueOf(options.apiOrigin ?? "https://api.github.com", env, "apiOrigin"), "apiOrigin"),
  });
  // Settings given as strings are checked now, at startup.
  if (typeof options.webOrigin !== "function" && typeof options.apiOrigin !== "function") origins(undefined as E);
  const scope = (options.scopes ?? []).join(" ");
  return {
    kind: "github",
    async authorizationUrl(request, env) {
      const { web } = origins(env);
      const url = new URL("/login/oauth/authorize", web);
      url.searchParams.set("client_id", valueOf(options.clientId, env, "clientId"));
      url.searchParams.set("redirect_uri", request.redirectUri);
      if (scope !== "") url.searchParams.set("scope", scope);
      url.searchParams.set("state", request.state);
      url.searchParams.set("code_challenge", request.codeChallenge);
      url.searchParams.set("code_challenge_method", "S256");
      url.searchParams.set("allow_signup", "false");
      return url.href;
    },
    async signIn(callback, env): Promise<UpstreamIdentity> {
      const { web, api } = origins(env);
      const body = new URLSearchParams({
        client_id: valueOf(options.clientId, env, "clientId"),
        client_secret: valueOf(options.clientSecret, env, "clientSecret"),
        code: callback.code,
        redirect_uri: callback.redirectUri,
        code_verifier: callback.codeVerifier,
      });
      const headers = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
      const answer = await upstreamJson(
        await upstreamFetch(`${web}/login/oauth/access_token`, { method: "POST", headers, body }, "GitHub token endpoint"),
        "GitHub token endpoint",
      );
      // GitHub answers a refused code with 200 and an `error` member.
      if (typeof answer["error"] === "string") throw new UpstreamError("ERR_UPSTREAM_REFUSED", `GitHub token endpoint: ${answer["error"]}`);
      const tokens = tokensOf(answer, "GitHub token endpoint");
      const userHeaders = { authorization: `Bearer ${tokens.accessToken}`, accept: "application/vnd.github+json", "user-agent": "edge-mcp" };
      const user = await upstreamJson(await upstreamFetch(`${api}/user`, { headers: userHeaders }, "GitHub user API"), "GitHub user API");
      const id = user["id"];
      if (typeof id !== "number" && typeof id !== "string") throw new UpstreamError("ERR_UPSTREAM_REFUSED", "GitHub user API: no user id");
      const claims: Record<string, unknown> = {};
      for (const name of ["login", "name", "email"]) if (typeof user[name] === "string") claims[name] = user[name];
      return { issuer: api, subject: String(id), claims, tokens };
    },
    // GitHub Apps with expiring user tokens hand out refresh tokens; OAuth Apps' tokens do not expire.
    async refresh(refreshToken, env) {
      const { web } = origins(env);
      const body = new URLSearchParams({
        client_id: valueOf(options.clientId, env, "clientId"),
        client_secret: valueOf(options.clientSecret, env, "clientSecret"),
        grant_type: "refresh_token",
        refresh_token: refreshToken,
      });
      const headers = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
      return refreshAt(`${web}/login/oauth/access_token`, { method: "POST", headers, body }, refreshToken, "GitHub token refresh");
    },
  };
}
