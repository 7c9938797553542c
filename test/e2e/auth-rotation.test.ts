// Key rotation through a running Worker: a tenant verifying against a JWKS URL (a local server) refetches
// the key set on an unknown kid (after its cooldown), accepts the new key and refuses the retired one.
import { createServer, type Server } from "node:http";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWranglerDev, type WranglerDev } from "./wrangler-dev.ts";

const ISSUER = "https://rotation-issuer.edge-mcp.local";
const RESOURCE = "http://127.0.0.1:8787/t/rot/mcp";
const ENTRY = fileURLToPath(new URL("../../examples/multi-tenant/src/index.ts", import.meta.url));
// The example imports the package by name; here the names mean the sources, as in its own wrangler.toml.
const ALIASES = { "edge-mcp": "../../src/index.ts", "edge-mcp/workers": "../../src/workers/index.ts" };

interface Key {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

async function key(kid: string): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" } };
}

let published: JWK[] = [];
let fetches = 0;
let jwks: Server;
let worker: WranglerDev;

beforeAll(async () => {
  jwks = createServer((_req, res) => {
    fetches++;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: published }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
  const port = (jwks.address() as { port: number }).port;
  const tenants = {
    tenants: [
      {
        id: "rot",
        pathPrefix: "/t/rot",
        modules: [{ name: "whoami" }],
        auth: { resource: RESOURCE, issuer: ISSUER, jwksUri: `http://127.0.0.1:${port}/jwks`, jwksCooldownSeconds: 1 },
      },
    ],
  };
  const dir = mkdtempSync(join(tmpdir(), "edge-mcp-rotation-"));
  const config = join(dir, "wrangler.toml");
  writeFileSync(
    config,
    [
      'name = "edge-mcp-rotation"',
      `main = ${JSON.stringify(ENTRY)}`,
      'compatibility_date = "2026-04-01"',
      "[alias]",
      ...Object.entries(ALIASES).map(([name, path]) => `${JSON.stringify(name)} = ${JSON.stringify(fileURLToPath(new URL(path, import.meta.url)))}`),
      "[vars]",
      `MCP_TENANTS = '''${JSON.stringify(tenants)}'''`,
      "[[durable_objects.bindings]]",
      'name = "MCP_SESSIONS"',
      'class_name = "McpSessionObject"',
      "[[migrations]]",
      'tag = "v1"',
      'new_sqlite_classes = ["McpSessionObject"]',
    ].join("\n"),
  );
  worker = await startWranglerDev({ name: "rotation", configPath: config });
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await new Promise<void>((resolve) => jwks?.close(() => resolve()));
});

async function whoami(signer: Key): Promise<number> {
  const token = await new SignJWT({ iss: ISSUER, aud: RESOURCE, sub: "rotating-user", exp: Math.floor(Date.now() / 1000) + 600 })
    .setProtectedHeader({ alg: "ES256", kid: signer.kid })
    .sign(signer.privateKey);
  const response = await fetch(`${worker.baseUrl}/t/rot/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  });
  await response.text();
  return response.status;
}

describe("JWKS key rotation through the Worker", () => {
  it("refuses an unknown kid, picks up the rotated key after the cooldown, and refuses the retired one", async () => {
    const [first, second] = await Promise.all([key("k1"), key("k2")]);
    published = [first.jwk];
    expect(await whoami(first)).toBe(200);
    const fetchedAtStart = fetches;
    // k2 is not published yet: refused (and at most one refetch).
    expect(await whoami(second)).toBe(401);
    published = [second.jwk];
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(await whoami(second)).toBe(200);
    expect(fetches).toBeGreaterThan(fetchedAtStart);
    // k1 was retired with the rotation.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(await whoami(first)).toBe(401);
  });
});
