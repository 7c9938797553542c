// A local OpenID provider for development and tests (oidc-provider): a pre-registered client and any user name signs in.
import { createServer } from "node:net";
import Provider, { errors } from "oidc-provider";

/** The client the examples use at the local provider; the secret is for this machine only. */
export const DEV_CLIENT = { clientId: "edge-mcp-dev", clientSecret: "local-development-secret-not-for-production" };
/** The client the oauth example connects accounts with (the `fixture` provider of connected accounts). */
export const ACCOUNTS_CLIENT = { clientId: "edge-mcp-accounts", clientSecret: "local-accounts-secret-not-for-production" };

/** RFC 8693 token exchange, which the accounts client may use. */
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";

/** Claims of the test users, by the name typed at the provider's login form (any other name signs in with just that name). */
const USERS = {
  ada: { name: "Ada Lovelace", email: "ada@example.test", email_verified: true },
  grace: { name: "Grace Hopper", email: "grace@example.test", email_verified: true },
};

/** A free loopback port at or after `from`. */
export async function freePortFrom(from) {
  for (let port = from; port < from + 100; port++) {
    const free = await new Promise((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${from}..${from + 99}`);
}

/**
 * Starts oidc-provider on 127.0.0.1:`port` with the dev client, whose redirect URIs are the
 * callbacks of the Worker origins given, and the accounts client (`/accounts/callback`), whose
 * access tokens live `accountsAccessTtl` seconds (default an hour) and whose refresh tokens rotate.
 * Both clients get refresh tokens, rotated on each use; the dev client's access tokens live
 * `signInAccessTtl` seconds (default an hour).
 * `POST /dev/revoke-accounts?account=<name>` revokes every grant of that user to the accounts
 * client (what a user does at a provider's "connected apps" page); `GET /dev/accounts-grants` counts
 * the accounts client's token grants by type. `POST /dev/revoke-sign-in?account=<name>` and
 * `GET /dev/sign-in-grants` do the same for the dev client. The accounts client may exchange its access tokens
 * for one of another audience (RFC 8693), and `GET /dev/fixture-api/me` (the fixture API) answers
 * only a live access token, with its user and audience. `GET /dev/accounts-tokens` lists every
 * token value issued to the accounts client (for tests that look for them in logs). Resolves to its issuer and a stop function.
 */
export async function startLocalOidcProvider({ port, workerOrigins, quiet = false, accountsAccessTtl = 3600, signInAccessTtl = 3600 }) {
  const issuer = `http://127.0.0.1:${port}`;
  /** Grants by client (the accounts client, the dev client), then by account. */
  const grantsOf = { [ACCOUNTS_CLIENT.clientId]: new Map(), [DEV_CLIENT.clientId]: new Map() };
  /** Successful token requests by client, then by grant type. */
  const countsOf = {
    [ACCOUNTS_CLIENT.clientId]: { authorization_code: 0, refresh_token: 0, [TOKEN_EXCHANGE]: 0 },
    [DEV_CLIENT.clientId]: { authorization_code: 0, refresh_token: 0 },
  };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: DEV_CLIENT.clientId,
        client_secret: DEV_CLIENT.clientSecret,
        // /accounts/identify: the browser that opens a connect link signs in through the same client.
        redirect_uris: workerOrigins.flatMap((origin) => [`${origin}/oauth/callback`, `${origin}/accounts/identify`]),
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      },
      {
        client_id: ACCOUNTS_CLIENT.clientId,
        client_secret: ACCOUNTS_CLIENT.clientSecret,
        redirect_uris: workerOrigins.map((origin) => `${origin}/accounts/callback`),
        grant_types: ["authorization_code", "refresh_token", TOKEN_EXCHANGE],
        response_types: ["code"],
      },
    ],
    // Both clients always get a refresh token (no offline_access prompt), rotated on each use.
    issueRefreshToken: (_ctx, client, code) =>
      Object.hasOwn(countsOf, client.clientId) || (client.grantTypeAllowed("refresh_token") && code.scopes.has("offline_access")),
    rotateRefreshToken: (ctx) => Object.hasOwn(countsOf, ctx.oidc.client?.clientId ?? ""),
    ttl: {
      AccessToken: (_ctx, _token, client) =>
        client?.clientId === ACCOUNTS_CLIENT.clientId ? accountsAccessTtl : client?.clientId === DEV_CLIENT.clientId ? signInAccessTtl : 3600,
    },
    // Profile claims in the ID token too (the Worker keeps them for handlers), not only at userinfo.
    conformIdTokenClaims: false,
    claims: { openid: ["sub"], profile: ["name"], email: ["email", "email_verified"] },
    pkce: { required: () => true },
    cookies: { keys: ["local-development-cookie-key-not-for-production"] },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ sub: id, ...(Object.hasOwn(USERS, id) ? USERS[id] : { name: id }) }),
    }),
  });
  // RFC 8693: an access token of the accounts client, exchanged for one of the audience asked for, for the same user.
  provider.registerGrantType(
    TOKEN_EXCHANGE,
    async (ctx) => {
      const { client, params } = ctx.oidc;
      if (params.subject_token_type !== ACCESS_TOKEN_TYPE) throw new errors.InvalidRequest("subject_token_type must be an access token");
      if (params.requested_token_type !== undefined && params.requested_token_type !== ACCESS_TOKEN_TYPE)
        throw new errors.InvalidRequest("only access tokens are issued");
      const subject = await provider.AccessToken.find(params.subject_token);
      if (!subject || subject.clientId !== client.clientId) throw new errors.InvalidGrant("subject_token is not a live access token of this client");
      const token = new provider.AccessToken({
        accountId: subject.accountId,
        client,
        grantId: subject.grantId,
        gty: "token-exchange",
        scope: params.scope ?? subject.scope,
      });
      if (params.audience !== undefined) token.aud = params.audience;
      const value = await token.save();
      ctx.body = {
        access_token: value,
        issued_token_type: ACCESS_TOKEN_TYPE,
        token_type: "Bearer",
        expires_in: token.expiration,
        ...(token.scope ? { scope: token.scope } : {}),
      };
    },
    ["subject_token", "subject_token_type", "requested_token_type", "audience", "scope", "resource", "actor_token", "actor_token_type"],
  );
  if (quiet) provider.on("server_error", () => {});
  provider.on("grant.saved", (grant) => {
    const grants = grantsOf[grant.clientId];
    if (grants === undefined) return;
    if (!grants.has(grant.accountId)) grants.set(grant.accountId, new Set());
    grants.get(grant.accountId).add(grant.jti);
  });
  // Every access and refresh token value issued to the accounts client (opaque: the value is the jti), for the
  // tests that check no token reaches the Worker's output, spans or usage records.
  const accountsTokens = [];
  for (const event of ["access_token.saved", "refresh_token.saved"])
    provider.on(event, (token) => {
      if (token.clientId === ACCOUNTS_CLIENT.clientId && accountsTokens.length < 10_000) accountsTokens.push(token.jti);
    });
  provider.on("grant.success", (ctx) => {
    const type = ctx.oidc.params?.grant_type;
    const counts = countsOf[ctx.oidc.client?.clientId ?? ""];
    if (counts !== undefined && Object.hasOwn(counts, type)) counts[type]++;
  });
  /** The dev routes: which client each names. */
  const COUNTED = { "/dev/accounts-grants": ACCOUNTS_CLIENT.clientId, "/dev/sign-in-grants": DEV_CLIENT.clientId };
  const REVOKED = { "/dev/revoke-accounts": ACCOUNTS_CLIENT.clientId, "/dev/revoke-sign-in": DEV_CLIENT.clientId };
  provider.use(async (ctx, next) => {
    if (Object.hasOwn(COUNTED, ctx.path) && ctx.method === "GET") {
      ctx.body = countsOf[COUNTED[ctx.path]];
      return;
    }
    if (ctx.path === "/dev/accounts-tokens" && ctx.method === "GET") {
      ctx.body = accountsTokens;
      return;
    }
    if (ctx.path === "/dev/fixture-api/me" && ctx.method === "GET") {
      // The fixture API: answers only a live access token (a connected account's, or one exchanged for it).
      const value = /^Bearer (\S+)$/.exec(ctx.get("authorization"))?.[1];
      const token = value === undefined ? undefined : await provider.AccessToken.find(value);
      if (!token) {
        ctx.status = 401;
        ctx.body = { error: "invalid_token" };
        return;
      }
      ctx.body = { sub: token.accountId, aud: token.aud ?? null, exchanged: token.gty === "token-exchange" };
      return;
    }
    if (!Object.hasOwn(REVOKED, ctx.path) || ctx.method !== "POST") return next();
    const grants = grantsOf[REVOKED[ctx.path]];
    const account = ctx.query.account;
    let revoked = 0;
    for (const id of grants.get(account) ?? []) {
      const grant = await provider.Grant.find(id);
      if (grant) {
        await grant.destroy();
        revoked++;
      }
    }
    grants.delete(account);
    ctx.body = { revoked };
  });
  const server = provider.listen(port, "127.0.0.1");
  await new Promise((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  return {
    issuer,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
