/** The keys of tenants kept one per KV key: each tenant's config, and the routes from hosts and path prefixes to it. */

/** Where a tenant's config lives: `tenant:<id>`. */
export const tenantKey = (id: string): string => `tenant:${id}`;

/** The route from a host name (lower case, no port) to its tenant's id: `host:<host>`. */
export const hostKey = (host: string): string => `host:${host}`;

/** The route from a path prefix to its tenant's id: `path:<prefix>`. */
export const pathKey = (prefix: string): string => `path:${prefix}`;

/** The key of the single tenants document; a namespace without it holds its tenants one per key. */
export const DOCUMENT_KEY = "tenants";

/** The deepest path prefix looked up for a request (each level may cost one read on a cold isolate). */
export const MAX_PREFIX_SEGMENTS = 4;

/**
 * The path prefixes a request path may belong to, longest first: `/t/acme/mcp` → `/t/acme/mcp`,
 * `/t/acme`, `/t`. At most {@link MAX_PREFIX_SEGMENTS} segments.
 */
export function prefixCandidates(pathname: string): string[] {
  const segments = pathname
    .split("/")
    .filter((s) => s !== "")
    .slice(0, MAX_PREFIX_SEGMENTS);
  const candidates: string[] = [];
  for (let n = segments.length; n > 0; n--) candidates.push(`/${segments.slice(0, n).join("/")}`);
  return candidates;
}

/** The KV entries of one tenant: its config under its id and a route from each host and its path prefix. */
export function tenantEntries(config: { id: string; hosts?: readonly string[]; pathPrefix?: string }, text: string): { key: string; value: string }[] {
  return [
    { key: tenantKey(config.id), value: text },
    ...(config.hosts ?? []).map((host) => ({ key: hostKey(host), value: config.id })),
    ...(config.pathPrefix === undefined ? [] : [{ key: pathKey(config.pathPrefix), value: config.id }]),
  ];
}
