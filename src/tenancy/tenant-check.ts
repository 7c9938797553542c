/** Every problem of a tenants document, found before anything is written to a tenant store. */

import { parseAuthConfig } from "../auth/auth-config.ts";
import { DefinitionError } from "../core/definition-error.ts";
import { isObject } from "../core/json.ts";
import { parseAccountsSection } from "./accounts-section.ts";
import type { TenantConfig } from "./tenant-config.ts";
import { parseTenantsByTenant } from "./tenant-document.ts";
import { MAX_PREFIX_SEGMENTS, tenantEntries } from "./tenant-keys.ts";
import { parseSignIn } from "./sign-in-section.ts";

/** Workers KV's largest value (25 MiB). */
export const MAX_TENANT_BYTES = 25 * 1024 * 1024;

/** The valid tenants of a document with the KV entries each becomes, and every problem found, each naming its tenant and field. */
export interface TenantCheck {
  tenants: { config: TenantConfig; entries: { key: string; value: string }[] }[];
  problems: string[];
}

/**
 * Checks a `{"tenants": [...]}` document (or one tenant's config) as the Worker would, and for
 * storing one tenant per KV key: auth settings, ids, hosts and path prefixes unique, prefixes at
 * most {@link MAX_PREFIX_SEGMENTS} segments deep, each config within KV's value size.
 */
export function checkTenants(value: unknown): TenantCheck {
  const document = isObject(value) && !Array.isArray(value["tenants"]) && "id" in value ? { tenants: [value] } : value;
  let parsed;
  try {
    parsed = parseTenantsByTenant(document);
  } catch (error) {
    if (error instanceof DefinitionError) return { tenants: [], problems: [error.message] };
    throw error;
  }
  const problems = parsed.broken.map((b) => b.problem);
  const tenants: TenantCheck["tenants"] = [];
  const raw = (document as { tenants: unknown[] }).tenants;
  for (const config of parsed.tenants) {
    try {
      if (config.auth !== undefined) parseAuthConfig(config.auth, config.id);
      if (config.signIn !== undefined)
        parseSignIn(config.signIn, (field, problem) => {
          throw new DefinitionError(`tenant ${config.id}: ${field} ${problem}`);
        });
      if (config.accounts !== undefined)
        parseAccountsSection(config.accounts, (field, problem) => {
          throw new DefinitionError(`tenant ${config.id}: ${field} ${problem}`);
        });
      const segments = config.pathPrefix?.split("/").filter((s) => s !== "").length ?? 0;
      if (segments > MAX_PREFIX_SEGMENTS)
        throw new DefinitionError(`tenant ${config.id}: pathPrefix has ${segments} segments; a tenant store looks up at most ${MAX_PREFIX_SEGMENTS}`);
      const text = JSON.stringify(raw.find((t) => isObject(t) && t["id"] === config.id));
      if (new TextEncoder().encode(text).length > MAX_TENANT_BYTES)
        throw new DefinitionError(`tenant ${config.id}: its config is larger than ${MAX_TENANT_BYTES / 1024 / 1024} MiB, the most a KV value holds`);
      tenants.push({ config, entries: tenantEntries(config, text) });
    } catch (error) {
      if (!(error instanceof DefinitionError)) throw error;
      problems.push(error.message);
    }
  }
  return { tenants, problems };
}
