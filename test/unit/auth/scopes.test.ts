import { describe, expect, it } from "vitest";
import { missingScopes, requiredScopes, scopeCovers } from "../../../src/auth/scopes.ts";
import type { ProtocolError } from "../../../src/core/errors.ts";
import { createAuthorizer } from "../../../src/http/admission/authorizer.ts";
import { config } from "./fixtures.ts";

const toolScopes = { "*": ["tools:read"], deploy: ["tools:read", "deploy:prod"], ping: [] };

describe("requiredScopes", () => {
  const tenant = config({ keys: [{ kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" }], toolScopes });

  it("uses the tool's own entry, else the * entry", () => {
    expect(requiredScopes(tenant, "deploy")).toEqual(["tools:read", "deploy:prod"]);
    expect(requiredScopes(tenant, "echo")).toEqual(["tools:read"]);
    expect(requiredScopes(tenant, "ping")).toEqual([]);
  });

  it("needs nothing when no entry applies, and never reads inherited properties", () => {
    expect(requiredScopes({ toolScopes: {} }, "echo")).toEqual([]);
    expect(requiredScopes({ toolScopes: { deploy: ["x"] } }, "constructor")).toEqual([]);
    expect(requiredScopes({ toolScopes: { deploy: ["x"] } }, "__proto__")).toEqual([]);
  });
});

describe("missingScopes", () => {
  it("matches exactly and case-sensitively by default", () => {
    expect(missingScopes({ scopes: ["tools:read"] }, ["tools:read", "deploy:prod"])).toEqual(["deploy:prod"]);
    expect(missingScopes({ scopes: ["Tools:Read"] }, ["tools:read"])).toEqual(["tools:read"]);
    expect(missingScopes({ scopes: ["tools"] }, ["tools:read"])).toEqual(["tools:read"]);
    expect(missingScopes({ scopes: [] }, [])).toEqual([]);
  });

  it("with the colon hierarchy, lets a parent cover its children at : boundaries only", () => {
    expect(missingScopes({ scopes: ["tools"] }, ["tools:read", "tools:read:own"], "colon")).toEqual([]);
    expect(missingScopes({ scopes: ["tool", "tools:re"] }, ["tools:read"], "colon")).toEqual(["tools:read"]);
    expect(missingScopes({ scopes: ["tools:read"] }, ["tools"], "colon")).toEqual(["tools"]);
    expect(scopeCovers("files", "filesystem", "colon")).toBe(false);
  });
});

describe("what a call by name reveals (README: what scopes hide)", () => {
  const keys = [{ kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" }];
  const request = new Request("https://mcp.example.com/mcp", { method: "POST" });
  const refusal = (authorizer: ReturnType<typeof createAuthorizer>, name: string) => {
    try {
      authorizer.authorizeTool({ issuer: "https://issuer.example", subject: "eve", scopes: [], via: "jwt" }, name, request);
      return undefined;
    } catch (error) {
      const { status, headers } = error as ProtocolError;
      return { status, challenge: new Headers(headers).get("www-authenticate")?.replace(/, error_description=.*$/, "") };
    }
  };

  it("with a * entry, refuses a name that is no tool exactly like a tool without its own entry", () => {
    const authorizer = createAuthorizer(config({ keys, toolScopes }));
    expect(refusal(authorizer, "ghost")).toEqual({ status: 403, challenge: expect.stringMatching(/^Bearer error="insufficient_scope", scope="tools:read"/) });
    expect(refusal(authorizer, "ghost")).toEqual(refusal(authorizer, "echo"));
    // A tool with its own entry is still told apart by the scopes its challenge names (step-up needs them).
    expect(refusal(authorizer, "deploy")?.challenge).toMatch(/scope="tools:read deploy:prod"/);
  });

  it("without a * entry, lets a name that is no tool through to its -32602, while a scoped tool gets 403", () => {
    const authorizer = createAuthorizer(config({ keys, toolScopes: { deploy: ["deploy:prod"] } }));
    expect(refusal(authorizer, "ghost")).toBeUndefined();
    expect(refusal(authorizer, "deploy")?.status).toBe(403);
  });
});
