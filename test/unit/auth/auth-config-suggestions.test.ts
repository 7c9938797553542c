import { describe, expect, it } from "vitest";
import { parseAuthConfig } from "../../../src/auth/auth-config.ts";
import { DefinitionError } from "../../../src/core/definition-error.ts";
import { RESOURCE } from "./fixtures.ts";

const HELLO = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";

/** The message of the DefinitionError thrown for a config, or fails. */
function problems(value: unknown): string {
  try {
    parseAuthConfig(value, "acme");
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as DefinitionError).message;
  }
  throw new Error("expected the config to be refused");
}

describe("parseAuthConfig's suggestions", () => {
  it.each([
    ["apikeys", "apiKeys"],
    ["apiKey", "apiKeys"],
    ["jwksURI", "jwksUri"],
    ["publicTool", "publicTools"],
    ["scopeHeirarchy", "scopeHierarchy"],
  ])("names %s's meant field", (written, meant) => {
    expect(problems({ resource: RESOURCE, [written]: [] })).toContain(`auth.${written}: unknown field; did you mean "${meant}"?`);
  });

  it("reports a misspelt way in as itself, not also as no way in", () => {
    const message = problems({ resource: RESOURCE, apikeys: [{ id: "ci", sha256: HELLO }] });
    expect(message).toBe(`tenant "acme" has an invalid auth config: auth.apikeys: unknown field; did you mean "apiKeys"?`);
  });

  it("still asks for a way in when none is written or meant", () => {
    expect(problems({ resource: RESOURCE, colour: "blue" })).toContain("auth.colour: unknown field; auth.issuer: set issuer");
    expect(problems({ resource: RESOURCE, apiKeys: [] })).toContain("auth needs at least one way in");
  });

  it.each([
    ["too short", "abc123", "got 6 characters"],
    ["not hex", "z".repeat(64), "got 64 characters, not all hex (never the key itself)"],
    ["the key itself", "emk_live_0123456789", "got 19 characters, not all hex (never the key itself)"],
    ["base64", "LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=", "looks like base64: write the digest in hex"],
    ["a number", 42, "got number"],
    ["missing", undefined, "got nothing"],
  ])("reports a bad key hash (%s) as itself, naming the key and the digest's shape", (_, sha256, got) => {
    const message = problems({ resource: RESOURCE, apiKeys: [{ id: "ci", sha256 }] });
    expect(message).toContain(
      `auth.apiKeys[0].sha256: must be the 64-character hex SHA-256 of key "ci" (printf %s "$KEY" | sha256sum prints it; "hello" gives ${HELLO})`,
    );
    expect(message).toContain(got);
    expect(message).not.toContain("way in");
    if (typeof sha256 === "string") expect(message).not.toContain(`${sha256}`);
  });

  it("names a misspelt field of a key entry and does not report the field it meant as missing", () => {
    const message = problems({ resource: RESOURCE, apiKeys: [{ id: "ci", sha265: HELLO, scope: ["deploy"] }] });
    expect(message).toContain("auth.apiKeys[0].sha265: unknown field; did you mean sha256?");
    expect(message).toContain("auth.apiKeys[0].scope: unknown field; did you mean scopes?");
    expect(message).not.toContain("must be the 64-character");
    expect(message).not.toContain("way in");
  });

  it("takes an upper-case digest, lowercased", () => {
    const parsed = () => parseAuthConfig({ resource: RESOURCE, apiKeys: [{ id: "ci", sha256: HELLO.toUpperCase() }] }, "acme");
    expect(parsed().apiKeys).toEqual([{ id: "ci", sha256: HELLO, scopes: [] }]);
  });
});
