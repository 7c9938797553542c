import { describe, expect, it } from "vitest";
import {
  createAuthorizationServerVerifier,
  type AuthorizationServerBinding,
  type ValidatedAccessToken,
} from "../../../../src/auth/tokens/authorization-server-verifier.ts";
import { configuredTokenSources } from "../../../../src/auth/tokens/token-sources.ts";
import { parseAuthConfig } from "../../../../src/auth/auth-config.ts";
import { createBearerVerifier } from "../../../../src/auth/verify-bearer.ts";
import { DefinitionError } from "../../../../src/core/definition-error.ts";
import { config, expectAuthError, RESOURCE } from "../fixtures.ts";

const AS = "https://auth.example.com";
const resource = { configured: RESOURCE, served: RESOURCE };
const START = 1_700_000_000_000;

/** A fake authorization server binding holding tokens per resource; revoke() forgets one. */
function authorizationServer() {
  const tokens = new Map<string, ValidatedAccessToken>();
  const calls: [string, string][] = [];
  let failing = false;
  const binding: AuthorizationServerBinding = {
    async validateToken(forResource, token) {
      calls.push([forResource, token]);
      if (failing) throw new Error("the isolate of the authorization server crashed");
      const found = tokens.get(token);
      return found && found.audience === forResource ? found : null;
    },
  };
  const issue = (token: string, extra: Partial<ValidatedAccessToken> = {}) =>
    tokens.set(token, {
      props: { sub: "upstream-alice", email: "alice@example.com", roles: ["billing"] },
      audience: RESOURCE,
      expiresAt: START / 1000 + 3600,
      scope: ["notes:read"],
      userId: "u-alice",
      clientId: "client-1",
      ...extra,
    });
  return { binding, calls, issue, revoke: (token: string) => tokens.delete(token), fail: (on: boolean) => void (failing = on) };
}

function clock() {
  let at = START;
  return { now: () => at, advance: (ms: number) => void (at += ms) };
}

describe("createAuthorizationServerVerifier", () => {
  it("asks for this resource and makes the principal: issuer, userId, client, scopes, expiry, props as claims", async () => {
    const as = authorizationServer();
    as.issue("tok");
    const check = createAuthorizationServerVerifier({
      binding: as.binding,
      issuer: AS,
      now: () => START,
      grants: [{ claim: "roles", value: "billing", tools: ["invoice_*"], scopes: ["invoices:read"] }],
    });
    const { principal } = await check.verify("tok", resource);
    expect(as.calls).toEqual([[RESOURCE, "tok"]]);
    expect(principal).toEqual({
      issuer: AS,
      subject: "u-alice",
      clientId: "client-1",
      scopes: ["notes:read", "invoices:read"],
      tools: ["invoice_*"],
      via: "authorization-server",
      expiresAt: START / 1000 + 3600,
      claims: { sub: "upstream-alice", email: "alice@example.com", roles: ["billing"] },
    });
  });

  it("falls back to the props' sub when the grant has no userId", async () => {
    const as = authorizationServer();
    as.issue("tok", { userId: "" });
    expect((await createAuthorizationServerVerifier({ binding: as.binding, issuer: AS, now: () => START }).verify("tok", resource)).principal.subject).toBe(
      "upstream-alice",
    );
  });

  it("refuses a token of another resource (another tenant) as the authorization server does", async () => {
    const as = authorizationServer();
    as.issue("tenant-a", { audience: "https://mcp.example.com/t/other/mcp" });
    const error = await expectAuthError(
      createAuthorizationServerVerifier({ binding: as.binding, issuer: AS }).verify("tenant-a", resource),
      "ERR_TOKEN_INACTIVE",
    );
    expect(error.message).toMatch(/another resource/);
  });

  it("refuses a result for another audience even if the authorization server returned one", async () => {
    const binding: AuthorizationServerBinding = {
      validateToken: async () => ({
        props: {},
        audience: "https://elsewhere.example.com/mcp",
        expiresAt: 9_999_999_999,
        scope: [],
        userId: "u",
        clientId: "c",
      }),
    };
    await expectAuthError(createAuthorizationServerVerifier({ binding, issuer: AS }).verify("t", resource), "ERR_TOKEN_INACTIVE");
  });

  it("refuses a revoked token once its cache entry ends (cacheSeconds), not before", async () => {
    const time = clock();
    const as = authorizationServer();
    as.issue("tok");
    const check = createAuthorizationServerVerifier({ binding: as.binding, issuer: AS, now: time.now, cacheSeconds: 10 });
    await check.verify("tok", resource);
    as.revoke("tok");
    time.advance(9_999);
    await expect(check.verify("tok", resource)).resolves.toBeDefined();
    time.advance(1);
    await expectAuthError(check.verify("tok", resource), "ERR_TOKEN_INACTIVE");
    expect(as.calls).toHaveLength(2);
  });

  it("remembers a refusal for negativeCacheSeconds, then asks again", async () => {
    const time = clock();
    const as = authorizationServer();
    const check = createAuthorizationServerVerifier({ binding: as.binding, issuer: AS, now: time.now, negativeCacheSeconds: 5 });
    await expectAuthError(check.verify("late", resource), "ERR_TOKEN_INACTIVE");
    as.issue("late");
    time.advance(4_000);
    await expectAuthError(check.verify("late", resource), "ERR_TOKEN_INACTIVE");
    time.advance(1_000);
    await expect(check.verify("late", resource)).resolves.toBeDefined();
    expect(as.calls).toHaveLength(2);
  });

  it("answers 503 when the binding throws or is missing, and caches nothing", async () => {
    const as = authorizationServer();
    as.issue("tok");
    as.fail(true);
    const check = createAuthorizationServerVerifier({ binding: as.binding, issuer: AS, now: () => START });
    await expectAuthError(check.verify("tok", resource), "ERR_VERIFIER_UNAVAILABLE");
    as.fail(false);
    await expect(check.verify("tok", resource)).resolves.toBeDefined();
    const missing = createAuthorizationServerVerifier({ binding: undefined as unknown as AuthorizationServerBinding, issuer: AS });
    await expectAuthError(missing.verify("tok", resource), "ERR_VERIFIER_UNAVAILABLE");
  });
});

describe("opaque tokens from a tenant's config", () => {
  const asConfig = () => parseAuthConfig({ resource: RESOURCE, authorizationServer: { binding: "AUTH_SERVER", issuer: AS, cacheSeconds: 1 } }, "acme");

  it("builds the verifier from the named binding and passes opaque tokens to it, JWT-shaped or not", async () => {
    const as = authorizationServer();
    as.issue("user:grant:secret", { expiresAt: Math.floor(Date.now() / 1000) + 600 });
    const parsed = asConfig();
    const { tokenVerifier } = configuredTokenSources(parsed, { AUTH_SERVER: as.binding });
    if (tokenVerifier === undefined) throw new Error("expected a verifier");
    const verifier = createBearerVerifier(parsed, { tokenVerifier });
    await expect(verifier.verify("Bearer user:grant:secret")).resolves.toMatchObject({ subject: "u-alice", via: "authorization-server" });
    await expectAuthError(verifier.verify("Bearer a.b.c"), "ERR_TOKEN_INACTIVE");
  });

  it("says which binding or secret is missing, and refuses a verifier-less config at construction", () => {
    expect(() => configuredTokenSources(asConfig(), {})).toThrow(/no Service Binding named AUTH_SERVER/);
    const introspection = parseAuthConfig(
      {
        resource: RESOURCE,
        introspection: { endpoint: "https://login.example.com/introspect", clientId: "c", clientSecretBinding: "INTROSPECTION_SECRET", issuer: AS },
      },
      "acme",
    );
    expect(() => configuredTokenSources(introspection, { INTROSPECTION_SECRET: "" })).toThrow(/the secret INTROSPECTION_SECRET is not set/);
    expect(() => createBearerVerifier(introspection)).toThrow(DefinitionError);
    expect(() => createBearerVerifier(introspection)).toThrow(/configuredTokenSources\(config, env\)/);
    expect(configuredTokenSources(config({ jwksUri: "https://issuer.example.com/jwks.json" }), {})).toEqual({});
  });
});
