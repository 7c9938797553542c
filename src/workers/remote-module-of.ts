/** A remote module from its config and the env: the URL (or the var holding it) checked, header values and the credential read from their bindings. */

import { DefinitionError } from "../core/definition-error.ts";
import { isObject } from "../core/json.ts";
import { DEFAULT_MAX_RESPONSE_BYTES, RemoteModule } from "../modules/remote/remote-module.ts";
import { remoteUrl } from "../modules/remote/remote-target.ts";
import type { RemoteRef, TenantSecretRef } from "../tenancy/remote-section.ts";

export interface RemoteModuleOfSettings {
  name: string;
  prefix: string;
  timeoutMs: number;
  /** Plain http to loopback allowed. */
  development: boolean;
  /** Starts every error: `tenant acme: module up`. */
  where: string;
  refuse?: ((url: URL) => string | undefined) | undefined;
  fetch?: typeof fetch | undefined;
  /** The values of the tenant's own secrets the config names (read beforehand: they are sealed in KV). */
  tenantSecrets?: ReadonlyMap<string, string> | undefined;
}

/** A var or secret of the env as text, or a DefinitionError naming it. */
function bindingText(env: Record<string, unknown>, name: string, what: string): string {
  const value = env[name];
  if (typeof value !== "string" || value === "")
    throw new DefinitionError(`${what} names the binding ${name}, which is not set (a var, or a secret: wrangler secret put ${name})`);
  return value;
}

/** The value of the tenant's own secret `name`, read beforehand, or a DefinitionError naming it (never a value). */
function ownSecret(secrets: ReadonlyMap<string, string> | undefined, name: string, what: string): string {
  const value = secrets?.get(name);
  if (value === undefined) throw new DefinitionError(`${what} names the tenant secret ${name}, which cannot be read (see the log)`);
  return value;
}

/** The tenant secrets a remote module's config names. */
export function tenantSecretNames(remote: RemoteRef): string[] {
  const sources = [...Object.values(remote.headers ?? {}), ...(isObject(remote.auth) ? [remote.auth] : [])];
  return [...new Set(sources.flatMap((source) => (typeof source === "object" && "tenantSecret" in source ? [source.tenantSecret] : [])))];
}

/** Builds a remote module; throws a DefinitionError (starting with `where`) when its URL or a binding it names is wrong. */
export function remoteModuleOf(env: Record<string, unknown>, remote: RemoteRef, settings: RemoteModuleOfSettings): RemoteModule {
  const { where } = settings;
  const url = remoteUrl(remote.url ?? bindingText(env, remote.urlVar as string, `${where}: urlVar`), settings.development, where);
  const secrets = settings.tenantSecrets;
  const valueOf = (source: string | TenantSecretRef, what: string): string =>
    typeof source === "string" ? bindingText(env, source, what) : ownSecret(secrets, source.tenantSecret, what);
  const headers: Record<string, string> = {};
  for (const [name, source] of Object.entries(remote.headers ?? {})) headers[name] = valueOf(source, `${where}: headers.${name}`);
  if (isObject(remote.auth)) {
    const auth = remote.auth;
    headers["authorization"] = `Bearer ${"secret" in auth ? bindingText(env, auth.secret, `${where}: auth.secret`) : valueOf(auth, `${where}: auth`)}`;
  }
  return new RemoteModule({
    name: settings.name,
    prefix: settings.prefix,
    url,
    protocol: remote.protocol ?? "auto",
    headers,
    allow: remote.allow,
    deny: remote.deny,
    timeoutMs: settings.timeoutMs,
    maxResponseBytes: remote.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    ...(remote.breaker ? { breaker: remote.breaker } : {}),
    ...(settings.refuse ? { refuse: settings.refuse } : {}),
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
  });
}
