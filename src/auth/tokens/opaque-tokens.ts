/** The opaque-token verifier a tenant's `auth` config names (introspection or an authorization server's binding), built from the Worker's env. */

import { DefinitionError } from "../../core/definition-error.ts";
import type { AuthConfig } from "../auth-config.ts";
import type { TokenVerifier } from "../token-verifier.ts";
import { createAuthorizationServerVerifier, type AuthorizationServerBinding } from "./authorization-server-verifier.ts";
import { createIntrospectionVerifier } from "./introspection-verifier.ts";

/**
 * The verifier of `auth.introspection` or `auth.authorizationServer`, with the client secret and
 * the Service Binding read from `env` by the names the config gives; undefined when the config names
 * neither. Throws a {@link DefinitionError} naming the field when the binding is not set. Call it
 * once per config and env (it holds the cache), as `createAuthorizer` is called.
 *
 * @example
 * authorizer: (env: Env) => {
 *   const config = parseAuthConfig(JSON.parse(env.MCP_AUTH), "default");
 *   return createAuthorizer(config, { tokenVerifier: configuredTokenVerifier(config, env) });
 * }
 */
export function configuredTokenVerifier(config: AuthConfig, env: object): TokenVerifier | undefined {
  const bindings = env as Record<string, unknown>;
  const grants = config.grants;
  const { introspection, authorizationServer } = config;
  if (introspection) {
    const secret = Object.hasOwn(bindings, introspection.clientSecretBinding) ? bindings[introspection.clientSecretBinding] : undefined;
    if (typeof secret !== "string" || secret === "")
      throw new DefinitionError(
        `auth.introspection.clientSecretBinding: the secret ${introspection.clientSecretBinding} is not set (wrangler secret put ${introspection.clientSecretBinding})`,
      );
    const { clientSecretBinding: _name, ...settings } = introspection;
    return createIntrospectionVerifier({ ...settings, clientSecret: secret, grants, clockSkewSeconds: config.clockSkewSeconds });
  }
  if (authorizationServer) {
    const binding = Object.hasOwn(bindings, authorizationServer.binding) ? bindings[authorizationServer.binding] : undefined;
    if (typeof binding !== "object" || binding === null)
      throw new DefinitionError(
        `auth.authorizationServer.binding: no Service Binding named ${authorizationServer.binding} (add it under [[services]] in wrangler.toml, pointing at the authorization server's entrypoint)`,
      );
    const { binding: _name, ...settings } = authorizationServer;
    return createAuthorizationServerVerifier({ ...settings, binding: binding as AuthorizationServerBinding, grants });
  }
  return undefined;
}

/** What a multi-tenant Worker needs to verify its tenants' opaque tokens: give `opaqueTokens()` as its `opaqueTokens` option. */
export interface OpaqueTokens {
  readonly verifier: typeof configuredTokenVerifier;
}

/**
 * Lets the tenants of a multi-tenant Worker use `auth.introspection` and `auth.authorizationServer`
 * (an opt-in, so that a Worker whose tenants use neither bundles neither).
 *
 * @example
 * export default createMultiTenantWorker({ modules, opaqueTokens: opaqueTokens() });
 */
export function opaqueTokens(): OpaqueTokens {
  return { verifier: configuredTokenVerifier };
}
