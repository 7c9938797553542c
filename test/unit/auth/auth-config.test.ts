import { describe, expect, it } from "vitest";
import { DEFAULT_ALGORITHMS, parseAuthConfig } from "../../../src/auth/auth-config.ts";
import { DefinitionError } from "../../../src/core/definition-error.ts";
import { ISSUER, RESOURCE } from "./fixtures.ts";

const KEY = { kty: "EC", crv: "P-256", x: "XXldE1UoPLcUGMonBXTbjmYVGbDELw12RG99ikk2Yuw", y: "SZLhUgEHciNz-QdyyVRIEx1w60-g2gWEV36fek3xKmU", kid: "k1" };
const base = { resource: RESOURCE, issuer: ISSUER, keys: [KEY] };

/** The message of the DefinitionError thrown for a config, or fails. */
function problems(value: unknown, tenant = "acme"): string {
  try {
    parseAuthConfig(value, tenant);
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as DefinitionError).message;
  }
  throw new Error("expected the config to be refused");
}

describe("parseAuthConfig", () => {
  it("fills in the defaults", () => {
    expect(parseAuthConfig(base, "acme")).toEqual({
      resource: RESOURCE,
      issuers: [ISSUER],
      authorizationServers: [ISSUER],
      keys: [KEY],
      algorithms: DEFAULT_ALGORITHMS,
      toolScopes: {},
      clockSkewSeconds: 60,
      apiKeys: [],
      scopeHierarchy: "none",
      grants: [],
      publicTools: [],
      anonymousList: "all",
    });
    expect(DEFAULT_ALGORITHMS).toEqual(["RS256", "ES256", "EdDSA"]);
  });

  it("keeps every field it is given", () => {
    const parsed = parseAuthConfig(
      {
        resource: "http://127.0.0.1:8787/t/initech/mcp",
        issuer: [ISSUER, "https://b.example.com"],
        authorizationServers: ["https://login.example.com"],
        jwksUri: "http://localhost:9999/jwks.json",
        algorithms: ["PS256", "ES384"],
        scopesSupported: ["tools:read", "tools:read"],
        toolScopes: { "*": ["tools:read"], deploy: ["deploy"] },
        clockSkewSeconds: 0,
        apiKeys: [{ id: "ops", sha256: "AB".repeat(32), scopes: ["deploy"] }],
        scopeHierarchy: "colon",
      },
      "initech",
    );
    expect(parsed).toMatchObject({
      issuers: [ISSUER, "https://b.example.com"],
      authorizationServers: ["https://login.example.com"],
      jwksUri: "http://localhost:9999/jwks.json",
      algorithms: ["PS256", "ES384"],
      scopesSupported: ["tools:read"],
      toolScopes: { "*": ["tools:read"], deploy: ["deploy"] },
      clockSkewSeconds: 0,
      apiKeys: [{ id: "ops", sha256: "ab".repeat(32), scopes: ["deploy"] }],
      scopeHierarchy: "colon",
    });
  });

  it("accepts a tenant with API keys only", () => {
    expect(parseAuthConfig({ resource: RESOURCE, apiKeys: [{ id: "k", sha256: "0".repeat(64) }] }, "acme").issuers).toEqual([]);
  });

  it("names the tenant and lists every problem in one error", () => {
    const message = problems({ resource: "ftp://x", audience: RESOURCE, algorithms: ["none"], clockSkewSeconds: -1 }, "globex");
    expect(message).toMatch(/^tenant "globex" has an invalid auth config: /);
    expect(message).toContain("auth.resource: must be an https URL");
    expect(message).toContain('auth.audience: unknown field; did you mean "resource"?');
    expect(message).toContain('auth.algorithms: "none": unsigned tokens are never accepted');
    expect(message).toContain("auth.clockSkewSeconds: must be an integer from 0 to 300");
    expect(message).toContain("auth.issuer: set issuer (with jwksUri or keys), issuerTemplates, introspection, authorizationServer and/or apiKeys");
  });

  it("refuses a non-object", () => {
    expect(() => parseAuthConfig("yes", "acme")).toThrow('tenant "acme": auth must be an object');
  });

  it.each([
    ["a fragment", `${RESOURCE}#frag`, "no fragment"],
    ["a query", `${RESOURCE}?a=1`, "no fragment, query"],
    ["an upper-case host", "https://MCP.example.com/mcp", 'written canonically as "https://mcp.example.com/mcp"'],
    ["the default port", "https://mcp.example.com:443/mcp", 'written canonically as "https://mcp.example.com/mcp"'],
    ["plain http on a public host", "http://mcp.example.com/mcp", "must be an https URL"],
    ["no URL at all", "mcp", "must be an https URL"],
  ])("refuses a resource with %s", (_name, resource, problem) => {
    expect(problems({ ...base, resource })).toContain(problem);
  });

  it("refuses HMAC algorithms and unknown ones", () => {
    expect(problems({ ...base, algorithms: ["RS256", "HS256"] })).toContain('auth.algorithms: "HS256": HMAC algorithms are refused');
    expect(problems({ ...base, algorithms: ["XS1"] })).toContain('"XS1": not a supported asymmetric JWS algorithm');
    expect(problems({ ...base, algorithms: [] })).toContain("auth.algorithms: must be a non-empty array");
  });

  it("refuses private, symmetric and unusable keys", () => {
    expect(problems({ ...base, keys: [{ ...KEY, d: "secret" }] })).toContain("auth.keys[0]: is a private key (has d)");
    expect(problems({ ...base, keys: [{ kty: "oct", k: "c2VjcmV0" }] })).toContain("auth.keys[0]: kty must be RSA, EC or OKP");
    expect(problems({ ...base, keys: [{ ...KEY, alg: "HS256" }] })).toContain("auth.keys[0]: alg must be an asymmetric JWS algorithm");
    expect(problems({ ...base, keys: [{ ...KEY, use: "enc" }] })).toContain('auth.keys[0]: use must be "sig"');
    expect(problems({ ...base, keys: [] })).toContain("auth.keys: must be a non-empty array of public JWKs");
  });

  it("refuses a JWKS over plain http except on loopback", () => {
    expect(problems({ resource: RESOURCE, issuer: ISSUER, jwksUri: "http://idp.example.com/jwks" })).toContain("auth.jwksUri: must be an https URL");
    expect(parseAuthConfig({ resource: RESOURCE, issuer: ISSUER, jwksUri: "http://[::1]:9000/jwks" }, "acme").jwksUri).toBe("http://[::1]:9000/jwks");
  });

  it("requires keys with an issuer and an issuer with keys", () => {
    expect(problems({ resource: RESOURCE, issuer: ISSUER })).toContain("auth.jwksUri: a tenant with an issuer needs jwksUri or keys");
    expect(problems({ resource: RESOURCE, keys: [KEY] })).toContain("auth.issuer: is required when jwksUri or keys are set");
    expect(problems({ resource: RESOURCE, issuer: [], keys: [KEY] })).toContain("auth.issuer: must be a URL or a non-empty array of URLs");
    expect(problems({ ...base, issuer: ["not a url"] })).toContain("auth.issuer[0]: must be an http(s) URL");
  });

  it("refuses bad scopes, offline_access and bad tool names", () => {
    expect(problems({ ...base, scopesSupported: ["a b"] })).toContain("auth.scopesSupported[0]: must be a scope name");
    expect(problems({ ...base, scopesSupported: ["offline_access"] })).toContain('auth.scopesSupported: must not list "offline_access"');
    expect(problems({ ...base, toolScopes: { "bad tool": ["x"] } })).toContain('auth.toolScopes["bad tool"]: is not a tool name');
    expect(problems({ ...base, toolScopes: { echo: "x" } })).toContain('auth.toolScopes["echo"]: must be an array of scope names');
    expect(problems({ ...base, scopeHierarchy: "prefix" })).toContain('auth.scopeHierarchy: must be "none" or "colon"');
  });

  it("takes an RFC 9068 token type and refuses one that is not a media type", () => {
    expect(parseAuthConfig({ ...base, tokenType: "at+jwt" }, "acme").tokenType).toBe("at+jwt");
    expect(parseAuthConfig(base, "acme").tokenType).toBeUndefined();
    expect(problems({ ...base, tokenType: "at jwt" })).toContain('auth.tokenType: must be a media type such as "at+jwt"');
    expect(problems({ ...base, tokenType: true })).toContain("auth.tokenType");
  });

  it("refuses malformed, duplicate and plaintext API keys", () => {
    const sha256 = "a".repeat(64);
    expect(problems({ resource: RESOURCE, apiKeys: [{ id: "k", sha256: "xyz" }] })).toContain(
      'auth.apiKeys[0].sha256: must be the 64-character hex SHA-256 of key "k"',
    );
    expect(
      problems({
        resource: RESOURCE,
        apiKeys: [
          { id: "k", sha256 },
          { id: "k", sha256: "b".repeat(64) },
        ],
      }),
    ).toContain('auth.apiKeys[1].id: "k" is used twice');
    expect(
      problems({
        resource: RESOURCE,
        apiKeys: [
          { id: "a", sha256 },
          { id: "b", sha256: sha256.toUpperCase() },
        ],
      }),
    ).toContain("auth.apiKeys[1].sha256: the same key is listed twice");
    expect(problems({ resource: RESOURCE, apiKeys: [{ id: "k", sha256, key: "emk_plain" }] })).toContain(
      "auth.apiKeys[0].key: unknown field (store the key's SHA-256 in sha256, never the key)",
    );
    expect(problems({ resource: RESOURCE, apiKeys: [{ id: "has space", sha256 }] })).toContain("auth.apiKeys[0].id: must be 1-64 chars");
  });

  it("reads grants, public tools and DPoP, and names every bad one", () => {
    const parsed = parseAuthConfig(
      {
        ...base,
        grants: [{ claim: "https://example.com/roles", value: "billing", tools: ["invoice_*"], scopes: ["invoices:read"] }],
        publicTools: ["status"],
        dpop: { required: true },
      },
      "acme",
    );
    expect(parsed.grants).toEqual([{ claim: "https://example.com/roles", value: "billing", tools: ["invoice_*"], scopes: ["invoices:read"] }]);
    expect(parsed.publicTools).toEqual(["status"]);
    expect(parsed.dpop).toEqual({ required: true, algorithms: ["ES256", "EdDSA", "RS256", "PS256"], maxAgeSeconds: 60 });
    const bad = () =>
      parseAuthConfig(
        {
          ...base,
          grants: [{ claim: "roles", value: "a b", tools: ["x"] }, { claim: "roles", value: "x" }, "nope"],
          publicTools: ["bad name"],
          dpop: { required: "yes", algorithms: ["HS256"], maxAgeSeconds: 1 },
        },
        "acme",
      );
    expect(bad).toThrow(/grants\[0\]\.value: must be a non-empty claim value without spaces/);
    expect(bad).toThrow(/grants\[1\]: grants nothing/);
    expect(bad).toThrow(/grants\[2\]: must be an object/);
    expect(bad).toThrow(/publicTools: must be an array of tool names or prefix_\* patterns/);
    expect(bad).toThrow(/dpop\.required: must be true or false; auth\.dpop\.algorithms: .*; auth\.dpop\.maxAgeSeconds/);
  });
});
