/** Reads one tenant secret for the runtime that uses it (an introspection client secret, say), held for a short while. */

import { secretKeysOf } from "./secret-box.ts";
import { readSecret } from "./tenant-secrets.ts";

/** How long a value read is used before it is read again: the bound for a changed secret to take effect. */
export const SECRET_TTL_MS = 60_000;

/**
 * A reader of `tenant`'s secret `name` from the tenants' namespace, opened with MCP_SECRETS_KEY. It
 * holds the value for {@link SECRET_TTL_MS} and throws, naming the secret but never a value, when
 * the tenant has no such secret or it does not open.
 */
export function tenantSecretReader(
  kv: KVNamespace,
  secretKeys: string | undefined,
  tenant: string,
  name: string,
  now: () => number = Date.now,
): () => Promise<string> {
  let held: { value: Promise<string>; until: number } | undefined;
  const read = async (): Promise<string> => {
    const value = await readSecret(kv, await secretKeysOf(secretKeys), tenant, name);
    if (value === undefined) throw new Error(`tenant ${tenant} has no secret ${name} (edge-mcp tenants secrets put ${tenant} ${name} --url …)`);
    return value;
  };
  return () => {
    if (held === undefined || held.until <= now()) {
      const value = read();
      held = { value, until: now() + SECRET_TTL_MS };
      // A failed read is not held: the next call tries again.
      value.catch(() => (held = undefined));
    }
    return held.value;
  };
}
