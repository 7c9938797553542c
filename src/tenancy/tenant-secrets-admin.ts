/**
 * The secrets part of the tenants admin API, behind the same token as the rest of it:
 *
 *   GET    /admin/tenants/<id>/secrets            names, key ids and times (never a value)
 *   PUT    /admin/tenants/<id>/secrets/<name>     {"value": "…"}: seal and store it
 *   DELETE /admin/tenants/<id>/secrets/<name>     remove it
 *   POST   /admin/tenants/<id>/secrets/rotate     re-seal every one under MCP_SECRETS_KEY's first key
 *
 * No route returns a value: a secret is written here and read only by the runtime that uses it.
 */

import { DefinitionError } from "../core/definition-error.ts";
import { isObject } from "../core/json.ts";
import { secretKeysOf, type SecretKeys } from "./secret-box.ts";
import { MAX_SECRET_BYTES, SECRET_NAME, deleteSecret, listSecrets, putSecret, rotateSecrets } from "./tenant-secrets.ts";

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store", ...headers } });
}

const problem = (status: number, message: string, headers?: Record<string, string>) => json({ error: message }, status, headers);

async function valueOf(request: Request): Promise<string | Response> {
  const limit = MAX_SECRET_BYTES * 2 + 64;
  if (Number(request.headers.get("content-length") ?? "0") > limit) return problem(413, `Payload Too Large: a secret holds at most ${MAX_SECRET_BYTES} bytes`);
  const text = await request.text();
  if (text.length > limit) return problem(413, `Payload Too Large: a secret holds at most ${MAX_SECRET_BYTES} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return problem(400, 'the body must be JSON: {"value": "…"}');
  }
  const value = isObject(body) ? body["value"] : undefined;
  if (typeof value !== "string" || value === "") return problem(400, 'the body must be {"value": "…"}, a non-empty string');
  if (new TextEncoder().encode(value).length > MAX_SECRET_BYTES) return problem(413, `Payload Too Large: a secret holds at most ${MAX_SECRET_BYTES} bytes`);
  return value;
}

/**
 * Answers `/admin/tenants/<tenant>/secrets[/<name>]` (the caller is already authenticated).
 * `secretKeys` is MCP_SECRETS_KEY; without it the routes answer 404 saying how to turn them on.
 */
export async function handleTenantSecrets(
  request: Request,
  kv: KVNamespace,
  secretKeys: string | undefined,
  tenant: string,
  name: string | undefined,
): Promise<Response> {
  if (!secretKeys) return problem(404, "Not Found: tenant secrets are off (set the MCP_SECRETS_KEY secret to turn them on)");
  let keys: SecretKeys;
  try {
    keys = await secretKeysOf(secretKeys);
  } catch (error) {
    // The message says what is wrong with the setting, never the key.
    return problem(500, error instanceof DefinitionError ? error.message : "MCP_SECRETS_KEY cannot be read");
  }
  if (name === undefined) {
    if (request.method !== "GET") return problem(405, "Method Not Allowed: secrets answers GET", { allow: "GET" });
    return json({ tenant, secrets: await listSecrets(kv, tenant) });
  }
  if (name === "rotate") {
    if (request.method !== "POST") return problem(405, "Method Not Allowed: rotate answers POST", { allow: "POST" });
    return json({ tenant, resealed: await rotateSecrets(kv, keys, tenant), keyId: keys.current });
  }
  if (!SECRET_NAME.test(name)) return problem(400, "a secret's name is 1 to 64 letters, digits, _, - or .");
  if (request.method === "PUT") {
    const value = await valueOf(request);
    if (value instanceof Response) return value;
    await putSecret(kv, keys, tenant, name, value);
    return json({ tenant, stored: name, keyId: keys.current });
  }
  if (request.method === "DELETE")
    return (await deleteSecret(kv, tenant, name)) ? json({ tenant, deleted: name }) : problem(404, `tenant ${tenant} has no secret ${name}`);
  return problem(405, "Method Not Allowed: a secret answers PUT and DELETE (its value is never read back)", { allow: "PUT, DELETE" });
}
