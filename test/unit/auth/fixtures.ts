// Shared helpers of the auth tests: key pairs, token signing, a local JWKS server, error assertions.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { expect } from "vitest";
import { parseAuthConfig, type AuthConfig, type AuthConfigInput } from "../../../src/auth/auth-config.ts";
import { AuthError, type AuthErrorCode } from "../../../src/auth/auth-error.ts";

export const RESOURCE = "https://mcp.example.com/t/acme/mcp";
export const ISSUER = "https://issuer.example.com";

export interface TestKey {
  alg: string;
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

export async function testKey(alg: string, kid: string): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { alg, kid, privateKey, publicKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" } };
}

export interface SignOptions {
  /** Claims merged over the defaults (iss, aud, sub, iat, exp in one hour); `undefined` removes one. */
  claims?: Record<string, unknown>;
  header?: Record<string, unknown>;
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** A JWT valid for {@link RESOURCE} from {@link ISSUER}, signed by `key`, with overrides. */
export async function sign(key: TestKey, options: SignOptions = {}): Promise<string> {
  const claims: Record<string, unknown> = { iss: ISSUER, aud: RESOURCE, sub: "user-1", iat: nowSeconds(), exp: nowSeconds() + 3600, ...options.claims };
  for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
  return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, ...options.header }).sign(key.privateKey);
}

export function b64url(value: unknown): string {
  const bytes = typeof value === "string" ? new TextEncoder().encode(value) : new TextEncoder().encode(JSON.stringify(value));
  return Buffer.from(bytes).toString("base64url");
}

/** A parsed config for {@link RESOURCE} and {@link ISSUER}, with overrides. */
export function config(overrides: Partial<AuthConfigInput> = {}): AuthConfig {
  return parseAuthConfig({ resource: RESOURCE, issuer: ISSUER, ...overrides }, "acme");
}

/** Asserts that a promise rejects with an AuthError of the code, whose message never holds the token. */
export async function expectAuthError(promise: Promise<unknown>, code: AuthErrorCode, token?: string): Promise<AuthError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AuthError);
  const authError = error as AuthError;
  expect(authError.code).toBe(code);
  if (token !== undefined) expect(authError.message).not.toContain(token.slice(-20));
  return authError;
}

export interface JwksServer {
  url: string;
  /** Replaces the `keys` member served from now on (any JSON, to serve broken sets too). */
  setKeys(keys: unknown): void;
  /** Answers with this status (and no key set) from now on; 200 restores the keys. */
  setStatus(status: number): void;
  /** Never answers while true (to exercise the fetch timeout). */
  setHang(hang: boolean): void;
  /** How many requests the server has received. */
  requests(): number;
  close(): Promise<void>;
}

/** A JWKS endpoint on 127.0.0.1 with an ephemeral port; the test that starts it closes it. */
export async function startJwksServer(initial: JWK[]): Promise<JwksServer> {
  let keys: unknown = initial;
  let status = 200;
  let hang = false;
  let count = 0;
  const server: Server = createServer((request, response) => {
    count++;
    if (hang) return;
    if (status !== 200 || request.url !== "/jwks.json") {
      response.writeHead(status === 200 ? 404 : status).end();
      return;
    }
    response.writeHead(200, { "content-type": "application/jwk-set+json" }).end(JSON.stringify({ keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/jwks.json`,
    setKeys: (next) => void (keys = next),
    setStatus: (next) => void (status = next),
    setHang: (next) => void (hang = next),
    requests: () => count,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
