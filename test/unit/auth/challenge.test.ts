import type { ProtocolError } from "../../../src/core/errors.ts";
import { describe, expect, it } from "vitest";
import { AuthError } from "../../../src/auth/auth-error.ts";
import { authRefusal, dpopChallenge, insufficientScopeChallenge, unauthorizedChallenge } from "../../../src/auth/challenge.ts";

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

/** The wire view of a refusal: what the pipeline answers with. */
function answer(error: ProtocolError) {
  return { status: error.status, headers: error.headers ?? {}, error: error.toJSON() };
}

describe("authRefusal", () => {
  it("answers a missing token with 401, the bare challenge and -32600", () => {
    expect(answer(authRefusal(new AuthError("ERR_NO_TOKEN", "send a token"), { resourceMetadata: PRM, scopes: ["mcp"] }))).toEqual({
      status: 401,
      headers: { "WWW-Authenticate": `Bearer resource_metadata="${PRM}", scope="mcp"` },
      error: { code: -32600, message: "Unauthorized: send a token" },
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
    const refusal = answer(authRefusal(new AuthError(code, "nope"), { resourceMetadata: PRM }));
    expect(refusal.status).toBe(401);
    expect(refusal.headers["WWW-Authenticate"]).toBe(`Bearer resource_metadata="${PRM}", error="invalid_token", error_description="nope"`);
    expect(refusal.error).toEqual({ code: -32600, message: "Unauthorized: nope" });
  });

  it("answers insufficient scope with 403 and the operation's scopes", () => {
    const error = new AuthError("ERR_INSUFFICIENT_SCOPE", "the tool needs deploy:prod", { requiredScopes: ["tools:read", "deploy:prod"] });
    expect(answer(authRefusal(error, { resourceMetadata: PRM, scopes: ["ignored"] }))).toEqual({
      status: 403,
      headers: {
        "WWW-Authenticate":
          `Bearer error="insufficient_scope", scope="tools:read deploy:prod", resource_metadata="${PRM}", ` + 'error_description="the tool needs deploy:prod"',
      },
      error: { code: -32600, message: "Insufficient scope: the tool needs deploy:prod" },
    });
  });

  it("answers unavailable keys with 503 and no challenge, so clients do not re-authorize", () => {
    expect(answer(authRefusal(new AuthError("ERR_JWKS_UNAVAILABLE", "keys down"), { resourceMetadata: PRM }))).toEqual({
      status: 503,
      headers: {},
      error: { code: -32603, message: "Authorization unavailable: keys down" },
    });
  });

  it("adds the DPoP challenge after the Bearer one, or alone when DPoP is required", () => {
    const error = new AuthError("ERR_NO_TOKEN", "send a token");
    const dpop = { required: false, algorithms: ["ES256"], maxAgeSeconds: 300 } as const;
    const both = authRefusal(error, { resourceMetadata: PRM, dpop }).headers?.["WWW-Authenticate"];
    expect(both).toBe(`Bearer resource_metadata="${PRM}", DPoP algs="ES256", resource_metadata="${PRM}"`);
    const alone = authRefusal(error, { resourceMetadata: PRM, dpop: { ...dpop, required: true } }).headers?.["WWW-Authenticate"];
    expect(alone).toBe(dpopChallenge({ ...dpop, required: true }, PRM, error));
  });

  it("names invalid_dpop_proof for a bad proof, and keeps the 403 free of DPoP", () => {
    const dpop = { required: true, algorithms: ["ES256"], maxAgeSeconds: 300 } as const;
    const bad = authRefusal(new AuthError("ERR_DPOP", "invalid DPoP proof: htm differs"), { resourceMetadata: PRM, dpop });
    expect(bad.headers?.["WWW-Authenticate"]).toBe(
      `DPoP algs="ES256", resource_metadata="${PRM}", error="invalid_dpop_proof", error_description="invalid DPoP proof: htm differs"`,
    );
    const forbidden = authRefusal(new AuthError("ERR_INSUFFICIENT_SCOPE", "no", { requiredScopes: ["a"] }), { resourceMetadata: PRM, dpop });
    expect(forbidden.headers?.["WWW-Authenticate"]).toMatch(/^Bearer error="insufficient_scope"/);
  });
});
