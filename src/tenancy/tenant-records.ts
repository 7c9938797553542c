/** Where a tenant's latest config is held strongly consistent (its quota object), so that an edit reaches every isolate in seconds. */

/** A tenant's config as last written through the admin API: `version` 0 when never written there; `config` null when disabled or deleted. */
export interface TenantRecord {
  version: number;
  config: string | null;
}

export interface TenantRecords {
  read(tenant: string): Promise<TenantRecord>;
  /** Writes the tenant's new config (null: disabled or deleted); resolves to its version. */
  write(tenant: string, config: string | null): Promise<number>;
}
