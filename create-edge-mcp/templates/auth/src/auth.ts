/** Who may call: tokens from the identity provider of AUTH_ISSUER, and the API keys of MCP_API_KEYS. */

import { createAuthorizer, parseAuthConfig, type Authorizer } from "edge-mcp";

/** The vars this Worker reads (wrangler.toml). */
export interface AuthEnv {
  MCP_RESOURCE: string;
  AUTH_ISSUER: string;
  AUTH_JWKS_URI: string;
  MCP_API_KEYS: string;
}

/**
 * Builds the authorizer from the vars; parseAuthConfig checks them and names what is wrong. Tokens
 * must be signed by the provider's keys, issued by AUTH_ISSUER, for the audience MCP_RESOURCE, and
 * unexpired; a tool listed in toolScopes needs its scopes.
 */
export function authorizer(env: AuthEnv): Authorizer {
  const config = parseAuthConfig(
    {
      resource: env.MCP_RESOURCE,
      issuer: env.AUTH_ISSUER,
      jwksUri: env.AUTH_JWKS_URI,
      scopesSupported: ["orders:read"],
      toolScopes: { list_orders: ["orders:read"] },
      apiKeys: JSON.parse(env.MCP_API_KEYS),
    },
    "default",
  );
  return createAuthorizer(config);
}
