/**
 * The page where a user sees and disconnects their connected accounts: `/accounts?tenant=<id>`
 * (the tenant defaults to `default`, a single-tenant Worker's), behind the Worker's own sign-in
 * (`signIn`), like the connect links. It shows providers, status and when each was connected, never
 * a token; each has a disconnect button (a POST to `/accounts/disconnect` carrying a token bound to
 * the page's sign-in, from this origin only).
 */

import { fromBase64Url, randomToken, sha256, toBase64Url } from "../../core/bytes.ts";
import type { AccountKeys } from "./account-keys.ts";
import type { AccountOwner } from "./account-store.ts";
import type { AccountsSettings } from "./accounts-settings.ts";
import { BROWSER_COOKIE, COOKIE_ATTRIBUTES, IDENTIFY_PATH, cookieOf, secureFlag } from "./browser-identity.ts";
import { escapeHtml, page } from "./pages.ts";

export const PAGE_PATH = "/accounts";
export const DISCONNECT_PATH = "/accounts/disconnect";
/** Proof that this browser signed in as a principal for the page of one tenant: `<payload>.<signature>`. */
const SESSION_COOKIE = "mcp_accounts_session";
const SESSION_TTL_MS = 10 * 60_000;
const TENANT = /^[a-z0-9][a-z0-9-]{0,62}$/;
const PROVIDER = /^[A-Za-z0-9_-]{1,64}$/;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A signed value of JSON fields, `<payload>.<signature>`, tagged so that no other signed value of the feature passes for it. */
async function signFields(keys: AccountKeys, tag: string, fields: unknown[]): Promise<string> {
  const payload = toBase64Url(encoder.encode(JSON.stringify([tag, ...fields])));
  return `${payload}.${await keys.sign(payload)}`;
}

async function openFields(keys: AccountKeys, tag: string, text: string | null | undefined, length: number): Promise<unknown[] | undefined> {
  if (text === null || text === undefined || text.length > 2048) return undefined;
  const [payload, signature, extra] = text.split(".");
  if (payload === undefined || signature === undefined || extra !== undefined || !(await keys.verify(payload, signature))) return undefined;
  try {
    const fields: unknown = JSON.parse(decoder.decode(fromBase64Url(payload) ?? new Uint8Array()));
    return Array.isArray(fields) && fields.length === length + 1 && fields[0] === tag ? fields.slice(1) : undefined;
  } catch {
    return undefined;
  }
}

/** The sign-in state of the page: which tenant, a nonce, until when. */
export async function openPageState(keys: AccountKeys, text: string | null): Promise<{ tenant: string; nonce: string } | undefined> {
  const fields = await openFields(keys, "page", text, 3);
  if (fields === undefined) return undefined;
  const [tenant, nonce, expiresAt] = fields;
  if (typeof tenant !== "string" || typeof nonce !== "string" || typeof expiresAt !== "number" || expiresAt <= Date.now()) return undefined;
  return { tenant, nonce };
}

/** The principal this browser signed in as for the page of `tenant`, or undefined. */
async function sessionOf(keys: AccountKeys, request: Request, tenant: string): Promise<AccountOwner | undefined> {
  const browser = cookieOf(request, BROWSER_COOKIE);
  const fields = await openFields(keys, "session", cookieOf(request, SESSION_COOKIE), 5);
  if (fields === undefined || browser === undefined) return undefined;
  const [bound, issuer, subject, expiresAt, boundBrowser] = fields;
  if (bound !== tenant || boundBrowser !== browser || typeof issuer !== "string" || typeof subject !== "string") return undefined;
  if (typeof expiresAt !== "number" || expiresAt <= Date.now()) return undefined;
  return { tenant, issuer, subject };
}

/** The disconnect form's token: bound to the page's sign-in cookie, so another site cannot make one. */
function csrfToken(keys: AccountKeys, request: Request): Promise<string> {
  return keys.sign(`csrf\n${cookieOf(request, SESSION_COOKIE) ?? ""}`);
}

function tenantOf(value: string | null): string | undefined {
  const tenant = value ?? "default";
  return TENANT.test(tenant) ? tenant : undefined;
}

/** The page and the disconnect of the routes; the page's sign-in finishes at the identify route (`signedIn`). */
export function accountsPage<E>(settings: AccountsSettings<E>) {
  async function startSignIn(request: Request, env: E, tenant: string): Promise<Response> {
    const signIn = settings.options.signIn;
    if (signIn === undefined) return page(404, "Not found", "<p>This server has no sign-in, so it has no accounts page.</p>");
    const keys = await settings.keys(env);
    const baseUrl = settings.baseUrl(env);
    const existing = cookieOf(request, BROWSER_COOKIE);
    const browser = existing !== undefined && /^[A-Za-z0-9_-]{32}$/.test(existing) ? existing : randomToken();
    const nonce = randomToken();
    const state = await signFields(keys, "page", [tenant, nonce, Date.now() + SESSION_TTL_MS]);
    const verifier = await keys.sign(`page-verifier\n${nonce}\n${browser}`);
    const location = await signIn.authorizationUrl(
      {
        redirectUri: `${baseUrl}${IDENTIFY_PATH}`,
        state,
        nonce: await keys.sign(`page-nonce\n${nonce}\n${browser}`),
        codeChallenge: toBase64Url(await sha256(verifier)),
      },
      env,
    );
    return new Response(null, {
      status: 303,
      headers: { location, "cache-control": "no-store", "set-cookie": `${BROWSER_COOKIE}=${browser}; ${COOKIE_ATTRIBUTES}${secureFlag(baseUrl)}` },
    });
  }

  async function list(request: Request, env: E): Promise<Response> {
    if (request.method !== "GET") return new Response("Method Not Allowed", { status: 405, headers: { allow: "GET" } });
    const tenant = tenantOf(new URL(request.url).searchParams.get("tenant"));
    if (tenant === undefined) return page(400, "Connected accounts", "<p>The tenant in this address is not valid.</p>");
    const keys = await settings.keys(env);
    const owner = await sessionOf(keys, request, tenant);
    if (owner === undefined) return startSignIn(request, env, tenant);
    const accounts = await settings.object(env, owner).list(owner, settings.keyName);
    const csrf = await csrfToken(keys, request);
    const rows = await Promise.all(
      accounts.map(async (account) => {
        const title = (await settings.providerOf(env, tenant, account.provider).catch(() => undefined))?.provider.title ?? account.provider;
        const when = account.connectedAt > 0 ? new Date(account.connectedAt).toISOString().slice(0, 16).replace("T", " ") : "";
        return (
          `<li><strong>${escapeHtml(title)}</strong>: ${account.status === "connected" ? "connected" : "disconnected (connect it again from a tool)"}` +
          `${when === "" ? "" : ` since ${escapeHtml(when)} UTC`} ` +
          `<form method="post" action="${DISCONNECT_PATH}" style="display:inline">` +
          `<input type="hidden" name="tenant" value="${escapeHtml(tenant)}"><input type="hidden" name="provider" value="${escapeHtml(account.provider)}">` +
          `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><button type="submit">Disconnect</button></form></li>`
        );
      }),
    );
    const body =
      `<p>Signed in as <strong>${escapeHtml(owner.subject)}</strong> (${escapeHtml(owner.issuer)}).</p>` +
      (rows.length === 0 ? "<p>No connected accounts.</p>" : `<ul id="accounts">${rows.join("")}</ul>`);
    return page(200, "Connected accounts", body);
  }

  async function disconnect(request: Request, env: E): Promise<Response> {
    if (request.method !== "POST") return new Response("Method Not Allowed", { status: 405, headers: { allow: "POST" } });
    const origin = request.headers.get("origin");
    if (origin !== null && origin !== new URL(settings.baseUrl(env)).origin)
      return page(403, "Not disconnected", "<p>This form was sent from another site.</p>");
    if (Number(request.headers.get("content-length") ?? "0") > 4096) return page(413, "Not disconnected", "<p>The form is too large.</p>");
    const form = await request.formData().catch(() => undefined);
    const field = (name: string) => {
      const value = form?.get(name);
      return typeof value === "string" ? value : null;
    };
    const tenant = tenantOf(field("tenant"));
    const provider = field("provider");
    const keys = await settings.keys(env);
    const owner = tenant === undefined ? undefined : await sessionOf(keys, request, tenant);
    const csrf = field("csrf");
    if (owner === undefined || csrf === null || !(await keys.verify(`csrf\n${cookieOf(request, SESSION_COOKIE) ?? ""}`, csrf)))
      return page(403, "Not disconnected", "<p>This request did not come from your accounts page. Open the page again and use its button.</p>");
    if (provider === null || !PROVIDER.test(provider)) return page(400, "Not disconnected", "<p>The provider in this form is not valid.</p>");
    await settings.object(env, owner).disconnect(owner, settings.keyName, provider);
    return new Response(null, { status: 303, headers: { location: `${PAGE_PATH}?tenant=${owner.tenant}`, "cache-control": "no-store" } });
  }

  /** The page's sign-in callback (at the identify route): the code exchanged with this browser's verifier, then the session cookie. */
  async function signedIn(request: Request, env: E, state: { tenant: string; nonce: string }): Promise<Response> {
    const signIn = settings.options.signIn;
    const url = new URL(request.url);
    const code = url.searchParams.get("code");
    const browser = cookieOf(request, BROWSER_COOKIE);
    const failed = page(400, "Not signed in", "<p>The sign-in did not complete in this browser. Open the accounts page again.</p>");
    if (signIn === undefined || code === null || code === "" || code.length > 2048 || browser === undefined) return failed;
    const keys = await settings.keys(env);
    const baseUrl = settings.baseUrl(env);
    const iss = url.searchParams.get("iss");
    let principal: { issuer: string; subject: string };
    try {
      principal = await signIn.principal(
        {
          code,
          redirectUri: `${baseUrl}${IDENTIFY_PATH}`,
          codeVerifier: await keys.sign(`page-verifier\n${state.nonce}\n${browser}`),
          nonce: await keys.sign(`page-nonce\n${state.nonce}\n${browser}`),
          ...(iss === null ? {} : { iss }),
        },
        env,
        new URL(baseUrl).origin,
      );
    } catch (error) {
      console.warn(JSON.stringify({ event: "accounts.page_sign_in_failed", tenant: state.tenant, reason: error instanceof Error ? error.message : "unknown" }));
      return failed;
    }
    const session = await signFields(keys, "session", [state.tenant, principal.issuer, principal.subject, Date.now() + SESSION_TTL_MS, browser]);
    return new Response(null, {
      status: 303,
      headers: {
        location: `${baseUrl}${PAGE_PATH}?tenant=${state.tenant}`,
        "cache-control": "no-store",
        "set-cookie": `${SESSION_COOKIE}=${session}; ${COOKIE_ATTRIBUTES}${secureFlag(baseUrl)}`,
      },
    });
  }

  return { list, disconnect, signedIn };
}
