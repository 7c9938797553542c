/**
 * What a tenant's `auth` config names beyond pinned-issuer JWTs and API keys (issuer templates,
 * introspection, an authorization server's binding), checked in full and built from the Worker's env.
 */

import { DefinitionError } from "../../core/definition-error.ts";
import type { AuthConfig } from "../auth-config.ts";
import type { TemplateIssuers, TokenVerifier } from "../token-verifier.ts";
import { createAuthorizationServerVerifier, type AuthorizationServerBinding } from "./authorization-server-verifier.ts";
import { createIntrospectionVerifier } from "./introspection-verifier.ts";
import { createTemplateIssuers, parseIssuerTemplates, type IssuerTemplate } from "./issuer-templates.ts";
import { parseAuthorizationServer, parseIntrospection, type AuthorizationServerBindingConfig, type IntrospectionConfig } from "./opaque-config.ts";

interface CheckedSources {
  introspection?: IntrospectionConfig | undefined;
  authorizationServer?: AuthorizationServerBindingConfig | undefined;
  issuerTemplates?: readonly IssuerTemplate[] | undefined;
}

/** The checked settings of a config, or a DefinitionError naming the tenant and every problem. */
function checkedSources(config: AuthConfig, tenantId: string): CheckedSources {
  const issues: string[] = [];
  const fail = (field: string, problem: string): void => void issues.push(`auth.${field}: ${problem}`);
  const checked: CheckedSources = {
    introspection: config.introspection === undefined ? undefined : parseIntrospection(config.introspection, fail),
    authorizationServer: config.authorizationServer === undefined ? undefined : parseAuthorizationServer(config.authorizationServer, fail),
    issuerTemplates: config.issuerTemplates === undefined ? undefined : parseIssuerTemplates(config.issuerTemplates, fail),
  };
  if (issues.length > 0) throw new DefinitionError(`tenant "${tenantId}" has an invalid auth config: ${issues.join("; ")}`);
  return checked;
}

/**
 * Checks `auth.issuerTemplates`, `auth.introspection` and `auth.authorizationServer` in full (what
 * `parseAuthConfig` leaves to this opt-in): throws a {@link DefinitionError} naming the tenant and
 * every problem. `configuredTokenSources` checks the same before it builds anything.
 */
export function checkTokenSourceConfig(config: AuthConfig, tenantId: string): void {
  checkedSources(config, tenantId);
}

/** The client secret held in the secret binding `name`. */
function boundSecret(read: (name: string) => unknown, name: string, tenantId: string): string {
  const secret = read(name);
  if (typeof secret !== "string" || secret === "")
    throw new DefinitionError(`tenant "${tenantId}": auth.introspection.clientSecretBinding: the secret ${name} is not set (wrangler secret put ${name})`);
  return secret;
}

/** The reader of the tenant's own secret `name`, where the Worker keeps tenant secrets. */
function ownSecret(tenantSecret: TenantSecretReader | undefined, name: string, tenantId: string): () => Promise<string> {
  if (!tenantSecret)
    throw new DefinitionError(
      `tenant "${tenantId}": auth.introspection.clientSecretName needs tenant secrets: createMultiTenantWorker({ tenantStore: keyedTenants() }) with MCP_SECRETS_KEY set`,
    );
  const read = tenantSecret(name);
  // The client sees 503 "Authorization unavailable"; the operator reads which secret and why here.
  return () =>
    read().catch((error: unknown) => {
      console.error(`edge-mcp: tenant "${tenantId}": auth.introspection.clientSecretName: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    });
}

/** A reader of one of a tenant's own secrets, by name (tenant secrets of keyedTenants()). */
export type TenantSecretReader = (name: string) => () => Promise<string>;

/** What {@link configuredTokenSources} gives `createAuthorizer`: spread it into its options. */
export interface TokenSources {
  tokenVerifier?: TokenVerifier | undefined;
  issuerTemplates?: TemplateIssuers | undefined;
}

/**
 * The verifiers a config names beyond pinned issuers: its issuer templates, and the verifier of
 * `auth.introspection` or `auth.authorizationServer` with the client secret and the Service
 * Binding read from `env` by the names the config gives. Throws a {@link DefinitionError} naming the
 * field when a setting is wrong or a binding is not set. Call it once per config and env (the
 * verifier holds its cache), as `createAuthorizer` is called.
 *
 * @example
 * authorizer: (env: Env) => {
 *   const config = parseAuthConfig(JSON.parse(env.MCP_AUTH), "default");
 *   return createAuthorizer(config, configuredTokenSources(config, env));
 * }
 */
export function configuredTokenSources(config: AuthConfig, env: object, tenantId = "default", tenantSecret?: TenantSecretReader): TokenSources {
  const bindings = env as Record<string, unknown>;
  const { introspection, authorizationServer, issuerTemplates } = checkedSources(config, tenantId);
  const keyOptions = config.jwksCooldownSeconds === undefined ? {} : { jwksCooldownMs: config.jwksCooldownSeconds * 1000 };
  const sources: TokenSources = issuerTemplates === undefined ? {} : { issuerTemplates: createTemplateIssuers(issuerTemplates, keyOptions) };
  const read = (name: string): unknown => (Object.hasOwn(bindings, name) ? bindings[name] : undefined);
  if (introspection) {
    const { clientSecretBinding, clientSecretName, ...settings } = introspection;
    sources.tokenVerifier = createIntrospectionVerifier({
      ...settings,
      clientSecret:
        clientSecretName === undefined ? boundSecret(read, clientSecretBinding as string, tenantId) : ownSecret(tenantSecret, clientSecretName, tenantId),
      grants: config.grants,
      clockSkewSeconds: config.clockSkewSeconds,
    });
  }
  if (authorizationServer) {
    const binding = read(authorizationServer.binding);
    if (typeof binding !== "object" || binding === null)
      throw new DefinitionError(
        `tenant "${tenantId}": auth.authorizationServer.binding: no Service Binding named ${authorizationServer.binding} (add it under [[services]] in wrangler.toml, pointing at the authorization server's entrypoint)`,
      );
    const { binding: _name, ...settings } = authorizationServer;
    sources.tokenVerifier = createAuthorizationServerVerifier({ ...settings, binding: binding as AuthorizationServerBinding, grants: config.grants });
  }
  return sources;
}

/** What a multi-tenant Worker needs for its tenants' token sources: give `tokenSources()` as its `tokenSources` option. */
export interface TokenSourcesOptIn {
  readonly sources: typeof configuredTokenSources;
  readonly check: typeof checkTokenSourceConfig;
}

/**
 * Lets the tenants of a multi-tenant Worker use `auth.issuerTemplates`, `auth.introspection` and
 * `auth.authorizationServer`: an opt-in, so that a Worker whose tenants use none bundles none of them.
 *
 * @example
 * export default createMultiTenantWorker({ modules, tokenSources: tokenSources() });
 */
export function tokenSources(): TokenSourcesOptIn {
  return { sources: configuredTokenSources, check: checkTokenSourceConfig };
}
