// A stand-in identity provider on 127.0.0.1 for the upstream tests: OIDC discovery, JWKS and a token endpoint whose ID token the test shapes.
import { createServer, type IncomingMessage, type Server } from "node:http";
import { SignJWT, exportJWK, generateKeyPair, type JWTPayload } from "jose";

export interface FakeProvider {
  readonly origin: string;
  /** The discovery document's issuer (default: the origin). */
  discoveryIssuer: string;
  /** The claims of the next ID token (iss, aud, sub, nonce…), and its token answer besides. */
  idToken: JWTPayload;
  tokenAnswer: Record<string, unknown>;
  /** The last token request: its form and Authorization header. */
  lastTokenRequest: { form: URLSearchParams; authorization: string | undefined } | undefined;
  /** The GitHub-shaped /user answer. */
  user: Record<string, unknown>;
  close(): Promise<void>;
}

function body(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString()));
    request.on("end", () => resolve(text));
  });
}

export async function startFakeProvider(): Promise<FakeProvider> {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  let origin = "";
  const state: Omit<FakeProvider, "origin" | "close"> = {
    discoveryIssuer: "",
    idToken: {},
    tokenAnswer: {},
    lastTokenRequest: undefined,
    user: { id: 583231, login: "octocat", name: "The Octocat", email: null },
  };
  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", origin);
      const json = (status: number, value: unknown) => response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
      if (url.pathname.endsWith("/.well-known/openid-configuration")) {
        return json(200, {
          issuer: state.discoveryIssuer,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          jwks_uri: `${origin}/jwks`,
          token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
        });
      }
      if (url.pathname === "/jwks") return json(200, { keys: [jwk] });
      if (url.pathname === "/token" || url.pathname === "/login/oauth/access_token") {
        state.lastTokenRequest = { form: new URLSearchParams(await body(request)), authorization: request.headers.authorization };
        const idToken = await new SignJWT(state.idToken).setProtectedHeader({ alg: "RS256", kid: "k1" }).setIssuedAt().setExpirationTime("5m").sign(privateKey);
        return json(200, { access_token: "upstream-access", token_type: "Bearer", expires_in: 600, id_token: idToken, ...state.tokenAnswer });
      }
      if (url.pathname === "/user") return json(request.headers.authorization === "Bearer upstream-access" ? 200 : 401, state.user);
      json(404, { error: "not_found" });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no address");
  origin = `http://127.0.0.1:${address.port}`;
  state.discoveryIssuer = origin;
  return Object.assign(state, { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}
