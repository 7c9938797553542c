/**
 * Tenants kept one per KV key (`tenant:<id>`, routed by `host:<host>` and `path:<prefix>`): an
 * isolate reads only the tenants it serves and holds them in a bounded cache.
 */

import { hostnameOf, requestHost } from "../core/host.ts";
import { BoundedCache } from "./bounded-cache.ts";
import { TenantStoreError } from "./tenant-store-error.ts";
import { handleTenantsAdmin } from "./tenant-admin.ts";
import { brokenTenant, parseTenantsByTenant, type TenantsDocument } from "./tenant-document.ts";
import type { ResolvedTenant, TenantDirectory } from "./tenant-directory.ts";
import { hostKey, pathKey, prefixCandidates, tenantKey } from "./tenant-keys.ts";
import type { TenantLookup, TenantResolution } from "./tenant-lookup.ts";
import type { TenantRecord, TenantRecords } from "./tenant-records.ts";

/** Options of {@link KeyedTenants}. */
export interface KeyedTenantsOptions {
  kv: KVNamespace;
  /** Builds the directory of one tenant from its document; `previous` is the one it replaces (a tenant's last good config). */
  directory(document: TenantsDocument, previous: TenantDirectory | undefined): TenantDirectory;
  /** How long a tenant's config is used before it is read again (default 60 s). */
  ttlMs?: number;
  /** How long a host or path that names no tenant is remembered as such (default 10 s). */
  missTtlMs?: number;
  /** Most tenants held at once (default 1,000). */
  maxTenants?: number;
  /** Most bytes of tenant configs held at once (default 16 MiB). */
  maxBytes?: number;
  /** KV's own edge cache for each read, in seconds (default 60, KV's least). */
  kvCacheTtlSeconds?: number;
  /** Where the admin API's writes are held strongly consistent (the tenants' quota objects), when the Worker binds them. */
  records?: TenantRecords;
  /** How often a tenant held is checked against its record (default 5 s): the bound for an admin API change to reach every isolate. */
  recheckMs?: number;
  now?: () => number;
}

/** What an isolate holds of one tenant: its config (null: none), the directory built from it, and its record's version. */
interface Held {
  /** The config text the directory was built from: a read with the same text keeps it. */
  text: string | null;
  directory?: TenantDirectory;
  /** The version of the tenant's record it matches (0: none). */
  version: number;
  /** When it was last checked against the record. */
  checkedAt: number;
}

const MAX_ROUTES = 100_000;
const MAX_ROUTE_BYTES = 8 * 1024 * 1024;

export class KeyedTenants implements TenantLookup {
  readonly #options: KeyedTenantsOptions;
  readonly #now: () => number;
  readonly #tenants: BoundedCache<Held>;
  /** Host and path routes to tenant ids; null for a route that names no tenant. */
  readonly #routes = new BoundedCache<string | null>({ maxEntries: MAX_ROUTES, maxBytes: MAX_ROUTE_BYTES });
  /** Reads in flight, so that concurrent requests for one key share one read. */
  readonly #reading = new Map<string, Promise<unknown>>();

  constructor(options: KeyedTenantsOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#tenants = new BoundedCache({ maxEntries: options.maxTenants ?? 1000, maxBytes: options.maxBytes ?? 16 * 1024 * 1024 });
  }

  /** The tenant of a request: by Host first, then by the longest path prefix; undefined when none serves it. */
  async resolve(request: Request, pathname: string): Promise<TenantResolution | undefined> {
    const byHost = await this.#via(hostKey(hostnameOf(requestHost(request))), request, pathname);
    if (byHost) return byHost;
    for (const prefix of prefixCandidates(pathname)) {
      const byPath = await this.#via(pathKey(prefix), request, pathname);
      if (byPath) return byPath;
    }
    return undefined;
  }

  /** The directory of the tenant with this id (sessions and tasks find their tenant by id), or undefined. */
  async byId(id: string): Promise<TenantDirectory | undefined> {
    return (await this.#tenant(id)).directory;
  }

  /** The tenants admin API: writes checked configs, and this isolate forgets what it held of a tenant it changed. */
  admin(request: Request, token: string | undefined, secretKeys?: string): Promise<Response> {
    const forget = (id: string) => {
      this.#tenants.delete(tenantKey(id));
      this.#routes.clear();
    };
    return handleTenantsAdmin(request, token, {
      kv: this.#options.kv,
      forget,
      secretKeys,
      ...(this.#options.records ? { records: this.#options.records } : {}),
    });
  }

  /** The tenants served at the request's host, for its AI Catalog: the host's own tenant (path tenants are not listed). */
  async at(request: Request): Promise<ResolvedTenant[]> {
    const id = await this.#route(hostKey(hostnameOf(requestHost(request))));
    const held = id === null ? undefined : await this.#tenant(id);
    return held?.directory?.tenantsAt(request) ?? [];
  }

  /** The tenant a route names, when its config (the authority; a route is only a hint) agrees that it serves this request. */
  async #via(route: string, request: Request, pathname: string): Promise<TenantResolution | undefined> {
    const id = await this.#route(route);
    if (id === null) return undefined;
    const { directory } = await this.#tenant(id);
    if (!directory) return undefined;
    const resolved = directory.resolve(request, pathname);
    if (resolved) return { directory, resolved };
    const broken = directory.unavailable(request, pathname) ?? (directory.tenants.length === 0 ? directory.broken[0] : undefined);
    return broken ? { directory, broken } : undefined;
  }

  #route(key: string): Promise<string | null> {
    const now = this.#now();
    const cached = this.#routes.get(key, now);
    if (cached !== undefined) return Promise.resolve(cached);
    return this.#once(`route ${key}`, async () => {
      const id = await this.#readOr(key, this.#routes.peek(key));
      const ttl = id === null ? (this.#options.missTtlMs ?? 10_000) : (this.#options.ttlMs ?? 60_000);
      this.#routes.set(key, id, key.length + (id?.length ?? 0), this.#now() + ttl);
      return id;
    });
  }

  #tenant(id: string): Promise<Held> {
    const key = tenantKey(id);
    const now = this.#now();
    const cached = this.#tenants.get(key, now);
    if (cached !== undefined && (this.#options.records === undefined || now - cached.checkedAt < (this.#options.recheckMs ?? 5000)))
      return Promise.resolve(cached);
    return this.#once(key, () => (cached ? this.#recheck(id, cached) : this.#load(id)));
  }

  /** Reads a tenant's config, and its record where there are records: a record written through the admin API wins over KV. */
  async #load(id: string): Promise<Held> {
    const key = tenantKey(id);
    const previous = this.#tenants.peek(key);
    const [stored, record] = await Promise.all([this.#readOr(key, previous?.text), this.#record(id)]);
    if (record !== undefined && record.version > 0) return this.#hold(id, record.config, record.version, previous);
    return this.#hold(id, stored, previous?.version ?? 0, previous);
  }

  /** A tenant held whose record may have changed: rebuilt from the record when its version moved on. */
  async #recheck(id: string, held: Held): Promise<Held> {
    const record = await this.#record(id);
    if (record === undefined || record.version === held.version) {
      held.checkedAt = this.#now();
      return held;
    }
    return this.#hold(id, record.config, record.version, held);
  }

  #hold(id: string, text: string | null, version: number, previous: Held | undefined): Held {
    const key = tenantKey(id);
    const now = this.#now();
    const held: Held =
      previous !== undefined && previous.text === text
        ? { ...previous, version, checkedAt: now }
        : { text, version, checkedAt: now, ...(text === null ? {} : { directory: this.#build(id, text, previous?.directory) }) };
    const ttl = text === null ? (this.#options.missTtlMs ?? 10_000) : (this.#options.ttlMs ?? 60_000);
    this.#tenants.set(key, held, key.length + (text?.length ?? 0), now + ttl);
    return held;
  }

  /** The tenant's record, when the Worker has records; a failure to read it is logged and KV alone decides. */
  async #record(id: string): Promise<TenantRecord | undefined> {
    if (this.#options.records === undefined) return undefined;
    try {
      return await this.#options.records.read(id);
    } catch (error) {
      console.error(`edge-mcp: the record of tenant ${id} could not be read, so KV alone decides: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  /** One tenant's directory: its config checked as in a document, and its id checked against its key. */
  #build(id: string, text: string, previous: TenantDirectory | undefined): TenantDirectory {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      const problem = `${tenantKey(id)} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
      return this.#options.directory({ tenants: [], broken: [brokenTenant(undefined, id, problem)] }, previous);
    }
    const document = parseTenantsByTenant({ tenants: [raw] });
    const [tenant] = document.tenants;
    if (tenant && tenant.id !== id) {
      const problem = `${tenantKey(id)} holds the config of tenant ${tenant.id}: a tenant's key and its id must agree`;
      return this.#options.directory({ tenants: [], broken: [brokenTenant(raw, id, problem)] }, previous);
    }
    for (const broken of document.broken) console.error(`edge-mcp: tenant ${id} is not served, its configuration is invalid: ${broken.problem}`);
    return this.#options.directory(document, previous);
  }

  /**
   * A read of one key. When KV fails, what was read before stays in use (logged); with nothing
   * read before, a {@link TenantStoreError} names the key.
   */
  async #readOr(key: string, before: string | null | undefined): Promise<string | null> {
    try {
      return await this.#options.kv.get(key, { type: "text", cacheTtl: this.#options.kvCacheTtlSeconds ?? 60 });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (before === undefined) throw new TenantStoreError(`MCP_TENANTS_KV could not be read (${key}): ${reason}`);
      console.error(`edge-mcp: MCP_TENANTS_KV could not be read (${key}), so what was read before stays in use: ${reason}`);
      return before;
    }
  }

  #once<T>(key: string, read: () => Promise<T>): Promise<T> {
    const pending = this.#reading.get(key) as Promise<T> | undefined;
    if (pending) return pending;
    const started = read().finally(() => this.#reading.delete(key));
    this.#reading.set(key, started);
    return started;
  }
}
