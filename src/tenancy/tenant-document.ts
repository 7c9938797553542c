/** A tenants document read tenant by tenant: a tenant whose config is invalid is set aside with its problem, the others are served. */

import { DefinitionError } from "../core/definition-error.ts";
import { isObject } from "../core/json.ts";
import { parseTenantConfig, type TenantConfig } from "./tenant-config.ts";

/** A tenant that cannot be served: its requests get a 503 naming the problem; every other tenant keeps serving. */
export interface BrokenTenant {
  /** Its id, or `#<index>` in the document when it has no readable id. */
  readonly label: string;
  /** Host names and path prefix read from its config as far as they are readable, to answer its own requests. */
  readonly hosts: readonly string[];
  readonly pathPrefix: string | undefined;
  /** What is wrong, as the DefinitionError says it ("tenant acme: limit is not a known field; did you mean limits?"). */
  readonly problem: string;
}

export interface TenantsDocument {
  tenants: TenantConfig[];
  broken: BrokenTenant[];
}

const HOST = /^[a-z0-9.-]{1,253}$/;
const PATH_PREFIX = /^(\/[A-Za-z0-9._~-]+)+$/;

/** What routes to a tenant whose config failed: the hosts and path prefix that are well-formed. */
export function brokenTenant(value: unknown, label: string, problem: string): BrokenTenant {
  const raw = isObject(value) ? value : {};
  const hosts = Array.isArray(raw["hosts"]) ? raw["hosts"].filter((h): h is string => typeof h === "string").map((h) => h.toLowerCase()) : [];
  const prefix = raw["pathPrefix"];
  return { label, hosts: hosts.filter((h) => HOST.test(h)), pathPrefix: typeof prefix === "string" && PATH_PREFIX.test(prefix) ? prefix : undefined, problem };
}

/**
 * Validates a `{ "tenants": [...] }` document tenant by tenant. A tenant that fails (a bad field,
 * an id, host or path prefix another tenant already has) is returned in `broken` with its problem;
 * only a document that is not `{"tenants": [...]}` at all throws.
 */
export function parseTenantsByTenant(value: unknown): TenantsDocument {
  if (!isObject(value) || !Array.isArray(value["tenants"])) throw new DefinitionError(`tenants document: must be an object {"tenants": [...]}`);
  const tenants: TenantConfig[] = [];
  const broken: BrokenTenant[] = [];
  const owners = new Map<string, string>();
  (value["tenants"] as unknown[]).forEach((raw, index) => {
    const label = isObject(raw) && typeof raw["id"] === "string" ? raw["id"] : `#${index}`;
    try {
      const tenant = parseTenantConfig(raw, index);
      const claims = [
        `id:${tenant.id}`,
        ...(tenant.hosts ?? []).map((h) => `host:${h}`),
        ...(tenant.pathPrefix === undefined ? [] : [`path:${tenant.pathPrefix}`]),
      ];
      for (const claim of claims) {
        const owner = owners.get(claim);
        if (owner !== undefined) throw new DefinitionError(`tenant ${tenant.id}: ${claim.replace(":", " ")} is already used by tenant ${owner}`);
      }
      for (const claim of claims) owners.set(claim, tenant.id);
      tenants.push(tenant);
    } catch (error) {
      if (!(error instanceof DefinitionError)) throw error;
      broken.push(brokenTenant(raw, label, error.message));
    }
  });
  // A broken tenant answers only where no served tenant is reached.
  const taken = (key: string) => owners.has(key);
  return {
    tenants,
    broken: broken.map((b) => ({
      ...b,
      hosts: b.hosts.filter((h) => !taken(`host:${h}`)),
      pathPrefix: b.pathPrefix !== undefined && !taken(`path:${b.pathPrefix}`) ? b.pathPrefix : undefined,
    })),
  };
}

/** Where the tenants set aside are reached: by host, then by the longest path prefix; never where a served tenant is. */
export class TenantRoutes {
  readonly #byHost = new Map<string, BrokenTenant>();
  readonly #byPath: BrokenTenant[];

  constructor(broken: readonly BrokenTenant[], served: (host: string | undefined, prefix: string | undefined) => boolean) {
    for (const tenant of broken) for (const host of tenant.hosts) if (!served(host, undefined)) this.#byHost.set(host, tenant);
    this.#byPath = broken.filter((t) => t.pathPrefix !== undefined && !served(undefined, t.pathPrefix));
    this.#byPath.sort((a, b) => (b.pathPrefix ?? "").length - (a.pathPrefix ?? "").length);
  }

  resolve(host: string, pathname: string): BrokenTenant | undefined {
    const byHost = this.#byHost.get(host);
    if (byHost) return byHost;
    return this.#byPath.find((t) => t.pathPrefix !== undefined && (pathname === t.pathPrefix || pathname.startsWith(`${t.pathPrefix}/`)));
  }
}
