// scripts/token.mjs: mints development tokens that the verifier accepts for the tenant named.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { parseAuthConfig } from "../../../src/auth/auth-config.ts";
import { createBearerVerifier } from "../../../src/auth/verify-bearer.ts";
import { expectAuthError } from "./fixtures.ts";

const ROOT = join(import.meta.dirname, "../../..");
const PUBLIC_KEY = JSON.parse(readFileSync(join(ROOT, "examples/multi-tenant/dev-keys/public.jwk.json"), "utf8")) as Record<string, unknown>;
const auth = { resource: "http://127.0.0.1:8787/t/initech/mcp", issuer: "https://dev-issuer.edge-mcp.local", keys: [PUBLIC_KEY] };
const dir = mkdtempSync(join(tmpdir(), "edge-mcp-token-"));
const tenants = join(dir, "tenants.json");
writeFileSync(
  tenants,
  JSON.stringify({ tenants: [{ id: "initech", auth }, { id: "keys-only", auth: { resource: auth.resource, apiKeys: [] } }, { id: "open" }] }),
);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(ROOT, "scripts/token.mjs"), ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

const verifier = createBearerVerifier(parseAuthConfig(auth, "initech"));
const claimsOf = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as Record<string, unknown>;

describe("npm run token", () => {
  it("mints role claims, and DPoP-bound tokens whose cnf.jkt is the key's thumbprint", async () => {
    const roles = await run("--tenants", tenants, "--tenant", "initech", "--roles", "billing viewer");
    expect(claimsOf(roles.stdout.trim())["roles"]).toEqual(["billing", "viewer"]);
    const keyFile = join(dir, "dpop.jwk.json");
    const { publicKey } = await generateKeyPair("ES256", { extractable: true });
    const jwk = await exportJWK(publicKey);
    writeFileSync(keyFile, JSON.stringify(jwk));
    const bound = await run("--tenants", tenants, "--tenant", "initech", "--dpop-jwk", keyFile);
    expect(bound.code).toBe(0);
    expect(claimsOf(bound.stdout.trim())["cnf"]).toEqual({ jkt: await calculateJwkThumbprint(jwk, "sha256") });
    const missing = await run("--tenants", tenants, "--tenant", "initech", "--dpop-jwk", join(dir, "nope.json"));
    expect({ code: missing.code, stdout: missing.stdout }).toEqual({ code: 1, stdout: "" });
    expect(missing.stderr).toMatch(/DPoP key not found/);
  }, 30_000);

  it("prints only a JWT that the tenant's verifier accepts, with the defaults", async () => {
    const { code, stdout, stderr } = await run("--tenants", tenants, "--tenant", "initech");
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\n$/);
    const token = stdout.trim();
    expect(await verifier.verify(`Bearer ${token}`)).toMatchObject({ subject: "dev-user", scopes: [], issuer: auth.issuer, via: "jwt" });
    const claims = claimsOf(token);
    expect(claims["aud"]).toBe(auth.resource);
    expect((claims["exp"] as number) - (claims["iat"] as number)).toBe(3600);
  });

  it("takes scope, subject and lifetime", async () => {
    const { stdout } = await run("--tenants", tenants, "--tenant", "initech", "--scope", "tools:read  deploy", "--sub", "ada", "--exp", "60");
    const principal = await verifier.verify(`Bearer ${stdout.trim()}`);
    expect(principal).toMatchObject({ subject: "ada", scopes: ["tools:read", "deploy"], clientId: "edge-mcp-token-script" });
  });

  it("mints an expired token for a negative --exp, in either option form", async () => {
    for (const args of [["--exp", "-120"], ["--exp=-120"]]) {
      const { code, stdout } = await run("--tenants", tenants, "--tenant", "initech", ...args);
      expect(code).toBe(0);
      await expectAuthError(verifier.verify(`Bearer ${stdout.trim()}`), "ERR_TOKEN_EXPIRED");
    }
  });

  it("mints a token for another audience with --aud, which the tenant refuses", async () => {
    const { stdout } = await run("--tenants", tenants, "--tenant", "initech", "--aud", "http://127.0.0.1:8787/t/globex/mcp");
    expect(claimsOf(stdout.trim())["aud"]).toBe("http://127.0.0.1:8787/t/globex/mcp");
    await expectAuthError(verifier.verify(`Bearer ${stdout.trim()}`), "ERR_WRONG_AUDIENCE");
  });

  it.each([
    ["the tenants file is missing", ["--tenants", join(dir, "missing.json"), "--tenant", "initech"], "tenants file not found"],
    ["the tenant is unknown", ["--tenants", tenants, "--tenant", "umbrella"], 'tenant "umbrella" is not in'],
    ["the tenant has no auth", ["--tenants", tenants, "--tenant", "open"], 'tenant "open" has no auth config'],
    ["the tenant takes API keys only", ["--tenants", tenants, "--tenant", "keys-only"], "has no auth.issuer"],
    ["--tenant is missing", ["--tenants", tenants], "--tenant is required"],
    ["--exp is not a number", ["--tenants", tenants, "--tenant", "initech", "--exp", "1h"], "--exp must be a whole number"],
    ["an option is unknown", ["--tenants", tenants, "--tenant", "initech", "--scopes", "x"], 'unknown argument "--scopes"'],
  ])("fails with exit 1 and nothing on stdout when %s", async (_name, args, message) => {
    const { code, stdout, stderr } = await run(...args);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain(message);
  });
});
