// Headers carry ASCII only: every challenge the runtime builds reads the same on every client.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { authRefusal, insufficientScopeChallenge } from "../../../src/auth/challenge.ts";
import { createBearerVerifier } from "../../../src/auth/verify-bearer.ts";
import { createAuthorizer } from "../../../src/http/admission/authorizer.ts";
import { ProtocolError } from "../../../src/core/errors.ts";
import { config, expectAuthError, testKey } from "./fixtures.ts";

const PRM = "https://mcp.example.com/.well-known/oauth-protected-resource/t/acme/mcp";
const VISIBLE_ASCII = /^[\x20-\x7E]*$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

describe("headers are ASCII", () => {
  it("spells out the RFC section of a malformed token's 401 challenge (no ? in place of §)", async () => {
    const verifier = createBearerVerifier(config({ keys: [(await testKey("ES256", "k1")).publicJwk] }));
    const error = await expectAuthError(verifier.verify("Bearer tok\u00e9n"), "ERR_MALFORMED_TOKEN");
    const header = authRefusal(error, { resourceMetadata: PRM, scopes: ["tools:read"] }).headers?.["WWW-Authenticate"] ?? "";
    expect(header).toMatch(VISIBLE_ASCII);
    expect(header).toContain("RFC 6750 section 2.1");
    expect(header).not.toContain("?");
  });

  it("turns a section sign in any description into the word, so the challenge stays readable", () => {
    const header = insufficientScopeChallenge(["a"], { resourceMetadata: PRM, description: "see RFC 6750 §3.1" });
    expect(header).toMatch(VISIBLE_ASCII);
    expect(header).toContain('error_description="see RFC 6750 section 3.1"');
  });

  it("writes every AuthError message of the sources in ASCII (they become WWW-Authenticate descriptions)", () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(new URL("../../../src", import.meta.url).pathname)) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/new AuthError\(([\s\S]*?)\);/g)) {
        if (!VISIBLE_ASCII.test((match[1] ?? "").replace(/\s+/g, " "))) offenders.push(`${file}: ${match[0].slice(0, 120)}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("builds 401 and 403 challenges of the authorizer from ASCII only", async () => {
    const authorizer = createAuthorizer(
      config({ keys: [(await testKey("ES256", "k1")).publicJwk], scopesSupported: ["tools:read"], toolScopes: { deploy: ["deploy:prod"] } }),
    );
    const request = (authorization: string) => new Request("https://mcp.example.com/t/acme/mcp", { method: "POST", headers: { authorization } });
    const headers: string[] = [];
    for (const value of ["", "Bearer tok\u00e9n", "Bearer a.b.c", "Bearer x"]) {
      const thrown = await authorizer.authenticate(request(value)).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(thrown).toBeInstanceOf(ProtocolError);
      headers.push(...Object.values((thrown as ProtocolError).headers ?? {}));
    }
    try {
      authorizer.authorizeTool({ issuer: "https://issuer.example.com", subject: "u", scopes: [] } as never, "deploy", request(""));
    } catch (error) {
      headers.push(...Object.values((error as ProtocolError).headers ?? {}));
    }
    expect(headers.length).toBeGreaterThanOrEqual(5);
    for (const header of headers) {
      expect(header).toMatch(VISIBLE_ASCII);
      expect(header).not.toMatch(/\?\d/);
    }
  });
});
