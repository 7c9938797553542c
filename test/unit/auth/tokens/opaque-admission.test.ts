// An opaque token's principal goes through the same authorizer as a JWT's: DPoP binding, scopes, grants.
import { describe, expect, it } from "vitest";
import { parseAuthConfig } from "../../../../src/auth/auth-config.ts";
import type { TokenVerifier, VerifiedToken } from "../../../../src/auth/token-verifier.ts";
import { ProtocolError } from "../../../../src/core/errors.ts";
import { createAuthorizer } from "../../../../src/http/admission/authorizer.ts";
import { RESOURCE } from "../fixtures.ts";

const principal = { issuer: "https://auth.example.com", subject: "alice", scopes: ["notes:read"], via: "authorization-server" as const };

/** A verifier that vouches for every token with `verified`. */
const vouching = (verified: VerifiedToken): TokenVerifier => ({ verify: async () => verified });

function authorizer(verified: VerifiedToken, dpop?: { required?: boolean }) {
  const config = parseAuthConfig(
    {
      resource: RESOURCE,
      authorizationServer: { binding: "AUTH_SERVER", issuer: "https://auth.example.com" },
      toolScopes: { note_write: ["notes:write"] },
      ...(dpop === undefined ? {} : { dpop }),
    },
    "acme",
  );
  return createAuthorizer(config, { tokenVerifier: vouching(verified) });
}

const request = (authorization: string) => new Request(RESOURCE, { method: "POST", headers: { authorization } });

async function refusal(promise: Promise<unknown>): Promise<ProtocolError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  return error as ProtocolError;
}

describe("opaque tokens in the authorizer", () => {
  it("admits the verifier's principal and checks tool scopes on it (403 naming the scope)", async () => {
    const rs = authorizer({ principal });
    const found = await rs.authenticate(request("Bearer alice:grant:secret"));
    expect(found).toEqual(principal);
    expect(() => rs.authorizeTool(found, "note_write", request("Bearer alice:grant:secret"))).toThrow(/Insufficient scope: tool note_write needs notes:write/);
    expect(() => rs.authorizeTool(found, "note_read", request("Bearer alice:grant:secret"))).not.toThrow();
  });

  it("holds a DPoP-bound opaque token (cnf.jkt) to the DPoP rules: refused as a plain bearer token", async () => {
    const error = await refusal(authorizer({ principal, jkt: "thumbprint" }, {}).authenticate(request("Bearer alice:grant:secret")));
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/this token is DPoP-bound/);
  });

  it("refuses an unbound opaque token where DPoP is required", async () => {
    const error = await refusal(authorizer({ principal }, { required: true }).authenticate(request("DPoP alice:grant:secret")));
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/requires DPoP-bound access tokens/);
  });

  it("refuses a token with characters no token has, before asking the verifier", async () => {
    let asked = 0;
    const config = parseAuthConfig({ resource: RESOURCE, authorizationServer: { binding: "A", issuer: "https://auth.example.com" } }, "acme");
    const rs = createAuthorizer(config, { tokenVerifier: { verify: async () => (asked++, { principal }) } });
    for (const value of ["Bearer a b", "Bearer tok\u00e9n", "Bearer a,b", "Bearer a;b"])
      expect((await refusal(rs.authenticate(request(value)))).status).toBe(401);
    expect(asked).toBe(0);
  });
});
