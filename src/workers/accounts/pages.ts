/** The plain pages of the accounts routes: escaped, unframeable, loading nothing. */

const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  // The confirmation must not be framed (clickjacking); the pages load nothing.
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  // same-origin, not no-referrer: under no-referrer the browser sends `Origin: null` with the confirmation's POST.
  "referrer-policy": "same-origin",
};

export function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

export function page(status: number, title: string, body: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
  return new Response(html, { status, headers: PAGE_HEADERS });
}
