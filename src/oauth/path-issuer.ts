/**
 * A path-routed tenant's issuer (`https://mcp.example.com/t/acme`) where workers-oauth-provider names
 * the origin: the library derives its issuer from its token endpoint's origin and has no issuer with a
 * path in the mode that also serves the protected resource, so the two places it names the issuer
 * are rewritten on their way out.
 */

/** The library's authorization-server metadata with the tenant's issuer (origin and path) in place of the origin. */
export async function withIssuer(response: Response, issuer: string): Promise<Response> {
  const metadata = await response.json<Record<string, unknown>>();
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify({ ...metadata, issuer }), { status: response.status, headers });
}

/** A redirect to the client whose RFC 9207 `iss` names the origin: it names the tenant's issuer instead, as its metadata does. */
export function withIssParameter(response: Response, origin: string, issuer: string): Response {
  const location = response.headers.get("location");
  if (location === null) return response;
  let target: URL;
  try {
    target = new URL(location);
  } catch {
    return response;
  }
  if (target.searchParams.get("iss") !== origin) return response;
  target.searchParams.set("iss", issuer);
  const headers = new Headers(response.headers);
  headers.set("location", target.href);
  return new Response(response.body, { status: response.status, headers });
}
