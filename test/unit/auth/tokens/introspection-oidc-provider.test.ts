// RFC 7662 introspection end to end: a real authorization server (oidc-provider, on 127.0.0.1 in this process)
// mints opaque client-credentials tokens for the resource, and the authorizer checks them by introspection.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAuthConfig } from "../../../../src/auth/auth-config.ts";
import { configuredTokenSources } from "../../../../src/auth/tokens/token-sources.ts";
import { createAuthorizer, type Authorizer } from "../../../../src/http/admission/authorizer.ts";
import { ProtocolError } from "../../../../src/core/errors.ts";

const RESOURCE = "https://mcp.example.com/t/acme/mcp";
// oidc-provider ships no types; the little this test uses is typed here.
const OIDC_PROVIDER = "oidc-provider";
type ProviderClass = new (issuer: string, configuration: object) => { callback(): (req: IncomingMessage, res: ServerResponse) => void };
const OTHER = "https://mcp.example.com/t/other/mcp";

let server: Server;
let issuer: string;

beforeAll(async () => {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { default: Provider } = (await import(OIDC_PROVIDER)) as { default: ProviderClass };
  const provider = new Provider(issuer, {
    clients: [
      { client_id: "app", client_secret: "app-secret", grant_types: ["client_credentials"], redirect_uris: [], response_types: [] },
      { client_id: "mcp-server", client_secret: "rs secret&1", grant_types: [], redirect_uris: [], response_types: [] },
    ],
    scopes: ["notes:read", "notes:write"],
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      revocation: { enabled: true },
      introspection: {
        enabled: true,
        // Only the resource server may introspect.
        allowedPolicy: async (_ctx: unknown, client: { clientId: string }) => client.clientId === "mcp-server",
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({ scope: "notes:read notes:write", audience: resource, accessTokenFormat: "opaque" }),
      },
    },
  });
  handler = provider.callback();
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const basic = (id: string, secret: string) => `Basic ${btoa(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`)}`;

/** An opaque access token of client "app" for `resource`. */
async function mint(resource = RESOURCE, scope = "notes:read"): Promise<string> {
  const response = await fetch(`${issuer}/token`, {
    method: "POST",
    headers: { authorization: basic("app", "app-secret"), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", scope, resource }),
  });
  const body = await response.json<{ access_token?: string }>();
  expect(response.status, JSON.stringify(body)).toBe(200);
  expect(body.access_token?.split(".")).toHaveLength(1);
  return body.access_token as string;
}

function authorizer(secret = "rs secret&1", endpoint = `${issuer}/token/introspection`): Authorizer {
  const config = parseAuthConfig(
    {
      resource: RESOURCE,
      toolScopes: { note_write: ["notes:write"] },
      introspection: { endpoint, clientId: "mcp-server", clientSecretBinding: "INTROSPECTION_SECRET", issuer, cacheSeconds: 1, negativeCacheSeconds: 1 },
    },
    "acme",
  );
  return createAuthorizer(config, configuredTokenSources(config, { INTROSPECTION_SECRET: secret }));
}

const request = (token: string) => new Request(RESOURCE, { method: "POST", headers: { authorization: `Bearer ${token}` } });

async function refusal(promise: Promise<unknown>): Promise<ProtocolError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  return error as ProtocolError;
}

describe("introspection against oidc-provider", () => {
  it("admits a token it issued for this resource, with the client as subject and the token's scopes", async () => {
    const rs = authorizer();
    const token = await mint();
    const principal = await rs.authenticate(request(token));
    expect(principal).toMatchObject({ issuer, subject: "app", clientId: "app", scopes: ["notes:read"], via: "introspection" });
    expect(JSON.stringify(principal)).not.toContain(token);
    // The same admission as a JWT's: a tool needing a scope the token lacks is 403.
    expect(() => rs.authorizeTool(principal, "note_write", request(token))).toThrow(/Insufficient scope/);
  });

  it("refuses a revoked token once the cache's bound (1 s) has passed", async () => {
    const rs = authorizer();
    const token = await mint();
    await rs.authenticate(request(token));
    const revoked = await fetch(`${issuer}/token/revocation`, {
      method: "POST",
      headers: { authorization: basic("app", "app-secret"), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token }),
    });
    expect(revoked.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const error = await refusal(rs.authenticate(request(token)));
    expect(error.status).toBe(401);
    expect(error.headers?.["WWW-Authenticate"]).toMatch(/error="invalid_token", error_description="the authorization server says the token is not active/);
  });

  it("refuses a token issued for another resource (another tenant) and an unknown token", async () => {
    const rs = authorizer();
    const other = await refusal(rs.authenticate(request(await mint(OTHER))));
    expect(other.status).toBe(401);
    expect(other.message).toMatch(/not issued for this resource/);
    expect((await refusal(rs.authenticate(request("no-such-token-0123456789")))).status).toBe(401);
  });

  it("answers 503 with a clear message when its own client credentials are wrong, or the endpoint is down", async () => {
    const token = await mint();
    const badSecret = await refusal(authorizer("wrong").authenticate(request(token)));
    expect(badSecret.status).toBe(503);
    expect(badSecret.message).toBe(
      "Authorization unavailable: the token introspection endpoint answered HTTP 401 (check the client id and secret); try again later",
    );
    const down = await refusal(authorizer(undefined, "http://127.0.0.1:9/introspect").authenticate(request(token)));
    expect(down.status).toBe(503);
    expect(down.message).toMatch(/could not be reached/);
  });
});
