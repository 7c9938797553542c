// A browser and an MCP client signing in at an authorization server of the Worker, driven by hand: DCR, consent, the upstream
// callback, the code exchange. The upstream OpenID provider is this file's stand-in (a local key, fetch mocked: no network).
import { SignJWT, exportJWK, generateKeyPair } from "jose";
import { vi } from "vitest";

export const IDP = "https://idp.example";
export const CLIENT_REDIRECT = "https://client.example/cb";

type Fetch = (request: Request) => Promise<Response>;

/** One signing key for every test of a file: a Worker's isolate holds the provider's JWKS once fetched. */
const keys = generateKeyPair("RS256");

/** The stand-in provider: discovery, JWKS and a token endpoint whose ID token carries the nonce of the last sign-in started. */
export async function mockIdentityProvider(clientId: string) {
  const { publicKey, privateKey } = await keys;
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  /** `expiresIn`: the upstream access token's lifetime; each token answer also carries a refresh token, a new one per refresh. */
  const state = { nonce: "", subject: "ada", expiresIn: 600, refreshes: 0, tokenRequests: [] as { authorization: string | null; form: URLSearchParams }[] };
  const json = (value: unknown) => new Response(JSON.stringify(value), { headers: { "content-type": "application/json" } });
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== IDP) throw new Error(`no network in this test: ${request.url}`);
    if (url.pathname === "/.well-known/openid-configuration")
      return json({
        issuer: IDP,
        authorization_endpoint: `${IDP}/authorize`,
        token_endpoint: `${IDP}/token`,
        jwks_uri: `${IDP}/jwks`,
        token_endpoint_auth_methods_supported: ["client_secret_basic"],
      });
    if (url.pathname === "/jwks") return json({ keys: [jwk] });
    if (url.pathname === "/token") {
      const form = new URLSearchParams(await request.text());
      state.tokenRequests.push({ authorization: request.headers.get("authorization"), form });
      if (form.get("grant_type") === "refresh_token") {
        if (form.get("refresh_token") !== `upstream-refresh-${state.refreshes}`)
          return new Response(JSON.stringify({ error: "invalid_grant" }), { status: 400 });
        state.refreshes++;
        return json({
          access_token: `upstream-access-${state.refreshes}`,
          refresh_token: `upstream-refresh-${state.refreshes}`,
          token_type: "Bearer",
          expires_in: state.expiresIn,
        });
      }
      const idToken = await new SignJWT({ nonce: state.nonce, name: "Ada" })
        .setProtectedHeader({ alg: "RS256", kid: "k1" })
        .setIssuer(IDP)
        .setAudience(clientId)
        .setSubject(state.subject)
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(privateKey);
      return json({
        access_token: "upstream-access",
        refresh_token: "upstream-refresh-0",
        token_type: "Bearer",
        expires_in: state.expiresIn,
        id_token: idToken,
      });
    }
    return new Response("not found", { status: 404 });
  });
  return state;
}

function base64url(bytes: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** `name=value` of every Set-Cookie of a response, for the next request of the same browser. */
function cookiesOf(response: Response, jar: Map<string, string>): void {
  for (const line of (response.headers as unknown as { getSetCookie(): string[] }).getSetCookie()) {
    const [pair = ""] = line.split(";");
    const at = pair.indexOf("=");
    jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
}

const cookieHeader = (jar: Map<string, string>) => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");

/**
 * Signs in at the authorization server whose issuer is `issuer` and whose endpoints are under
 * `issuer` (`https://a.example`, `https://shared.example/t/c`): registers a client, consents, comes
 * back from the provider, exchanges the code. Returns the token answer and the authorization response.
 */
export async function signIn(fetch: Fetch, issuer: string, resource: string, idp: { nonce: string }) {
  const registered = await fetch(
    new Request(`${issuer}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "test client",
        redirect_uris: [CLIENT_REDIRECT],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      }),
    }),
  );
  if (registered.status !== 201) throw new Error(`registration: ${registered.status} ${await registered.text()}`);
  const clientId = (await registered.json<{ client_id: string }>()).client_id;
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)).buffer);
  const challenge = base64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  const jar = new Map<string, string>();
  const authorize = new URL(`${issuer}/authorize`);
  for (const [name, value] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: CLIENT_REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "client-state",
    resource,
  }))
    authorize.searchParams.set(name, value);
  const consent = await fetch(new Request(authorize));
  const page = await consent.text();
  if (consent.status !== 200) throw new Error(`consent page: ${consent.status} ${page.slice(0, 300)}`);
  cookiesOf(consent, jar);
  const handle = /name="handle" value="([^"]+)"/.exec(page)?.[1] ?? "";
  const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1] ?? "";
  const origin = new URL(issuer).origin;
  const approved = await fetch(
    new Request(new URL(action, origin), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(jar), origin },
      body: new URLSearchParams({ handle, decision: "approve" }),
    }),
  );
  if (approved.status !== 302) throw new Error(`consent: ${approved.status} ${await approved.text()}`);
  cookiesOf(approved, jar);
  const upstream = new URL(approved.headers.get("location") ?? "");
  idp.nonce = upstream.searchParams.get("nonce") ?? "";
  const callback = new URL(upstream.searchParams.get("redirect_uri") ?? "");
  callback.searchParams.set("code", "upstream-code");
  callback.searchParams.set("state", upstream.searchParams.get("state") ?? "");
  const back = await fetch(new Request(callback, { headers: { cookie: cookieHeader(jar) } }));
  if (back.status !== 302) throw new Error(`callback: ${back.status} ${await back.text()}`);
  const response = new URL(back.headers.get("location") ?? "");
  if (response.searchParams.has("error")) throw new Error(`authorization response: ${response.search}`);
  const token = await fetch(
    new Request(`${issuer}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: response.searchParams.get("code") ?? "",
        redirect_uri: CLIENT_REDIRECT,
        client_id: clientId,
        code_verifier: verifier,
        resource,
      }),
    }),
  );
  if (token.status !== 200) throw new Error(`token: ${token.status} ${await token.text()}`);
  return {
    tokens: await token.json<{ access_token: string; refresh_token?: string; expires_in?: number }>(),
    response,
    clientId,
    upstream,
    callback,
    cookies: [...jar.keys()],
  };
}

/** A tools/call on an MCP endpoint with a bearer token. */
export function callTool(fetch: Fetch, endpoint: string, name: string, token?: string): Promise<Response> {
  return fetch(
    new Request(endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } }),
    }),
  );
}
