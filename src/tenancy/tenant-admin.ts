/**
 * The tenants admin API of a Worker with tenants one KV key each, `/admin/tenants`: off unless
 * MCP_ADMIN_TOKEN is set, then `Authorization: Bearer <token>` (compared in constant time).
 *
 *   GET    /admin/tenants[?cursor=…]      ids of stored tenants, a page at a time
 *   POST   /admin/tenants                 import a tenants document ({"tenants": [...]})
 *   GET    /admin/tenants/<id>            a tenant's config
 *   PUT    /admin/tenants/<id>            store a tenant's config (checked first; its routes follow it)
 *   POST   /admin/tenants/<id>/disable    remove its routes (its requests get 404), keep its config
 *   DELETE /admin/tenants/<id>            remove its config and routes
 *   …      /admin/tenants/<id>/secrets    its sealed secrets (tenant-secrets-admin.ts)
 */

import { constantTimeEqual } from "../core/bytes.ts";
import { isObject } from "../core/json.ts";
import { checkTenants } from "./tenant-check.ts";
import { hostKey, pathKey, tenantKey } from "./tenant-keys.ts";
import type { TenantRecords } from "./tenant-records.ts";
import { secretKey, secretNamesOf } from "./tenant-secrets.ts";
import { handleTenantSecrets } from "./tenant-secrets-admin.ts";

/** The path of the tenants admin API. */
export const TENANTS_ADMIN_PATH = "/admin/tenants";
/** The largest body the API reads. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store", ...headers } });
}

const problem = (status: number, message: string, headers?: Record<string, string>) => json({ error: message }, status, headers);

/** The route keys of a stored config (as far as it is readable). */
function routesOf(text: string | null): string[] {
  if (text === null) return [];
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch {
    return [];
  }
  if (!isObject(config)) return [];
  const hosts = Array.isArray(config["hosts"]) ? config["hosts"].filter((h): h is string => typeof h === "string") : [];
  const prefix = typeof config["pathPrefix"] === "string" ? [pathKey(config["pathPrefix"])] : [];
  return [...hosts.map((h) => hostKey(h.toLowerCase())), ...prefix];
}

async function readBody(request: Request): Promise<unknown> {
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > MAX_BODY_BYTES) throw new RangeError();
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) throw new RangeError();
  return JSON.parse(text);
}

/** Where the API writes: the namespace, the tenants' records when the Worker has them, and what this isolate holds. */
export interface TenantStoreAccess {
  kv: KVNamespace;
  /** Written after KV: every isolate checks them within `recheckMs`. */
  records?: TenantRecords;
  /** Forgets what this isolate holds of a tenant, so that its next request reads it. */
  forget: (id: string) => void;
  /** MCP_SECRETS_KEY: the tenants' secrets routes are on when it is set. */
  secretKeys?: string | undefined;
}

/**
 * Stores checked tenants: each config under its id, its routes after it. A route that another
 * tenant holds is refused (409) before anything is written; routes the previous config had and
 * the new one does not are removed.
 */
async function store({ kv, records, forget }: TenantStoreAccess, value: unknown, onlyId?: string): Promise<Response> {
  const { tenants, problems } = checkTenants(value);
  if (problems.length > 0) return json({ error: "the tenants are invalid; nothing was written", problems }, 400);
  if (onlyId !== undefined && tenants.some((t) => t.config.id !== onlyId))
    return problem(400, `the config's id must be ${onlyId}, the id in the path; nothing was written`);
  // A tenant secret the config names must be stored first (PUT …/secrets/<name>): a config never names one that is not there.
  const missing: string[] = [];
  for (const { config } of tenants)
    for (const { field, name } of secretNamesOf(config))
      if ((await kv.get(secretKey(config.id, name), "text")) === null)
        missing.push(
          `tenant ${config.id}: ${field}: names the tenant secret ${name}, which is not stored (PUT /admin/tenants/${config.id}/secrets/${name} first)`,
        );
  if (missing.length > 0) return json({ error: "the tenants name secrets that are not stored; nothing was written", problems: missing }, 400);
  for (const { config, entries } of tenants) {
    for (const { key } of entries.slice(1)) {
      const owner = await kv.get(key, "text");
      if (owner !== null && owner !== config.id) return problem(409, `${key} routes to tenant ${owner}; nothing was written`);
    }
  }
  for (const { config, entries } of tenants) {
    const before = routesOf(await kv.get(tenantKey(config.id), "text"));
    const after = new Set(entries.slice(1).map((e) => e.key));
    for (const { key, value: text } of entries) await kv.put(key, text);
    for (const stale of before) if (!after.has(stale)) await kv.delete(stale);
    await records?.write(config.id, entries[0]?.value ?? null);
    forget(config.id);
  }
  return json({ stored: tenants.map((t) => t.config.id) });
}

/**
 * Answers a request under {@link TENANTS_ADMIN_PATH}. `token` undefined: the API is off (404). A
 * missing or wrong token, or a token in the query, gets 401 with nothing else.
 */
export async function handleTenantsAdmin(request: Request, token: string | undefined, access: TenantStoreAccess): Promise<Response> {
  const { kv, records, forget } = access;
  if (!token) return problem(404, "Not Found: the tenants admin API is off (set the MCP_ADMIN_TOKEN secret to turn it on)");
  const url = new URL(request.url);
  const given = /^Bearer +(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (given === undefined || !constantTimeEqual(given, token) || url.search.toLowerCase().includes("token"))
    return new Response(null, { status: 401, headers: { "www-authenticate": 'Bearer realm="edge-mcp admin"' } });
  const rest = url.pathname.slice(TENANTS_ADMIN_PATH.length);
  const [, id, action, extra, ...more] = rest.split("/");
  try {
    if (id === undefined || id === "") {
      if (request.method === "GET") {
        const page = await kv.list({
          prefix: "tenant:",
          limit: 1000,
          ...(url.searchParams.get("cursor") ? { cursor: url.searchParams.get("cursor") ?? "" } : {}),
        });
        return json({ tenants: page.keys.map((k) => k.name.slice("tenant:".length)), ...(page.list_complete ? {} : { cursor: page.cursor }) });
      }
      if (request.method === "POST") return await store(access, await readBody(request));
      return problem(405, "Method Not Allowed: /admin/tenants answers GET and POST", { allow: "GET, POST" });
    }
    if (ID.test(id) && action === "secrets" && more.length === 0) return await handleTenantSecrets(request, kv, access.secretKeys, id, extra || undefined);
    if (!ID.test(id) || extra !== undefined || (action !== undefined && action !== "disable")) return problem(404, "Not Found");
    const stored = await kv.get(tenantKey(id), "text");
    if (action === "disable") {
      if (request.method !== "POST") return problem(405, "Method Not Allowed: disable answers POST", { allow: "POST" });
      if (stored === null) return problem(404, `no tenant ${id} is stored`);
      for (const key of routesOf(stored)) await kv.delete(key);
      await records?.write(id, null);
      forget(id);
      return json({ disabled: id });
    }
    if (request.method === "GET")
      return stored === null
        ? problem(404, `no tenant ${id} is stored`)
        : new Response(stored, { headers: { "content-type": "application/json", "cache-control": "no-store" } });
    if (request.method === "PUT") return await store(access, await readBody(request), id);
    if (request.method === "DELETE") {
      if (stored === null) return problem(404, `no tenant ${id} is stored`);
      for (const key of [...routesOf(stored), tenantKey(id)]) await kv.delete(key);
      await records?.write(id, null);
      forget(id);
      return json({ deleted: id });
    }
    return problem(405, "Method Not Allowed: a tenant answers GET, PUT and DELETE", { allow: "GET, PUT, DELETE" });
  } catch (error) {
    if (error instanceof RangeError) return problem(413, `Payload Too Large: at most ${MAX_BODY_BYTES} bytes`);
    if (error instanceof SyntaxError) return problem(400, "the body is not valid JSON");
    throw error;
  }
}
