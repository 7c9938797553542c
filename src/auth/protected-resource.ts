/** OAuth 2.0 Protected Resource Metadata (RFC 9728): the document, its well-known URLs, and routing. */

import type { AuthConfig } from "./auth-config.ts";

/** The well-known path prefix of RFC 9728 §3. */
export const METADATA_PATH = "/.well-known/oauth-protected-resource";

/** The metadata document served for a resource (RFC 9728 §2). */
export interface ProtectedResourceMetadata {
  resource: string;
  /** Issuer identifiers of the authorization servers; left out for an API-key-only tenant. */
  authorization_servers?: string[];
  scopes_supported?: string[];
  bearer_methods_supported: ["header"];
  /** RFC 9728 §2: the proof algorithms a DPoP tenant accepts. */
  dpop_signing_alg_values_supported?: string[];
  /** RFC 9728 §2: true when only DPoP-bound tokens are accepted. */
  dpop_bound_access_tokens_required?: boolean;
}

/** Both well-known URLs of a resource: clients try the path-inserted one first, then the root. */
export interface MetadataUrls {
  /** `<origin>/.well-known/oauth-protected-resource` */
  root: string;
  /** `<origin>/.well-known/oauth-protected-resource<path of resource>`; equals `root` for a resource without a path. */
  pathInserted: string;
}

/** The path of a resource for insertion: "" for no path or "/" (RFC 9728 §3.1 drops a terminating slash after the host). */
function resourcePath(resource: string): string {
  const { pathname } = new URL(resource);
  return pathname === "/" ? "" : pathname;
}

/**
 * Builds the document for a tenant. MCP requires `authorization_servers` (DIGEST §D.1); a tenant
 * with API keys only has none, and RFC 9728 makes the member optional, so it is left out then.
 * Tokens travel only in the `Authorization` header, so `bearer_methods_supported` is `["header"]`.
 */
export function protectedResourceMetadata(
  config: Pick<AuthConfig, "resource" | "authorizationServers" | "scopesSupported" | "dpop">,
): ProtectedResourceMetadata {
  return {
    resource: config.resource,
    ...(config.authorizationServers.length > 0 ? { authorization_servers: [...config.authorizationServers] } : {}),
    ...(config.scopesSupported === undefined ? {} : { scopes_supported: [...config.scopesSupported] }),
    bearer_methods_supported: ["header"],
    ...(config.dpop === undefined
      ? {}
      : { dpop_signing_alg_values_supported: [...config.dpop.algorithms], ...(config.dpop.required ? { dpop_bound_access_tokens_required: true } : {}) }),
  };
}

/**
 * The metadata URLs for a resource URL (RFC 9728 §3.1). Pass the URL the endpoint is served at
 * when it differs from the configured resource (a dev server on another port), so that the
 * `resource_metadata` of a challenge points at this server.
 */
export function metadataUrls(resource: string): MetadataUrls {
  const url = new URL(resource);
  const root = `${url.origin}${METADATA_PATH}`;
  return { root, pathInserted: `${root}${resourcePath(resource)}` };
}

/**
 * Which resource a well-known request is for, by path only (resolve the host first). The
 * path-inserted form names its resource; the root form answers for a resource without a path,
 * or for the only resource given. Several resources behind one root are ambiguous: `undefined`.
 */
export function matchMetadataPath(pathname: string, resources: readonly string[]): string | undefined {
  if (!pathname.startsWith(METADATA_PATH)) return undefined;
  for (const resource of resources) {
    if (pathname === METADATA_PATH + resourcePath(resource)) return resource;
  }
  return pathname === METADATA_PATH && resources.length === 1 ? resources[0] : undefined;
}
