/** CORS for browser clients that connect directly (e.g. the MCP Inspector without its proxy). */

const ALLOWED_HEADERS = new Set([
  "content-type",
  "accept",
  "authorization",
  "mcp-protocol-version",
  "mcp-session-id",
  "mcp-method",
  "mcp-name",
  "last-event-id",
]);
const EXPOSED_HEADERS = "mcp-session-id, www-authenticate, retry-after";

/**
 * Answers a preflight for an origin the Host/Origin policy already allowed: the MCP methods,
 * the MCP headers (and any `Mcp-Param-*`), credentials by header only (no cookies).
 */
export function preflight(request: Request): Response {
  const origin = request.headers.get("origin");
  if (origin === null) return new Response(null, { status: 204, headers: { allow: "POST, GET, DELETE, OPTIONS" } });
  const asked = (request.headers.get("access-control-request-headers") ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== "");
  const granted = asked.filter((h) => ALLOWED_HEADERS.has(h) || h.startsWith("mcp-param-"));
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": "POST, GET, DELETE",
      "access-control-allow-headers": granted.join(", "),
      "access-control-max-age": "600",
      vary: "Origin",
    },
  });
}

/** Adds the CORS response headers when a browser sent an (allowed) Origin; otherwise returns the response as is. */
export function withCors(request: Request, response: Response): Response {
  const origin = request.headers.get("origin");
  if (origin === null) return response;
  const headers = new Headers(response.headers);
  headers.set("access-control-allow-origin", origin);
  headers.set("access-control-expose-headers", EXPOSED_HEADERS);
  // A preflight's answer already varies by Origin: say it once.
  const vary = headers.get("vary");
  if (vary === null || !vary.split(",").some((v) => v.trim().toLowerCase() === "origin")) headers.append("vary", "Origin");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
