// Upstream sign-in: OIDC by discovery (ID token checks, Entra's per-directory issuers) and GitHub (OAuth 2, the user from its API).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { githubUpstream } from "../../../src/oauth/github-upstream.ts";
import { oidcUpstream } from "../../../src/oauth/oidc-upstream.ts";
import { UpstreamError } from "../../../src/oauth/upstream.ts";
import { startFakeProvider, type FakeProvider } from "./upstream-fixture.ts";

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());

const REQUEST = { redirectUri: "http://127.0.0.1:1/oauth/callback", state: "st", nonce: "n-1", codeChallenge: "c".repeat(43) };
const CALLBACK = { code: "abc", redirectUri: REQUEST.redirectUri, codeVerifier: "v".repeat(43), nonce: "n-1" };

async function refusal(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpstreamError);
  return error as UpstreamError;
}

describe("oidcUpstream", () => {
  beforeEach(() => {
    fake.discoveryIssuer = fake.origin;
    fake.idToken = { iss: fake.origin, aud: "client-1", sub: "user-7", nonce: "n-1", name: "Ada", email: "ada@example.test", secret_claim: "x" };
    fake.tokenAnswer = {};
  });

  it("sends the browser to the discovered endpoint with PKCE S256, state and nonce, and no resource parameter (Entra refuses it)", async () => {
    const url = new URL(await oidcUpstream({ issuer: fake.origin, clientId: "client-1" }).authorizationUrl(REQUEST, {}));
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.origin}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code",
      client_id: "client-1",
      redirect_uri: REQUEST.redirectUri,
      scope: "openid profile email",
      state: "st",
      nonce: "n-1",
      code_challenge: REQUEST.codeChallenge,
      code_challenge_method: "S256",
    });
  });

  it("signs the user in: the verified ID token's issuer and subject, the kept claims only, the upstream tokens; the secret goes by HTTP Basic", async () => {
    const identity = await oidcUpstream({ issuer: fake.origin, clientId: "client-1", clientSecret: (env: { SECRET: string }) => env.SECRET }).signIn(CALLBACK, {
      SECRET: "s3cret",
    });
    expect(identity).toMatchObject({ issuer: fake.origin, subject: "user-7", claims: { name: "Ada", email: "ada@example.test" } });
    expect(identity.claims).not.toHaveProperty("secret_claim");
    expect(identity.tokens.accessToken).toBe("upstream-access");
    expect(fake.lastTokenRequest?.authorization).toBe(`Basic ${btoa("client-1:s3cret")}`);
    expect(fake.lastTokenRequest?.form.get("code_verifier")).toBe(CALLBACK.codeVerifier);
    expect(fake.lastTokenRequest?.form.has("client_secret")).toBe(false);
  });

  it("refuses an ID token whose nonce, audience or issuer is not this sign-in's", async () => {
    const upstream = oidcUpstream({ issuer: fake.origin, clientId: "client-1" });
    fake.idToken = { ...fake.idToken, nonce: "another" };
    expect((await refusal(upstream.signIn(CALLBACK, {}))).message).toMatch(/nonce/);
    fake.idToken = { ...fake.idToken, nonce: "n-1", aud: "client-2" };
    expect((await refusal(upstream.signIn(CALLBACK, {}))).code).toBe("ERR_UPSTREAM_REFUSED");
    fake.idToken = { ...fake.idToken, aud: "client-1", iss: "https://attacker.example" };
    expect((await refusal(upstream.signIn(CALLBACK, {}))).message).toMatch(/issuer/);
  });

  it("refuses a callback whose iss parameter (RFC 9207) names another provider", async () => {
    const error = await refusal(oidcUpstream({ issuer: fake.origin, clientId: "client-1" }).signIn({ ...CALLBACK, iss: "https://attacker.example" }, {}));
    expect(error.message).toMatch(/attacker/);
  });

  it("refuses a discovery document that names another issuer, and an http issuer off loopback", async () => {
    fake.discoveryIssuer = "https://someone-else.example";
    expect((await refusal(oidcUpstream({ issuer: fake.origin, clientId: "c" }).authorizationUrl(REQUEST, {}))).code).toBe("ERR_UPSTREAM_CONFIG");
    expect((await refusal(oidcUpstream({ issuer: "http://idp.example", clientId: "c" }).authorizationUrl(REQUEST, {}))).code).toBe("ERR_UPSTREAM_CONFIG");
  });

  it("names the missing setting when a var is unset", async () => {
    const error = await refusal(oidcUpstream({ issuer: (env: { ISSUER?: string }) => env.ISSUER, clientId: "c" }).authorizationUrl(REQUEST, {}));
    expect(error.message).toMatch(/issuer/);
  });

  describe("Entra ID multi-tenant (an issuer per directory)", () => {
    const directory = (tid: string) => `${fake.origin}/${tid}/v2.0`;
    beforeEach(() => {
      fake.discoveryIssuer = `${fake.origin}/{tenantid}/v2.0`;
    });

    it("accepts an ID token of an allowed directory, whose issuer is the template with its own tid", async () => {
      fake.idToken = { ...fake.idToken, iss: directory("tid-a"), tid: "tid-a" };
      const identity = await oidcUpstream({ issuer: `${fake.origin}/common/v2.0`, clientId: "client-1", tenants: ["tid-a"] }).signIn(CALLBACK, {});
      expect(identity.issuer).toBe(directory("tid-a"));
    });

    it("refuses a directory not in the list, and an issuer of another directory than the token's tid", async () => {
      const upstream = oidcUpstream({ issuer: `${fake.origin}/organizations/v2.0`, clientId: "client-1", tenants: ["tid-a"] });
      fake.idToken = { ...fake.idToken, iss: directory("tid-b"), tid: "tid-b" };
      expect((await refusal(upstream.signIn(CALLBACK, {}))).message).toMatch(/tid-b/);
      fake.idToken = { ...fake.idToken, iss: directory("tid-b"), tid: "tid-a" };
      expect((await refusal(upstream.signIn(CALLBACK, {}))).message).toMatch(/issuer/);
    });

    it("refuses the template issuer without a list of directories", async () => {
      expect((await refusal(oidcUpstream({ issuer: `${fake.origin}/common/v2.0`, clientId: "client-1" }).authorizationUrl(REQUEST, {}))).code).toBe(
        "ERR_UPSTREAM_CONFIG",
      );
    });
  });
});

describe("githubUpstream", () => {
  const github = () =>
    githubUpstream({ clientId: "gh-client", clientSecret: "gh-secret", webOrigin: fake.origin, apiOrigin: fake.origin, scopes: ["read:user"] });

  beforeEach(() => {
    fake.tokenAnswer = { id_token: undefined };
    fake.user = { id: 583231, login: "octocat", name: "The Octocat", email: null };
  });

  it("sends the browser to GitHub's authorize page with PKCE S256 and state", async () => {
    expect(github().kind).toBe("github");
    const url = new URL(await github().authorizationUrl(REQUEST, {}));
    expect(url.pathname).toBe("/login/oauth/authorize");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("state")).toBe("st");
    expect(url.searchParams.get("scope")).toBe("read:user");
  });

  it("signs the user in as the numeric id the user API names (a login can be renamed), keeping login and name", async () => {
    const identity = await github().signIn(CALLBACK, {});
    expect(identity).toMatchObject({ issuer: fake.origin, subject: "583231", claims: { login: "octocat", name: "The Octocat" } });
    expect(identity.claims).not.toHaveProperty("email");
    expect(fake.lastTokenRequest?.form.get("code_verifier")).toBe(CALLBACK.codeVerifier);
  });

  it("refuses GitHub's 200 answer carrying an error, and a user answer without an id", async () => {
    fake.tokenAnswer = { error: "bad_verification_code", access_token: undefined };
    expect((await refusal(github().signIn(CALLBACK, {}))).message).toMatch(/bad_verification_code/);
    fake.tokenAnswer = {};
    fake.user = { login: "ghost" };
    expect((await refusal(github().signIn(CALLBACK, {}))).message).toMatch(/no user id/);
  });

  it("refuses an http GitHub origin off loopback", () => {
    expect(() => githubUpstream({ clientId: "c", clientSecret: "s", webOrigin: "http://github.example" })).toThrow(UpstreamError);
  });
});
