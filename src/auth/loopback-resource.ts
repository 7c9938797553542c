/** A development resource on a loopback host follows the port it is actually served at. */

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * The resource a client reached: the configured one, except when that one is on a loopback host
 * (`http://127.0.0.1:8787/t/acme/mcp`) and the request came to the same host on another port, as
 * a second `wrangler dev` does. Then the resource is the same URL at the request's port, so the
 * metadata names the URL the client used (strict OAuth clients refuse any other) and tokens issued
 * for it are accepted. A resource on any other host is returned as configured.
 */
export function servedResource(resource: string, requestUrl: string): string {
  const configured = new URL(resource);
  if (!LOOPBACK.has(configured.hostname)) return resource;
  const reached = new URL(requestUrl);
  if (reached.hostname !== configured.hostname || reached.protocol !== configured.protocol || reached.port === configured.port) return resource;
  configured.port = reached.port;
  return configured.href;
}

/** Whether a resource is on a loopback host (only then can the served resource differ from it). */
export function isLoopbackResource(resource: string): boolean {
  return LOOPBACK.has(new URL(resource).hostname);
}
