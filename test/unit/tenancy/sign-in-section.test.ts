// A tenant's signIn section: each field checked, each problem naming the field; the secret only ever by tenant secret name.
import { describe, expect, it } from "vitest";
import { DefinitionError } from "../../../src/core/definition-error.ts";
import { parseSignIn } from "../../../src/tenancy/sign-in-section.ts";

const fail = (field: string, problem: string): never => {
  throw new DefinitionError(`${field} ${problem}`);
};
const base = { issuer: "https://login.example.com", clientId: "mcp" };

describe("parseSignIn", () => {
  it("takes a full section, and a minimal one", () => {
    const full = {
      ...base,
      clientSecret: { tenantSecret: "oidc.client" },
      upstreamScopes: ["openid", "offline_access"],
      scopes: ["tools:admin"],
      toolScopes: { admin: ["tools:admin"], "*": [] },
      clients: ["https://claude.ai/", "vscode-client"],
      serverName: "Acme tools",
      upstreamName: "Acme SSO",
    };
    expect(parseSignIn(full, fail)).toEqual(full);
    expect(parseSignIn(base, fail)).toEqual(base);
    expect(parseSignIn({ ...base, issuer: "http://127.0.0.1:9000" }, fail).issuer).toBe("http://127.0.0.1:9000");
  });

  it.each([
    ["not an object", "x", "signIn must be an object"],
    ["an unknown field", { ...base, clientSecretName: "x" }, "signIn.clientSecretName is not a known field"],
    ["no issuer", { clientId: "x" }, "signIn.issuer must be"],
    ["an issuer on plain http", { ...base, issuer: "http://login.example.com" }, "signIn.issuer must be"],
    ["an issuer with a query", { ...base, issuer: "https://login.example.com/?a=1" }, "signIn.issuer must be"],
    ["no client id", { issuer: base.issuer }, "signIn.clientId is required"],
    ["an empty client id", { ...base, clientId: "" }, "signIn.clientId must be"],
    ["an inline secret", { ...base, clientSecret: "s3cret" }, "signIn.clientSecret must be"],
    ["a secret by binding", { ...base, clientSecret: { secret: "OIDC_SECRET" } }, "signIn.clientSecret must be"],
    ["a secret name with a space", { ...base, clientSecret: { tenantSecret: "a b" } }, "signIn.clientSecret must be"],
    ["a scope with a space", { ...base, scopes: ["a b"] }, "signIn.scopes must be"],
    ["tool scopes not an object", { ...base, toolScopes: ["a"] }, "signIn.toolScopes must be"],
    ["a tool's scopes not a list", { ...base, toolScopes: { admin: "a" } }, "signIn.toolScopes.admin must be"],
    ["an empty client", { ...base, clients: [""] }, "signIn.clients must list"],
    ["a server name too long", { ...base, serverName: "x".repeat(257) }, "signIn.serverName must be"],
  ])("refuses %s, naming the field", (_what, section, problem) => {
    expect(() => parseSignIn(section, fail)).toThrow(problem);
  });
});
