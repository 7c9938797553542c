/** The connect routes: `/accounts/connect` (a confirmation page, then the provider with PKCE S256) and `/accounts/callback`. */

import { IDENTIFY_PATH, confirmationCookies, confirmedFor, identifyCallback, identifyRedirect, signedInFor } from "./browser-identity.ts";
import type { AccountOwner } from "./account-store.ts";
import type { AccountsSettings } from "./accounts-settings.ts";
import { openConnectState, type ConnectState } from "./connect-state.ts";
import { notifyElicitationComplete } from "./elicitation-complete.ts";
import { escapeHtml, page } from "./pages.ts";
import { ADMIN_ACCOUNTS_PATH, accountsAdmin } from "./accounts-admin-route.ts";
import { DISCONNECT_PATH, PAGE_PATH, accountsPage, openPageState } from "./accounts-page.ts";

/** A Worker's fetch, as the routes wrap it. */
export interface AccountsFetcher<E> {
  fetch(request: Request, env: E, ctx: ExecutionContext): Response | Promise<Response>;
}

export const CONNECT_PATH = "/accounts/connect";
export const CALLBACK_PATH = "/accounts/callback";
/** Addresses tracked per isolate by the routes' rate limit (oldest forgotten first). */
const MAX_TRACKED = 4096;

const REFUSED: Record<string, string> = {
  malformed: "This connect link is not valid. Go back to your MCP client and ask it to run the tool again for a new link.",
  forged: "This connect link is not valid. Go back to your MCP client and ask it to run the tool again for a new link.",
  expired: "This connect link has expired (links work for ten minutes). Go back to your MCP client and run the tool again for a new link.",
  used: "This connect link was already used or has expired. Each link works once: go back to your MCP client and run the tool again for a new link.",
};

function refused(problem: string): Response {
  return page(400, "Cannot connect the account", `<p>${escapeHtml(REFUSED[problem] ?? REFUSED["malformed"] ?? "")}</p>`);
}

/** The page of a browser signed in as someone other than the link's principal (a forwarded link). */
function notTheirs(): Response {
  return page(
    403,
    "This link is for another user",
    "<p>This connect link was made for another user of the MCP server than the one you signed in as. " +
      "It is refused so that your account is not linked to theirs. If you were sent this link, do not use it.</p>",
  );
}

/** Who the link is for, as the page shows it: the principal's subject and issuer. */
function ownerText(state: ConnectState): string {
  return `${state.subject} (signed in with ${state.issuer})`;
}

/** The routes in front of a Worker: everything else passes through unchanged. */
export function connectRoutes<E>(settings: AccountsSettings<E>, worker: AccountsFetcher<never>): AccountsFetcher<E> {
  const perMinute = settings.options.routesPerMinute ?? 30;
  const windows = new Map<string, { start: number; count: number }>();

  function limited(request: Request): boolean {
    const address = request.headers.get("cf-connecting-ip") ?? "local";
    const now = Date.now();
    const window = windows.get(address);
    if (window === undefined || now - window.start >= 60_000) {
      windows.delete(address);
      if (windows.size >= MAX_TRACKED) windows.delete(windows.keys().next().value as string);
      windows.set(address, { start: now, count: 1 });
      return false;
    }
    window.count++;
    return window.count > perMinute;
  }

  async function stateOf(env: E, text: string | null): Promise<ConnectState | Response> {
    const opened = await openConnectState(await settings.keys(env), text);
    if (typeof opened === "string") return refused(opened);
    // Tenant-scoped: the provider must be declared for the tenant the link was minted in.
    if ((await settings.providerOf(env, opened.tenant, opened.provider)) === undefined) return refused("malformed");
    return opened;
  }

  async function connect(request: Request, env: E): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === "GET") {
      const state = await stateOf(env, url.searchParams.get("state"));
      if (state instanceof Response) return state;
      const owner: AccountOwner = { tenant: state.tenant, issuer: state.issuer, subject: state.subject };
      const declared = await settings.providerOf(env, state.tenant, state.provider);
      const title = declared?.provider.title ?? state.provider;
      const challenge = await settings.object(env, owner).connectChallenge(owner, settings.keyName, state.nonce, state.provider);
      if (challenge === undefined) return refused("used");
      const text = url.searchParams.get("state") ?? "";
      // Where the Worker signs users in, the browser signs in first: it must be the link's principal.
      const signIn = settings.options.signIn;
      if (signIn !== undefined && !(await signedInFor(request, await settings.keys(env), state)))
        return identifyRedirect(signIn, await settings.keys(env), env, settings.baseUrl(env), state, text);
      return page(
        200,
        `Connect ${title}`,
        `<p>The MCP user <strong>${escapeHtml(ownerText(state))}</strong> is linking a <strong>${escapeHtml(title)}</strong> account. ` +
          `Tools will act as the ${escapeHtml(title)} account you sign in with next, for that user only.</p>` +
          `<p>If you did not start this from your own MCP client, close this page: someone may be trying to use your ${escapeHtml(title)} account.</p>` +
          `<form method="post" action="${CONNECT_PATH}"><input type="hidden" name="state" value="${escapeHtml(text)}"><button type="submit" id="connect">Connect ${escapeHtml(title)}</button></form>`,
      );
    }
    if (request.method !== "POST") return new Response("Method Not Allowed", { status: 405, headers: { allow: "GET, POST" } });
    // The confirmation posts from this origin only (a cross-site form cannot skip the page).
    const origin = request.headers.get("origin");
    if (origin !== null && origin !== new URL(settings.baseUrl(env)).origin)
      return page(403, "Cannot connect the account", "<p>This form was sent from another site.</p>");
    const length = Number(request.headers.get("content-length") ?? "0");
    if (length > 4096) return refused("malformed");
    const form = await request.formData().catch(() => undefined);
    const text = form?.get("state");
    const state = await stateOf(env, typeof text === "string" ? text : null);
    if (state instanceof Response) return state;
    const owner: AccountOwner = { tenant: state.tenant, issuer: state.issuer, subject: state.subject };
    if (settings.options.signIn !== undefined && !(await signedInFor(request, await settings.keys(env), state))) return notTheirs();
    const challenge = await settings.object(env, owner).connectChallenge(owner, settings.keyName, state.nonce, state.provider);
    if (challenge === undefined) return refused("used");
    const provider = await settings.resolve(env, state.tenant, state.provider);
    if (provider === undefined) return refused("malformed");
    const target = new URL(provider.authorizationEndpoint);
    for (const [name, value] of Object.entries(provider.authorizationParams)) target.searchParams.set(name, value);
    target.searchParams.set("response_type", "code");
    target.searchParams.set("client_id", provider.clientId);
    target.searchParams.set("redirect_uri", `${settings.baseUrl(env)}${CALLBACK_PATH}`);
    if (provider.scopes.length > 0) target.searchParams.set("scope", provider.scopes.join(" "));
    target.searchParams.set("state", String(text));
    target.searchParams.set("code_challenge", challenge);
    target.searchParams.set("code_challenge_method", "S256");
    const headers = new Headers({ location: target.toString(), "cache-control": "no-store", "referrer-policy": "no-referrer" });
    for (const cookie of await confirmationCookies(request, await settings.keys(env), state.nonce, settings.baseUrl(env))) headers.append("set-cookie", cookie);
    return new Response(null, { status: 303, headers });
  }

  async function callback(request: Request, env: E): Promise<Response> {
    if (request.method !== "GET") return new Response("Method Not Allowed", { status: 405, headers: { allow: "GET" } });
    const url = new URL(request.url);
    const state = await stateOf(env, url.searchParams.get("state"));
    if (state instanceof Response) return state;
    const declared = await settings.providerOf(env, state.tenant, state.provider);
    const title = declared?.provider.title ?? state.provider;
    const code = url.searchParams.get("code");
    if (declared === undefined) return refused("malformed");
    if (code === null || code === "" || code.length > 2048) {
      const error = url.searchParams.get("error");
      return page(
        400,
        `${title} was not connected`,
        `<p>${escapeHtml(title)} answered ${escapeHtml((error ?? "without a code").slice(0, 64))}. Go back to your MCP client and try again.</p>`,
      );
    }
    // Only the browser that confirmed this link finishes it: a provider URL forwarded after the confirmation does not.
    if (!(await confirmedFor(request, await settings.keys(env), state.nonce)))
      return page(
        403,
        `${title} was not connected`,
        "<p>This connection was started in another browser. Open the connect link again from your MCP client.</p>",
      );
    const owner: AccountOwner = { tenant: state.tenant, issuer: state.issuer, subject: state.subject };
    const provider = await settings.resolve(env, state.tenant, state.provider);
    if (provider === undefined) return refused("malformed");
    const outcome = await settings
      .object(env, owner)
      .finishConnect(owner, settings.keyName, state.nonce, provider, code, `${settings.baseUrl(env)}${CALLBACK_PATH}`);
    if (outcome === "used") return refused("used");
    if (outcome !== "connected") {
      console.warn(JSON.stringify({ event: "accounts.connect_failed", provider: state.provider, tenant: state.tenant, reason: outcome }));
      return page(502, `${title} was not connected`, `<p>${escapeHtml(title)} did not complete the connection. Go back to your MCP client and try again.</p>`);
    }
    // 2025-11-25: the session the link was asked for in learns it completed (the elicitation id is the link's nonce).
    await notifyElicitationComplete(env, state);
    return page(
      200,
      `Connected ${title}`,
      `<p id="connected">Connected ${escapeHtml(title)} for ${escapeHtml(ownerText(state))}. You can close this page and go back to your MCP client.</p>`,
    );
  }

  async function identify(request: Request, env: E): Promise<Response> {
    const signIn = settings.options.signIn;
    if (signIn === undefined || request.method !== "GET") return new Response("Not Found", { status: 404 });
    const text = new URL(request.url).searchParams.get("state");
    // The accounts page signs in here too, with a state of its own.
    const pageState = await openPageState(await settings.keys(env), text);
    if (pageState !== undefined) return accounts.signedIn(request, env, pageState);
    const state = await stateOf(env, text);
    if (state instanceof Response) return state;
    const outcome = await identifyCallback(signIn, await settings.keys(env), env, settings.baseUrl(env), request, state, text ?? "");
    if (outcome === "mismatch") return notTheirs();
    if (outcome === "failed")
      return page(400, "Cannot connect the account", "<p>The sign-in did not complete in this browser. Open the connect link again from your MCP client.</p>");
    return outcome;
  }

  const accounts = accountsPage(settings);
  const routes: Record<string, (request: Request, env: E) => Promise<Response>> = {
    [CONNECT_PATH]: connect,
    [CALLBACK_PATH]: callback,
    [IDENTIFY_PATH]: identify,
    [PAGE_PATH]: accounts.list,
    [DISCONNECT_PATH]: accounts.disconnect,
  };

  return {
    async fetch(request, env, ctx) {
      const path = new URL(request.url).pathname;
      const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
      const admin = route === undefined ? ADMIN_ACCOUNTS_PATH.exec(path) : null;
      if (route === undefined && admin === null) return worker.fetch(request, env as never, ctx);
      if (limited(request))
        return admin === null
          ? page(429, "Too many requests", "<p>Wait a minute and try again.</p>")
          : new Response(null, { status: 429, headers: { "retry-after": "60" } });
      return admin === null ? (route as (request: Request, env: E) => Promise<Response>)(request, env) : accountsAdmin(settings, request, env, admin);
    },
  };
}
