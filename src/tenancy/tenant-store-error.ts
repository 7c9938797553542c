/** The error of a tenant store that cannot be read while nothing read before can stand in: the request gets 503. */
export class TenantStoreError extends Error {
  override readonly name = "TenantStoreError";
}
