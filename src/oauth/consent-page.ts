/** The consent page and the error page of the sign-in flow: plain HTML, every client-given string escaped. */

import type { ConsentDescription } from "@cloudflare/workers-oauth-provider";

const ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] as string);
}

/** Headers of every page: no caching, no framing, no scripts, no referrer (the URL carries the request). */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
};

const STYLE =
  "body{font:16px system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}code{word-break:break-all}button{font:inherit;padding:.4rem 1rem;margin-right:.5rem}";

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** What the consent page names besides the library's description of the request. */
export interface ConsentPageContent {
  readonly description: ConsentDescription;
  /** The form's handle from `beginConsent` (bound to this browser by its `__Host-` cookie). */
  readonly handle: string;
  /** The name of this server, as the user knows it. */
  readonly serverName: string;
  /** The upstream provider the user signs in with next. */
  readonly upstreamName: string;
  /** Where the form posts (default `/authorize`; a path-routed tenant's `<prefix>/authorize`). */
  readonly action?: string;
}

/** The consent page: who asks (name, verified domain when it has one), where the tokens go, which scopes; approve or deny. */
export function consentPage({ description, handle, serverName, upstreamName, action = "/authorize" }: ConsentPageContent): string {
  const client = escapeHtml(description.clientName);
  const domain = description.clientDomain === undefined ? "" : ` <small>(${escapeHtml(description.clientDomain)})</small>`;
  const scopes =
    description.scope.length === 0
      ? "<p>It asks for no particular scope.</p>"
      : `<ul>${description.scope.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join("")}</ul>`;
  const local = description.redirectIsLoopback
    ? "<p><strong>The tokens go to a program on this computer.</strong> Any local program could be listening: approve only if you just started this sign-in.</p>"
    : "";
  return page(
    `Sign in to ${serverName}`,
    `<h1>Allow <span id="client-name">${client}</span>${domain}?</h1>` +
      `<p>It asks to use <strong>${escapeHtml(serverName)}</strong> as you. You sign in with ${escapeHtml(upstreamName)} next.</p>` +
      `<p>Tokens go to <code id="redirect-host">${escapeHtml(description.redirectHost)}</code>.</p>${local}${scopes}` +
      `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="handle" value="${escapeHtml(handle)}">` +
      `<button type="submit" name="decision" value="approve" id="approve">Allow</button>` +
      `<button type="submit" name="decision" value="deny" id="deny">Deny</button></form>`,
  );
}

/** A page for an error that must not redirect (the redirect URI is unknown or unverified). */
export function errorPage(error: string, description: string): string {
  return page("Sign-in failed", `<h1>Sign-in failed</h1><p><code id="error">${escapeHtml(error)}</code></p><p>${escapeHtml(description)}</p>`);
}
