#!/usr/bin/env node
// Mints a development access token for a tenant of examples/multi-tenant: prints only the JWT on stdout.
//
//   npm run token -- --tenant ID [--aud URL] [--scope "a b"] [--exp SECONDS] [--sub NAME]
//                    [--roles "a b"] [--dpop-jwk PATH]
//
// `--roles` puts a `roles` claim (an array) in the token, for tenants that grant tools by role.
// `--dpop-jwk` binds the token to a key (RFC 9449 `cnf.jkt`, the key's SHA-256 thumbprint): PATH
// is that key as a JWK file (public or private; only its public members count). The client must
// then send the token as `Authorization: DPoP <token>` with a DPoP proof signed by that key.
//
// The token is signed with the published development key in examples/multi-tenant/dev-keys/
// (never trust that key in production). `iss` is the tenant's first issuer and `aud` defaults to
// its configured resource. `--exp` counts seconds from now and may be negative (an expired
// token). The tenants come from the MCP_TENANTS var of examples/multi-tenant/wrangler.toml;
// `--tenants PATH` reads another wrangler.toml or a JSON tenants document (used by the tests).

import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { SignJWT, calculateJwkThumbprint, importJWK } from "jose";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DEFAULT_TENANTS = join(ROOT, "examples/multi-tenant/wrangler.toml");
const KEY_DIR = join(ROOT, "examples/multi-tenant/dev-keys");
const OPTIONS = new Set(["tenant", "aud", "scope", "exp", "sub", "tenants", "roles", "dpop-jwk"]);
const USAGE = 'usage: npm run token -- --tenant ID [--aud URL] [--scope "a b"] [--exp SECONDS] [--sub NAME] [--roles "a b"] [--dpop-jwk PATH]';

class UsageError extends Error {}

/** `--name value` and `--name=value`; a value may start with "-" (`--exp -60`). */
function parseOptions(args) {
  const values = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--help" || arg === "-h") throw new UsageError(USAGE);
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    if (!match || !OPTIONS.has(match[1])) throw new UsageError(`unknown argument "${arg}"\n${USAGE}`);
    const [, name, inline] = match;
    const value = inline ?? args[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value\n${USAGE}`);
    if (Object.hasOwn(values, name)) throw new UsageError(`--${name} is given twice`);
    values[name] = value;
  }
  if (values.tenant === undefined) throw new UsageError(`--tenant is required\n${USAGE}`);
  return values;
}

function readJson(path, what) {
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if (error.code === "ENOENT") throw new UsageError(`${what} not found: ${path}`);
    throw error;
  }
  if (path.endsWith(".toml")) {
    // The tenants document is the literal string of the MCP_TENANTS var.
    const match = /^MCP_TENANTS\s*=\s*'''([\s\S]*?)'''/m.exec(text);
    if (!match) throw new UsageError(`${what} has no MCP_TENANTS = '''...''' var: ${path}`);
    text = match[1];
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} is not valid JSON (${path}): ${error.message}`);
  }
}

function tenantAuth(tenantsPath, id) {
  const file = readJson(tenantsPath, "tenants file");
  const tenants = Array.isArray(file?.tenants) ? file.tenants : [];
  const tenant = tenants.find((entry) => entry?.id === id);
  if (tenant === undefined) {
    const known = tenants.map((entry) => entry?.id).filter((name) => typeof name === "string");
    throw new UsageError(`tenant "${id}" is not in ${tenantsPath} (tenants: ${known.join(", ") || "none"})`);
  }
  if (typeof tenant.auth !== "object" || tenant.auth === null) throw new UsageError(`tenant "${id}" has no auth config, so it takes no tokens`);
  return tenant.auth;
}

function firstIssuer(auth, id) {
  const issuer = Array.isArray(auth.issuer) ? auth.issuer[0] : auth.issuer;
  if (typeof issuer !== "string" || issuer === "") throw new UsageError(`tenant "${id}" has no auth.issuer: it takes API keys only, not JWTs`);
  return issuer;
}

function expiresIn(text) {
  if (text === undefined) return 3600;
  if (!/^-?\d+$/.test(text)) throw new UsageError(`--exp must be a whole number of seconds from now (negative for an expired token), got "${text}"`);
  return Number(text);
}

/** The RFC 7638 SHA-256 thumbprint of the key in a JWK file (what `cnf.jkt` names). */
async function thumbprintOf(path) {
  const jwk = readJson(resolve(path), "DPoP key");
  if (typeof jwk !== "object" || jwk === null || typeof jwk.kty !== "string") throw new UsageError(`--dpop-jwk ${path} is not a JWK`);
  try {
    return await calculateJwkThumbprint(jwk, "sha256");
  } catch (error) {
    throw new UsageError(`--dpop-jwk ${path}: ${error.message}`);
  }
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  const auth = tenantAuth(resolve(options.tenants ?? DEFAULT_TENANTS), options.tenant);
  const issuer = firstIssuer(auth, options.tenant);
  const audience = options.aud ?? auth.resource;
  if (typeof audience !== "string" || audience === "") throw new UsageError(`tenant "${options.tenant}" has no auth.resource; pass --aud URL`);
  const lifetime = expiresIn(options.exp);
  const subject = options.sub ?? "dev-user";
  if (subject === "") throw new UsageError("--sub must not be empty");
  const scope = (options.scope ?? "").split(" ").filter(Boolean).join(" ");
  const roles = options.roles === undefined ? undefined : options.roles.split(" ").filter(Boolean);
  const jkt = options["dpop-jwk"] === undefined ? undefined : await thumbprintOf(options["dpop-jwk"]);

  const jwk = readJson(join(KEY_DIR, "private.jwk.json"), "development private key");
  const trusted = Array.isArray(auth.keys) && auth.keys.some((key) => key?.kid === jwk.kid);
  if (!trusted && auth.jwksUri === undefined) {
    process.stderr.write(`note: tenant "${options.tenant}" does not list the development key (kid ${jwk.kid}) in auth.keys; it will refuse this token\n`);
  }
  const key = await importJWK(jwk, "ES256");
  const now = Math.floor(Date.now() / 1000);
  const claims = { ...(scope === "" ? {} : { scope }), ...(roles === undefined ? {} : { roles }), ...(jkt === undefined ? {} : { cnf: { jkt } }) };
  const token = await new SignJWT({ ...claims, client_id: "edge-mcp-token-script" })
    .setProtectedHeader({ alg: "ES256", kid: jwk.kid, typ: "at+jwt" })
    .setIssuer(issuer)
    .setSubject(subject)
    .setAudience(audience)
    .setIssuedAt(now)
    .setExpirationTime(now + lifetime)
    .setJti(randomUUID())
    .sign(key);
  process.stdout.write(`${token}\n`);
}

main().catch((error) => {
  process.stderr.write(`token: ${error instanceof UsageError ? error.message : (error?.stack ?? String(error))}\n`);
  process.exit(1);
});
