import { describe, expect, it } from "vitest";
import { AuthError } from "../../../src/auth/auth-error.ts";
import { authErrorResponse, insufficientScopeChallenge, unauthorizedChallenge } from "../../../src/auth/challenge.ts";

const PRM = "https://mcp.example.com/.well-known/oauth-protected-resource/t/acme/mcp";

describe("unauthorizedChallenge", () => {
  it("names only the metadata and scopes when no token was sent (RFC 6750 §3.1)", () => {
    const error = new AuthError("ERR_NO_TOKEN", "this resource requires an access token");
    expect(unauthorizedChallenge(error, { resourceMetadata: PRM, scopes: ["tools:read", "files:read"] })).toBe(
      `Bearer resource_metadata="${PRM}", scope="tools:read files:read"`,
    );
    expect(unauthorizedChallenge(undefined, { resourceMetadata: PRM })).toBe(`Bearer resource_metadata="${PRM}"`);
  });

  it("adds invalid_token and the description for a bad token", () => {
    const error = new AuthError("ERR_TOKEN_EXPIRED", "the token has expired; get a new one");
    expect(unauthorizedChallenge(error, { resourceMetadata: PRM, scopes: ["tools:read"] })).toBe(
      `Bearer resource_metadata="${PRM}", scope="tools:read", error="invalid_token", error_description="the token has expired; get a new one"`,
    );
    expect(unauthorizedChallenge(error, { resourceMetadata: PRM, scopes: [] })).toBe(
      `Bearer resource_metadata="${PRM}", error="invalid_token", error_description="the token has expired; get a new one"`,
    );
  });

  it("keeps quotes, backslashes, line breaks and non-ASCII out of the header", () => {
    const error = new AuthError("ERR_WRONG_ISSUER", 'issuer "a\\b"\r\nSet-Cookie: x=1 é');
    expect(unauthorizedChallenge(error, { resourceMetadata: 'https://x.test/"q"' })).toBe(
      `Bearer resource_metadata="https://x.test/\\"q\\"", error="invalid_token", error_description="issuer 'a/b'??Set-Cookie: x=1 ?"`,
    );
  });
});

describe("insufficientScopeChallenge", () => {
  it("lists every needed scope in one challenge", () => {
    expect(insufficientScopeChallenge(["tools:read", "deploy:prod"], { resourceMetadata: PRM, description: 'the tool "deploy" needs deploy:prod' })).toBe(
      `Bearer error="insufficient_scope", scope="tools:read deploy:prod", resource_metadata="${PRM}", error_description="the tool 'deploy' needs deploy:prod"`,
    );
    expect(insufficientScopeChallenge(["a"], { resourceMetadata: PRM })).toBe(`Bearer error="insufficient_scope", scope="a", resource_metadata="${PRM}"`);
  });
});

describe("authErrorResponse", () => {
  it("answers a missing token with 401, the bare challenge and an id-less -32600 body", () => {
    expect(authErrorResponse(new AuthError("ERR_NO_TOKEN", "send a token"), { resourceMetadata: PRM, scopes: ["mcp"] })).toEqual({
      status: 401,
      headers: { "WWW-Authenticate": `Bearer resource_metadata="${PRM}", scope="mcp"` },
      body: { jsonrpc: "2.0", error: { code: -32600, message: "Unauthorized: send a token" } },
    });
  });

  it.each([
    "ERR_MALFORMED_TOKEN",
    "ERR_BAD_SIGNATURE",
    "ERR_TOKEN_EXPIRED",
    "ERR_TOKEN_NOT_YET_VALID",
    "ERR_WRONG_ISSUER",
    "ERR_WRONG_AUDIENCE",
    "ERR_ALGORITHM",
    "ERR_UNKNOWN_KEY",
    "ERR_BAD_API_KEY",
  ] as const)("answers %s with 401 invalid_token", (code) => {
    const response = authErrorResponse(new AuthError(code, "nope"), { resourceMetadata: PRM });
    expect(response.status).toBe(401);
    expect(response.headers["WWW-Authenticate"]).toBe(`Bearer resource_metadata="${PRM}", error="invalid_token", error_description="nope"`);
    expect(response.body.error).toEqual({ code: -32600, message: "Unauthorized: nope" });
  });

  it("answers insufficient scope with 403 and the operation's scopes", () => {
    const error = new AuthError("ERR_INSUFFICIENT_SCOPE", "the tool needs deploy:prod", { requiredScopes: ["tools:read", "deploy:prod"] });
    expect(authErrorResponse(error, { resourceMetadata: PRM, scopes: ["ignored"] })).toEqual({
      status: 403,
      headers: {
        "WWW-Authenticate":
          `Bearer error="insufficient_scope", scope="tools:read deploy:prod", resource_metadata="${PRM}", ` + 'error_description="the tool needs deploy:prod"',
      },
      body: { jsonrpc: "2.0", error: { code: -32600, message: "Forbidden: the tool needs deploy:prod" } },
    });
  });

  it("answers unavailable keys with 503 and no challenge, so clients do not re-authorize", () => {
    expect(authErrorResponse(new AuthError("ERR_JWKS_UNAVAILABLE", "keys down"), { resourceMetadata: PRM })).toEqual({
      status: 503,
      headers: {},
      body: { jsonrpc: "2.0", error: { code: -32603, message: "Authorization unavailable: keys down" } },
    });
  });
});
