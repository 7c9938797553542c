/**
 * The accounts admin route, per tenant and principal: off unless MCP_ADMIN_TOKEN is set, then
 * `Authorization: Bearer <token>` (compared in constant time), as the tenants admin API.
 *
 *   GET    /admin/tenants/<id>/accounts?issuer=…&subject=…             the principal's accounts (never a token)
 *   DELETE /admin/tenants/<id>/accounts/<provider>?issuer=…&subject=…  forgets that account's tokens
 */

import { constantTimeEqual } from "../../core/bytes.ts";
import type { AccountOwner } from "./account-store.ts";
import type { AccountsSettings } from "./accounts-settings.ts";

/** `/admin/tenants/<id>/accounts[/<provider>]`: the paths this route answers (any other passes through). */
export const ADMIN_ACCOUNTS_PATH = /^\/admin\/tenants\/([^/]*)\/accounts(?:\/([^/]*))?$/;
const TENANT = /^[a-z0-9][a-z0-9-]{0,62}$/;
const PROVIDER = /^[A-Za-z0-9_-]{1,64}$/;

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store", ...headers } });
}

/** Answers a request whose path matched {@link ADMIN_ACCOUNTS_PATH}. */
export async function accountsAdmin<E>(settings: AccountsSettings<E>, request: Request, env: E, match: RegExpExecArray): Promise<Response> {
  const token = (env as Record<string, unknown>)["MCP_ADMIN_TOKEN"];
  if (typeof token !== "string" || token === "") return json({ error: "Not Found: the admin API is off (set the MCP_ADMIN_TOKEN secret to turn it on)" }, 404);
  const url = new URL(request.url);
  const given = /^Bearer +(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (given === undefined || !constantTimeEqual(given, token) || url.search.toLowerCase().includes("token"))
    return new Response(null, { status: 401, headers: { "www-authenticate": 'Bearer realm="edge-mcp admin"' } });
  const [, tenant = "", provider] = match;
  const issuer = url.searchParams.get("issuer");
  const subject = url.searchParams.get("subject");
  if (!TENANT.test(tenant)) return json({ error: "the tenant id in the path is not valid" }, 400);
  if (issuer === null || issuer === "" || issuer.length > 2048 || subject === null || subject === "" || subject.length > 1024)
    return json({ error: "issuer and subject (the principal, as admission names it) are required in the query" }, 400);
  const owner: AccountOwner = { tenant, issuer, subject };
  const object = settings.object(env, owner);
  if (provider === undefined) {
    if (request.method !== "GET") return json({ error: "Method Not Allowed" }, 405, { allow: "GET" });
    return json({ tenant, issuer, subject, accounts: await object.list(owner, settings.keyName) });
  }
  if (!PROVIDER.test(provider)) return json({ error: "the provider name in the path is not valid" }, 400);
  if (request.method !== "DELETE") return json({ error: "Method Not Allowed" }, 405, { allow: "DELETE" });
  if (!(await object.disconnect(owner, settings.keyName, provider)))
    return json({ error: `this principal has no ${provider} account in tenant ${tenant}` }, 404);
  return json({ tenant, issuer, subject, disconnected: provider });
}
