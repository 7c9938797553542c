// An MCP client's side of sign-in for the tests: the SDK v1 OAuthClientProvider, a loopback callback (and CIMD document) server, and a browser that clicks through.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Browser } from "puppeteer-core";

/** A loopback server: `/callback` records the authorization response, `/client.json` and others serve CIMD documents. */
export interface ClientSite {
  readonly origin: string;
  readonly callbackUrl: string;
  /** Serves `body` as JSON at `path`. */
  serve(path: string, body: unknown): void;
  /** The next authorization response's query (code, state, iss, or error). */
  nextCallback(): Promise<URLSearchParams>;
  close(): Promise<void>;
}

export async function startClientSite(): Promise<ClientSite> {
  const documents = new Map<string, string>();
  let waiting: ((query: URLSearchParams) => void) | undefined;
  const arrived: URLSearchParams[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/callback") {
      if (waiting) {
        waiting(url.searchParams);
        waiting = undefined;
      } else arrived.push(url.searchParams);
      response.writeHead(200, { "content-type": "text/html" }).end("<p id=done>Signed in. You may close this page.</p>");
      return;
    }
    const document = documents.get(url.pathname);
    if (document === undefined) response.writeHead(404).end();
    else response.writeHead(200, { "content-type": "application/json" }).end(document);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no address");
  const origin = `http://127.0.0.1:${address.port}`;
  return {
    origin,
    callbackUrl: `${origin}/callback`,
    serve: (path, body) => documents.set(path, JSON.stringify(body)),
    nextCallback: () => {
      const ready = arrived.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => (waiting = resolve));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Clicks through a sign-in in the browser: the consent page of the MCP server (Allow), then the
 * local OpenID provider's login (`user`, any password) and its consent, until the browser reaches `until`.
 */
export async function signInInBrowser(browser: Browser, authorizationUrl: string, user: string, until: string): Promise<string[]> {
  // A fresh context per sign-in: no cookies of an earlier user at the provider.
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const seen: string[] = [];
  try {
    await page.goto(authorizationUrl, { waitUntil: "domcontentloaded" });
    for (let step = 0; step < 10; step++) {
      const url = page.url();
      seen.push(url);
      if (url.startsWith(until)) return seen;
      const navigation = page.waitForNavigation({ waitUntil: "domcontentloaded", timeout: 20_000 });
      if (await page.$("#approve")) await page.click("#approve");
      else if (await page.$("input[name=login]")) {
        await page.type("input[name=login]", user);
        await page.type("input[name=password]", "any-password");
        await page.click("button[type=submit]");
      } else if (await page.$("button[type=submit]")) await page.click("button[type=submit]");
      else throw new Error(`sign-in stuck at ${url}: ${(await page.content()).slice(0, 500)}`);
      await navigation;
    }
    throw new Error(`sign-in did not reach ${until}: ${seen.join(" → ")}`);
  } finally {
    await context.close();
  }
}

/** The SDK v1 client's OAuth state, in memory: registers by DCR, or uses a CIMD URL as its client_id when `clientId` is given. */
export class TestOAuthProvider implements OAuthClientProvider {
  #client: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #verifier = "";
  /** The authorization URL the SDK sent the user to last. */
  authorizationUrl: URL | undefined;

  constructor(
    readonly callbackUrl: string,
    readonly onRedirect: (url: URL) => void,
    clientId?: string,
    readonly scope?: string,
  ) {
    if (clientId !== undefined) this.#client = { client_id: clientId };
  }

  get redirectUrl(): string {
    return this.callbackUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "edge-mcp e2e <client>",
      redirect_uris: [this.callbackUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...(this.scope === undefined ? {} : { scope: this.scope }),
    };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.#client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.#client = info;
  }

  tokens(): OAuthTokens | undefined {
    return this.#tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#tokens = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
    this.onRedirect(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    return this.#verifier;
  }
}

/** A PKCE S256 pair. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** Registers a public client by DCR; its client_id. */
export async function registerClient(baseUrl: string, redirectUri: string): Promise<string> {
  const response = await fetch(`${baseUrl}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "bad-input e2e",
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    }),
  });
  if (response.status !== 201) throw new Error(`registration answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { client_id: string }).client_id;
}

/** The /authorize URL of a code request. */
export function authorizeUrl(baseUrl: string, params: Record<string, string>): string {
  const url = new URL("/authorize", baseUrl);
  for (const [name, value] of Object.entries({ response_type: "code", state: "st-" + randomBytes(6).toString("hex"), ...params }))
    url.searchParams.set(name, value);
  return url.href;
}

/** A form POST to the token endpoint; status and JSON body. */
export async function tokenRequest(baseUrl: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** What {@link sdkSignIn} needs. */
export interface SdkSignInOptions {
  baseUrl: string;
  site: ClientSite;
  browser: Browser;
  user: string;
  /** A CIMD URL to use as client_id (else the client registers by DCR). */
  clientId?: string;
  scope?: string;
}

/** The SDK v1 client's own flow: connect, get 401, sign in in the browser, finish with the code, connect again with the token. */
export async function sdkSignIn(options: SdkSignInOptions): Promise<{ client: Client; provider: TestOAuthProvider }> {
  const { baseUrl, site, browser, user } = options;
  const mcpUrl = new URL(`${baseUrl}/mcp`);
  let browsing: Promise<string[]> | undefined;
  const provider = new TestOAuthProvider(
    site.callbackUrl,
    (url) => {
      browsing = signInInBrowser(browser, url.href, user, site.callbackUrl);
    },
    options.clientId,
    options.scope,
  );
  const first = new Client({ name: "edge-mcp-e2e-oauth", version: "0.0.0" });
  const refused = await first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(refused instanceof UnauthorizedError)) throw new Error(`expected the first connect to need sign-in; got ${String(refused)}`);
  const callback = await site.nextCallback();
  await browsing;
  const code = callback.get("code");
  if (code === null) throw new Error(`no code: ${callback.toString()}`);
  if (callback.get("iss") !== baseUrl) throw new Error(`the callback's iss is ${String(callback.get("iss"))}, not ${baseUrl}`);
  await new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }).finishAuth(code);
  const client = new Client({ name: "edge-mcp-e2e-oauth", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  return { client, provider };
}
