/**
 * Remote modules for a multi-tenant Worker's tenants: `createMultiTenantWorker({ ..., remotes:
 * remoteModules() })`. An opt-in import: Workers without it bundle no MCP client. Each module's
 * connection, list cache and circuit breaker live once per isolate.
 */

import { DefinitionError } from "../core/definition-error.ts";
import { collectRemoteModule } from "../modules/remote/remote-parts.ts";
import type { RemoteModule } from "../modules/remote/remote-module.ts";
import type { RemoteListChanged, TenantRemotes } from "../tenancy/tenant-parts.ts";
import { parseRemote } from "../tenancy/remote-section.ts";
import { tenantSecretReader } from "../tenancy/tenant-secret-reader.ts";
import { envFlag } from "./env.ts";
import { remoteModuleOf, tenantSecretNames } from "./remote-module-of.ts";

export interface RemoteModulesOptions {
  /** Allows plain http to loopback upstreams (default: the MCP_DEV var). */
  development?: boolean;
  /** The fetch upstream requests go through (default: the global fetch). */
  fetch?: typeof fetch;
}

/** What `remoteModules()` makes: the value of `createMultiTenantWorker`'s `remotes` option. */
export interface RemoteModulesOptIn {
  readonly kind: "edge-mcp/remote-modules";
  /** The tenants' remote modules in an env (its vars and secrets). */
  of(env: object): TenantRemotes;
}

/**
 * The values of the tenant's own secrets `names`, sealed in MCP_TENANTS_KV under MCP_SECRETS_KEY;
 * one that cannot be read is logged (never a value) and left out, so the module names it as unavailable.
 */
async function readTenantSecrets(env: Record<string, unknown>, tenant: string, names: string[], where: string): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  if (names.length === 0) return values;
  const kv = env["MCP_TENANTS_KV"] as KVNamespace | undefined;
  const keys = env["MCP_SECRETS_KEY"];
  if (typeof kv?.get !== "function" || typeof keys !== "string" || keys === "") {
    console.error(`edge-mcp: ${where}: tenant secrets need the MCP_TENANTS_KV namespace binding and the MCP_SECRETS_KEY secret`);
    return values;
  }
  for (const name of names) {
    try {
      values.set(name, await tenantSecretReader(kv, keys, tenant, name)());
    } catch (error) {
      console.error(`edge-mcp: ${where}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return values;
}

/**
 * Remote MCP servers as tenant modules (`"remote": {...}` in a module of the tenants document; see
 * docs/remote-servers.md): their tools listed under the module prefix and forwarded, admitted like
 * the Worker's own. Upstream URLs are https, or http to loopback when MCP_DEV is on.
 *
 * @example
 * export default createMultiTenantWorker({ modules: {}, remotes: remoteModules() });
 */
export function remoteModules(options: RemoteModulesOptions = {}): RemoteModulesOptIn {
  const perEnv = new WeakMap<object, TenantRemotes>();
  return {
    kind: "edge-mcp/remote-modules",
    of(env) {
      let remotes = perEnv.get(env);
      if (remotes) return remotes;
      const bindings = env as Record<string, unknown>;
      const development = options.development ?? envFlag(bindings["MCP_DEV"] as string | undefined, false);
      // One module per tenant, name and settings in this isolate: its session, list and breaker outlive a server rebuild.
      const modules = new Map<string, RemoteModule>();
      // Who builds each module's tenant server again when a call reads a changed list: the directory that collected it last.
      const announcers = new Map<string, RemoteListChanged>();
      remotes = {
        parse: parseRemote,
        async collect(tenant, ref, settings, taken, validator) {
          const where = `tenant ${tenant.id}: module ${ref.name}`;
          const key = JSON.stringify([tenant.id, ref.name, ref.remote, settings.prefix, settings.timeoutMs]);
          let module = modules.get(key);
          if (!module) {
            try {
              const tenantSecrets = await readTenantSecrets(bindings, tenant.id, tenantSecretNames(ref.remote), where);
              module = remoteModuleOf(bindings, ref.remote, { name: ref.name, ...settings, development, where, fetch: options.fetch, tenantSecrets });
            } catch (error) {
              if (!(error instanceof DefinitionError)) throw error;
              console.error(`edge-mcp: ${error.message}`);
              const reason = error.message.slice(where.length + 2);
              return { tools: [], unavailable: { prefix: settings.prefix, module: ref.name, reason }, catalog: null, stale: () => false };
            }
            modules.set(key, module);
            module.onListChanged((waitUntil) => announcers.get(key)?.(waitUntil) ?? Promise.resolve());
          }
          if (settings.changed) announcers.set(key, settings.changed);
          return collectRemoteModule(module, taken, `tenant ${tenant.id}: `, validator);
        },
      };
      perEnv.set(env, remotes);
      return remotes;
    },
  };
}
