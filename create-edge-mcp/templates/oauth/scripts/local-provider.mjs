// A local OpenID provider for `npm run dev` (oidc-provider from npm): one registered client, and any user
// name signs in with any password, so you can try the sign-in with no account anywhere.
import { createServer } from "node:net";
import Provider from "oidc-provider";

/** The client this project uses at the local provider; its secret is for this machine only. */
export const DEV_CLIENT = { clientId: "edge-mcp-dev", clientSecret: "local-development-secret-not-for-production" };

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

/** Starts the provider on 127.0.0.1:`port`, redirecting to the callbacks of `workerOrigins`; resolves to its issuer and a stop function. */
export async function startLocalProvider({ port, workerOrigins }) {
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: DEV_CLIENT.clientId,
        client_secret: DEV_CLIENT.clientSecret,
        redirect_uris: workerOrigins.map((origin) => `${origin}/oauth/callback`),
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      },
    ],
    // The profile claims in the ID token too (the Worker keeps them for handlers), not only at userinfo.
    conformIdTokenClaims: false,
    claims: { openid: ["sub"], profile: ["name"], email: ["email", "email_verified"] },
    pkce: { required: () => true },
    cookies: { keys: ["local-development-cookie-key-not-for-production"] },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, name: id, email: `${id}@example.test`, email_verified: true }) }),
  });
  const server = provider.listen(port, "127.0.0.1");
  await new Promise((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  return { issuer, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}
